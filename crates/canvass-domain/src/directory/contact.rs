//! A contact of the directory: its rules (an email address or an E.164 phone number, at least one; names and a
//! language; at most 50 attributes named `[A-Za-z][A-Za-z0-9_]{0,39}`, each value at most 1,000 characters) and
//! the merge of a PATCH (an absent field stays, a null one is cleared, an attribute set to null is removed).

use std::collections::BTreeMap;

use time::OffsetDateTime;
use validator::ValidateEmail;

use crate::distribution::contact::is_e164;
use crate::error::FieldError;
use crate::ids::ContactId;
use crate::language::Language;
use crate::limits::{check_length, CONTACT};

/// The most attributes one contact holds.
pub const MAX_ATTRIBUTES: usize = 50;
/// The longest attribute value, in characters.
pub const MAX_ATTRIBUTE_VALUE: usize = 1_000;
/// The longest first or last name, in characters.
pub const MAX_PERSON_NAME: usize = 200;
/// The longest attribute name.
const MAX_ATTRIBUTE_NAME: usize = 40;

/// A stored contact. Its `Debug` shows the id alone: every other field is personal data.
#[derive(Clone, PartialEq, Eq)]
pub struct Contact {
    /// The contact's id.
    pub id: ContactId,
    /// Its email address, as given (trimmed).
    pub email: Option<String>,
    /// Its phone number, E.164.
    pub phone: Option<String>,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// The language it reads.
    pub language: Option<Language>,
    /// The account's own fields, by name.
    pub attributes: BTreeMap<String, String>,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it last changed.
    pub updated_at: OffsetDateTime,
}

crate::debug_without_personal_data!(Contact { id });

/// A new contact as a client gives it.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ContactInput {
    /// Email address.
    pub email: Option<String>,
    /// Phone number.
    pub phone: Option<String>,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// The language it reads.
    pub language: Option<Language>,
    /// Attributes by name.
    pub attributes: BTreeMap<String, String>,
}

crate::debug_without_personal_data!(ContactInput { language });

/// A change of a contact as a client gives it: `None` leaves a field as it is, `Some(None)` clears it; an attribute
/// set to `None` is removed, the others are set.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ContactPatch {
    /// Email address.
    pub email: Option<Option<String>>,
    /// Phone number.
    pub phone: Option<Option<String>>,
    /// First name.
    pub first_name: Option<Option<String>>,
    /// Last name.
    pub last_name: Option<Option<String>>,
    /// The language it reads.
    pub language: Option<Option<Language>>,
    /// Attributes to set (`Some`) or remove (`None`).
    pub attributes: BTreeMap<String, Option<String>>,
}

crate::debug_without_personal_data!(ContactPatch { language });

/// A checked contact, ready to store. Made only by [`ContactDraft::new`] (or [`ContactPatch::merged`]), read
/// through its accessors; its `Debug` leaves out every personal field.
#[derive(Clone, PartialEq, Eq)]
pub struct ContactDraft {
    email: Option<String>,
    phone: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    language: Option<Language>,
    attributes: BTreeMap<String, String>,
}

crate::debug_without_personal_data!(ContactDraft { language });

/// A text field given blank is none.
fn present(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// Checks an attribute name: a letter, then up to 39 letters, digits and underscores.
///
/// ```
/// use canvass_domain::directory::check_attribute_name;
///
/// assert!(check_attribute_name("customerTier").is_ok());
/// assert!(check_attribute_name("tier_2").is_ok());
/// assert!(check_attribute_name("2tier").is_err());
/// assert!(check_attribute_name(&"a".repeat(41)).is_err());
/// ```
pub fn check_attribute_name(name: &str) -> Result<(), &'static str> {
    let mut chars = name.chars();
    let first = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest = chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if first && rest && name.len() <= MAX_ATTRIBUTE_NAME {
        Ok(())
    } else {
        Err("must be a letter then up to 39 letters, digits and underscores")
    }
}

/// The name as it may be repeated in a field path: cut to the longest name there is, so that a client's megabyte
/// of key does not come back in the error.
fn shown(name: &str) -> String {
    name.chars().take(MAX_ATTRIBUTE_NAME + 1).collect()
}

