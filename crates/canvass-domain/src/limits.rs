//! The longest value, in characters, of every free-text field, and the most entries of the lists whose length
//! drives what a request costs. The rules that check an entity use these, so every path that writes a field
//! (create, copy, batch, reports from relays) shares one limit; docs/decisions.md lists them, and the OpenAPI
//! document states them as `maxLength` and `maxItems`.

use crate::error::FieldError;

/// Names: surveys (created or copied), sendouts.
pub const NAME: usize = 500;
/// Names of categories and background data labels.
pub const SHORT_NAME: usize = 200;
/// Survey descriptions (created or copied).
pub const DESCRIPTION: usize = 10_000;
/// A survey's own thank-you text, shown after completion in place of the service's.
pub const THANK_YOU_MESSAGE: usize = 2_000;
/// The words at the low and high ends of a Rating item's scale (`minLabel`, `maxLabel`).
pub const SCALE_LABEL: usize = 60;
/// Page titles.
pub const PAGE_TITLE: usize = 500;
/// Question and information texts of items.
pub const ITEM_TEXT: usize = 10_000;
/// Option values and labels, logic `equals` values and each chosen value of an answer.
pub const OPTION: usize = 500;
/// Email subjects of sendouts and reminders.
pub const SUBJECT: usize = 500;
/// Message texts of sendouts and reminders.
pub const MESSAGE: usize = 10_000;
/// Senders: an email address (at most 254 by its own rule) or an SMS sender (at most 16).
pub const SENDER: usize = 320;
/// Contacts: email addresses, phone numbers, login identifiers (255), blocklist entries.
pub const CONTACT: usize = 320;
/// Each background data value.
pub const BACKGROUND_VALUE: usize = 1_000;
/// Email addresses of permanent failures.
pub const EMAIL: usize = 320;
/// Sending domains (a DNS name is at most 253).
pub const DOMAIN: usize = 253;
/// Reasons of permanent failures: given through the API they are refused beyond this, reported by a relay they
/// are cut to it.
pub const REASON: usize = 2_000;
/// Open text answers.
pub const OPEN_TEXT: usize = crate::answer::MAX_TEXT_LEN;
/// Phone numbers and sender ids of inbound SMS.
pub const PHONE: usize = 32;
/// Text of an inbound SMS (ten concatenated parts).
pub const SMS_TEXT: usize = 1_600;
/// Provider message ids of inbound SMS.
pub const MESSAGE_ID: usize = 200;
/// Dates and date-times given as text.
pub const DATE_TEXT: usize = 64;
/// Comma-separated id lists in query strings.
pub const ID_LIST: usize = 2_000;

/// Options of one choice item: results, the respondent page, an answer's check and an export's labels all grow
/// with them (docs/decisions.md, "Options per choice item").
pub const OPTIONS: usize = 1_000;

/// Refuses `value` when it is longer than `max` characters, naming `field`.
///
/// ```
/// use canvass_domain::limits::check_length;
///
/// assert!(check_length("name", "Pulse", 500).is_ok());
/// assert_eq!(check_length("name", &"x".repeat(501), 500).unwrap_err().field, "name");
/// ```
pub fn check_length(field: impl Into<String>, value: &str, max: usize) -> Result<(), FieldError> {
    if !fits(value, max) {
        return Err(FieldError::new(field, format!("must be at most {max} characters")));
    }
    Ok(())
}

/// Whether `value`, as sent (blanks around it count, as JSON Schema's `maxLength` counts them), is at most `max`
/// characters long.
///
/// ```
/// use canvass_domain::limits::fits;
///
/// assert!(fits("é".repeat(3).as_str(), 3));
/// assert!(!fits(" abc", 3));
/// ```
pub fn fits(value: &str, max: usize) -> bool {
    // `len` bounds the count from above: only long byte strings are counted.
    value.len() <= max || value.chars().count() <= max
}

/// A name as the rules take it: at most `max` characters as sent, not blank; returns it trimmed.
///
/// ```
/// use canvass_domain::limits::check_name;
///
/// assert_eq!(check_name("name", " Staff ", 200).unwrap(), "Staff");
/// assert!(check_name("name", "  ", 200).is_err());
/// assert_eq!(check_name("name", &format!(" {} ", "x".repeat(199)), 200).unwrap_err().field, "name");
/// ```
pub fn check_name<'a>(field: &str, value: &'a str, max: usize) -> Result<&'a str, FieldError> {
    check_length(field, value, max)?;
    match value.trim() {
        "" => Err(FieldError::new(field, "must not be empty")),
        name => Ok(name),
    }
}

/// An optional text as the rules take it: at most `max` characters as sent; an empty or all-whitespace text means
/// none. Returns the text as given, or `None`.
///
/// ```
/// use canvass_domain::limits::check_optional_text;
///
/// assert_eq!(check_optional_text("minLabel", Some(" Poor"), 60), Ok(Some(" Poor")));
/// assert_eq!(check_optional_text("minLabel", Some(" \t"), 60), Ok(None));
/// assert_eq!(check_optional_text("minLabel", None, 60), Ok(None));
/// assert_eq!(check_optional_text("minLabel", Some(&"x".repeat(61)), 60).unwrap_err().field, "minLabel");
/// ```
pub fn check_optional_text(
    field: impl Into<String>,
    value: Option<&str>,
    max: usize,
) -> Result<Option<&str>, FieldError> {
    let Some(value) = value else { return Ok(None) };
    check_length(field, value, max)?;
    Ok(Some(value).filter(|value| !value.trim().is_empty()))
}

/// Adds the error of [`check_length`] to `errors`.
pub fn push_length(errors: &mut Vec<FieldError>, field: impl Into<String>, value: &str, max: usize) {
    if let Err(error) = check_length(field, value, max) {
        errors.push(error);
    }
}

/// `value` cut to at most `max` characters, for text that comes from a relay rather than from a client.
///
/// ```
/// use canvass_domain::limits::truncated;
///
/// assert_eq!(truncated("5.1.1 unknown".into(), 5), "5.1.1");
/// assert_eq!(truncated("ok".into(), 5), "ok");
/// ```
pub fn truncated(mut value: String, max: usize) -> String {
    if let Some((cut, _)) = value.char_indices().nth(max) {
        value.truncate(cut);
    }
    value
}
