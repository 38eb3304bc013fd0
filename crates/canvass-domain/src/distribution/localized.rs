//! Invitation texts per language: the `messages` of a sendout or reminder, their rules, and which text each
//! respondent gets (the text of the language it is shown, else the sendout's or reminder's own).

use std::collections::BTreeMap;

use crate::error::FieldError;
use crate::language::Language;

use super::sendout::{check_texts, DispatchType};

/// One language's invitation: its subject (mandatory for EMAIL) and its message with the survey link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalizedMessage {
    /// The subject, trimmed; none for a text message that has none.
    pub subject: Option<String>,
    /// The message with the survey link placeholder.
    pub message: String,
}

/// A sendout's or reminder's invitation texts by language; empty when it has only its own.
pub type LocalizedMessages = BTreeMap<Language, LocalizedMessage>;

/// One language's invitation as a client gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocalizedInput {
    /// Subject.
    pub subject: Option<String>,
    /// Message.
    pub message: Option<String>,
}

/// The longest language key a field name repeats back to the client.
const SHOWN_KEY: usize = 20;

/// Checks the `messages` of a sendout or reminder of type `kind`: keys are codes of the twelve languages, and each
/// text follows the rules of `subject` and `message` (field names `messages.<code>.subject`, ...). LOGIN and LINK
/// send nothing, so they take none (an empty object is taken as none).
///
/// ```
/// use canvass_domain::distribution::{check_localized, DispatchType, LocalizedInput};
/// use canvass_domain::language::Language;
///
/// let swedish = LocalizedInput { subject: Some("Hej".into()), message: Some("Svara: {{surveyLink}}".into()) };
/// let checked = check_localized(DispatchType::Email, vec![("sv".into(), swedish.clone())]).unwrap();
/// assert_eq!(checked[&Language::Sv].subject.as_deref(), Some("Hej"));
/// let refused = check_localized(DispatchType::Email, vec![("sv-SE".into(), swedish)]).unwrap_err();
/// assert_eq!(refused[0].field, "messages.sv-SE");
/// ```
pub fn check_localized(
    kind: DispatchType,
    input: Vec<(String, LocalizedInput)>,
) -> Result<LocalizedMessages, Vec<FieldError>> {
    if !kind.sends_messages() {
        return match input.is_empty() {
            true => Ok(LocalizedMessages::new()),
            false => Err(vec![FieldError::new("messages", format!("must be empty for {} sendouts", kind.as_str()))]),
        };
    }
    let mut errors = Vec::new();
    let mut checked = LocalizedMessages::new();
    for (key, texts) in input {
        let Ok(language) = key.parse::<Language>() else {
            let shown: String = key.chars().take(SHOWN_KEY).collect();
            let codes = Language::codes().collect::<Vec<_>>().join(", ");
            errors.push(FieldError::new(format!("messages.{shown}"), format!("is not one of the languages {codes}")));
            continue;
        };
        let field = |name: &str| format!("messages.{key}.{name}");
        let found = check_texts(kind, &field, texts.subject.as_deref(), texts.message.as_deref());
        if found.is_empty() {
            let subject = texts.subject.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
            checked.insert(language, LocalizedMessage { subject, message: texts.message.unwrap_or_default() });
        }
        errors.extend(found);
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        Err(errors)
    }
}

/// The subject and message a respondent shown `language` gets: that language's when `messages` has it, else
/// `subject` and `message` (the sendout's or reminder's own).
///
/// ```
/// use canvass_domain::distribution::{invitation_in, LocalizedMessage, LocalizedMessages};
/// use canvass_domain::language::Language;
///
/// let mut messages = LocalizedMessages::new();
/// messages.insert(Language::Fi, LocalizedMessage { subject: None, message: "Vastaa: {{surveyLink}}".into() });
/// assert_eq!(invitation_in(&messages, Language::Fi, Some("Hi"), "Answer"), (None, "Vastaa: {{surveyLink}}"));
/// assert_eq!(invitation_in(&messages, Language::Pl, Some("Hi"), "Answer"), (Some("Hi"), "Answer"));
/// ```
pub fn invitation_in<'a>(
    messages: &'a LocalizedMessages,
    language: Language,
    subject: Option<&'a str>,
    message: &'a str,
) -> (Option<&'a str>, &'a str) {
    match messages.get(&language) {
        Some(localized) => (localized.subject.as_deref(), &localized.message),
        None => (subject, message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(subject: Option<&str>, message: &str) -> LocalizedInput {
        LocalizedInput { subject: subject.map(Into::into), message: Some(message.into()) }
    }

    fn fields(kind: DispatchType, input: Vec<(&str, LocalizedInput)>) -> Vec<String> {
        let input = input.into_iter().map(|(key, texts)| (key.to_owned(), texts)).collect();
        check_localized(kind, input).err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn each_language_follows_the_rules_of_subject_and_message() {
        let input = vec![("sv", texts(None, "{{surveyLink}}")), ("fi", texts(Some("Hei"), "no link"))];
        assert_eq!(fields(DispatchType::Email, input), ["messages.sv.subject", "messages.fi.message"]);
        assert!(fields(DispatchType::Sms, vec![("sv", texts(None, "Svara {{surveyLink}}"))]).is_empty());
        let long = "x".repeat(crate::limits::SUBJECT + 1);
        assert_eq!(
            fields(DispatchType::TwoWay, vec![("pl", texts(Some(&long), "{{surveyLink}}"))]),
            ["messages.pl.subject"]
        );
    }

    #[test]
    fn keys_are_the_twelve_codes_and_a_long_key_is_cut_in_the_field_name() {
        let long = "x".repeat(300);
        let input = vec![("SV", texts(None, "{{surveyLink}}")), (long.as_str(), texts(None, "{{surveyLink}}"))];
        assert_eq!(
            fields(DispatchType::Sms, input),
            ["messages.SV".to_owned(), format!("messages.{}", "x".repeat(20))]
        );
    }

    #[test]
    fn types_that_send_nothing_take_no_messages() {
        for kind in [DispatchType::Login, DispatchType::Link] {
            assert_eq!(fields(kind, vec![("sv", texts(None, "{{surveyLink}}"))]), ["messages"]);
            assert_eq!(check_localized(kind, Vec::new()), Ok(LocalizedMessages::new()));
        }
    }

    #[test]
    fn subjects_are_trimmed_and_an_empty_one_is_none() {
        let checked = check_localized(
            DispatchType::Sms,
            vec![
                ("da".into(), texts(Some("  "), "{{surveyLink}}")),
                ("de".into(), texts(Some(" Hallo "), "{{surveyLink}}")),
            ],
        )
        .unwrap();
        assert_eq!(checked[&Language::Da].subject, None);
        assert_eq!(checked[&Language::De].subject.as_deref(), Some("Hallo"));
    }
}