impl ContactDraft {
    /// Checks every rule; each broken one names its field (`email`, `phone`, `firstName`, `lastName`,
    /// `attributes`, `attributes.<name>`).
    ///
    /// ```
    /// use canvass_domain::directory::{ContactDraft, ContactInput};
    ///
    /// let anna = ContactInput { email: Some(" Anna@Example.com ".into()), ..ContactInput::default() };
    /// let draft = ContactDraft::new(anna).unwrap();
    /// assert_eq!((draft.email(), draft.email_key().as_deref()), (Some("Anna@Example.com"), Some("anna@example.com")));
    /// let nobody = ContactInput { first_name: Some("Anna".into()), ..ContactInput::default() };
    /// assert_eq!(ContactDraft::new(nobody).unwrap_err()[0].field, "email");
    /// ```
    pub fn new(input: ContactInput) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut push = |result: Result<(), FieldError>| {
            if let Err(error) = result {
                errors.push(error);
            }
        };
        for (field, value, max) in [
            ("email", &input.email, CONTACT),
            ("phone", &input.phone, CONTACT),
            ("firstName", &input.first_name, MAX_PERSON_NAME),
            ("lastName", &input.last_name, MAX_PERSON_NAME),
        ] {
            push(check_length(field, value.as_deref().unwrap_or_default(), max));
        }
        let (email, phone) = (present(input.email), present(input.phone));
        if email.is_none() && phone.is_none() {
            push(Err(FieldError::new("email", "or phone is mandatory")));
        }
        if email.as_deref().is_some_and(|email| !email.validate_email()) {
            push(Err(FieldError::new("email", "must be an email address")));
        }
        if phone.as_deref().is_some_and(|phone| !is_e164(phone)) {
            push(Err(FieldError::new("phone", "must be an E.164 phone number such as +4791234567")));
        }
        if input.attributes.len() > MAX_ATTRIBUTES {
            push(Err(FieldError::new("attributes", format!("must hold at most {MAX_ATTRIBUTES} attributes"))));
        }
        for (name, value) in &input.attributes {
            let field = format!("attributes.{}", shown(name));
            if let Err(message) = check_attribute_name(name) {
                push(Err(FieldError::new(field.clone(), message)));
            }
            push(check_length(field, value, MAX_ATTRIBUTE_VALUE));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self {
            email,
            phone,
            first_name: present(input.first_name),
            last_name: present(input.last_name),
            language: input.language,
            attributes: input.attributes,
        })
    }

    /// Email address, trimmed.
    pub fn email(&self) -> Option<&str> {
        self.email.as_deref()
    }

    /// The email address as contacts are compared by it: lower-cased.
    pub fn email_key(&self) -> Option<String> {
        self.email.as_deref().map(crate::distribution::contact_key)
    }

    /// Phone number, E.164.
    pub fn phone(&self) -> Option<&str> {
        self.phone.as_deref()
    }

    /// First name, trimmed.
    pub fn first_name(&self) -> Option<&str> {
        self.first_name.as_deref()
    }

    /// Last name, trimmed.
    pub fn last_name(&self) -> Option<&str> {
        self.last_name.as_deref()
    }

    /// The language it reads.
    pub fn language(&self) -> Option<Language> {
        self.language
    }

    /// Attributes by name.
    pub fn attributes(&self) -> &BTreeMap<String, String> {
        &self.attributes
    }

    /// The contact this draft makes, stored as `id`.
    pub fn into_contact(self, id: ContactId, created_at: OffsetDateTime, updated_at: OffsetDateTime) -> Contact {
        Contact {
            id,
            email: self.email,
            phone: self.phone,
            first_name: self.first_name,
            last_name: self.last_name,
            language: self.language,
            attributes: self.attributes,
            created_at,
            updated_at,
        }
    }
}

impl ContactPatch {
    /// `contact` with this change merged in, checked as a new contact is.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use canvass_domain::directory::{Contact, ContactPatch};
    /// use canvass_domain::ids::ContactId;
    ///
    /// let now = time::macros::datetime!(2040-01-01 0:00 UTC);
    /// let anna = Contact { id: ContactId::new(1), email: Some("anna@example.com".into()), phone: None,
    ///     first_name: Some("Anna".into()), last_name: None, language: None,
    ///     attributes: BTreeMap::from([("tier".to_owned(), "gold".to_owned())]), created_at: now, updated_at: now };
    /// let patch = ContactPatch { first_name: Some(None),
    ///     attributes: BTreeMap::from([("tier".to_owned(), None), ("city".to_owned(), Some("Oslo".into()))]),
    ///     ..ContactPatch::default() };
    /// let merged = patch.merged(&anna).unwrap();
    /// assert_eq!((merged.first_name(), merged.email()), (None, Some("anna@example.com")));
    /// assert_eq!(merged.attributes().keys().collect::<Vec<_>>(), ["city"]);
    /// ```
    pub fn merged(self, contact: &Contact) -> Result<ContactDraft, Vec<FieldError>> {
        let mut attributes = contact.attributes.clone();
        for (name, value) in self.attributes {
            match value {
                Some(value) => attributes.insert(name, value),
                None => attributes.remove(&name),
            };
        }
        ContactDraft::new(ContactInput {
            email: self.email.unwrap_or_else(|| contact.email.clone()),
            phone: self.phone.unwrap_or_else(|| contact.phone.clone()),
            first_name: self.first_name.unwrap_or_else(|| contact.first_name.clone()),
            last_name: self.last_name.unwrap_or_else(|| contact.last_name.clone()),
            language: self.language.unwrap_or(contact.language),
            attributes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(input: ContactInput) -> Vec<String> {
        ContactDraft::new(input).err().unwrap_or_default().into_iter().map(|e| e.field).collect()
    }

    fn attributes(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect()
    }

    #[test]
    fn an_email_or_a_phone_is_needed_and_each_must_be_one() {
        let phone_only = ContactInput { phone: Some("+4791234567".into()), ..ContactInput::default() };
        assert!(fields(phone_only).is_empty());
        assert_eq!(fields(ContactInput { email: Some("  ".into()), ..ContactInput::default() }), ["email"]);
        let bad =
            ContactInput { email: Some("anna".into()), phone: Some("91234567".into()), ..ContactInput::default() };
        assert_eq!(fields(bad), ["email", "phone"]);
        let long = ContactInput {
            email: Some("anna@example.com".into()),
            first_name: Some("x".repeat(MAX_PERSON_NAME + 1)),
            ..ContactInput::default()
        };
        assert_eq!(fields(long), ["firstName"]);
    }

    #[test]
    fn attributes_have_names_of_one_form_values_of_a_length_and_a_count() {
        let email = Some("anna@example.com".to_owned());
        let named = |pairs: &[(&str, &str)]| ContactInput {
            email: email.clone(),
            attributes: attributes(pairs),
            ..ContactInput::default()
        };
        assert!(fields(named(&[("tier", "gold"), ("Region_2", "")])).is_empty());
        let long = "v".repeat(MAX_ATTRIBUTE_VALUE + 1);
        assert_eq!(fields(named(&[("1st", "x"), ("note", &long)])), ["attributes.1st", "attributes.note"]);
        let key = "k".repeat(5_000);
        assert_eq!(fields(named(&[(&key, "x")])), [format!("attributes.{}", "k".repeat(41))], "a long name is cut");
        let many: Vec<(String, String)> = (0..=MAX_ATTRIBUTES).map(|n| (format!("a{n}"), "x".to_owned())).collect();
        let too_many = ContactInput { email, attributes: many.into_iter().collect(), ..ContactInput::default() };
        assert_eq!(fields(too_many), ["attributes"]);
    }

    #[test]
    fn a_patch_keeps_what_it_does_not_name_and_is_checked_whole() {
        let now = time::macros::datetime!(2040-01-01 0:00 UTC);
        let anna = Contact {
            id: ContactId::new(1),
            email: Some("anna@example.com".into()),
            phone: Some("+4791234567".into()),
            first_name: Some("Anna".into()),
            last_name: Some("Berg".into()),
            language: Some(Language::Sv),
            attributes: attributes(&[("tier", "gold")]),
            created_at: now,
            updated_at: now,
        };
        let kept = ContactPatch::default().merged(&anna).unwrap();
        assert_eq!(
            (kept.last_name(), kept.language(), kept.phone()),
            (Some("Berg"), Some(Language::Sv), Some("+4791234567"))
        );
        let neither = ContactPatch { email: Some(None), phone: Some(None), ..ContactPatch::default() };
        assert_eq!(neither.merged(&anna).unwrap_err()[0].field, "email", "a contact keeps an email or a phone");
        let cleared = ContactPatch { language: Some(None), ..ContactPatch::default() }.merged(&anna).unwrap();
        assert_eq!(cleared.language(), None);
        assert!(!format!("{anna:?}").contains("anna@"), "no personal data in Debug");
    }
}
