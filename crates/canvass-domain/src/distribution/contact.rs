//! Contact details: what an email address, a phone number, an SMS sender and a login identifier must look like,
//! and the normalised key that compares them (email addresses case-insensitively).

use validator::ValidateEmail;

use super::sendout::DispatchType;

/// The key contacts are compared by: trimmed, and lower-cased when it is an email address.
///
/// ```
/// use canvass_domain::distribution::contact_key;
///
/// assert_eq!(contact_key(" Ann@Example.COM "), "ann@example.com");
/// assert_eq!(contact_key("+4791234567"), "+4791234567");
/// assert_eq!(contact_key("Employee-42"), "Employee-42");
/// ```
pub fn contact_key(contact: &str) -> String {
    let trimmed = contact.trim();
    if trimmed.contains('@') {
        trimmed.to_lowercase()
    } else {
        trimmed.to_owned()
    }
}

/// Whether `number` is an E.164 phone number: `+`, then 2 to 15 digits, the first not 0.
pub(crate) fn is_e164(number: &str) -> bool {
    let Some(digits) = number.strip_prefix('+') else { return false };
    (2..=15).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) && !digits.starts_with('0')
}

/// Checks contact details against the sendout type: an email address (EMAIL), an E.164 phone number (SMS,
/// TWOWAY), a login identifier of 1 to 255 characters (LOGIN). Returns the message of the broken rule.
///
/// ```
/// use canvass_domain::distribution::{check_contact, DispatchType};
///
/// assert!(check_contact(DispatchType::Email, "ann@example.com").is_ok());
/// assert!(check_contact(DispatchType::Email, "ann").is_err());
/// assert!(check_contact(DispatchType::Sms, "+4791234567").is_ok());
/// assert!(check_contact(DispatchType::TwoWay, "91234567").is_err());
/// assert!(check_contact(DispatchType::Login, "employee-42").is_ok());
/// ```
pub fn check_contact(kind: DispatchType, contact: &str) -> Result<(), &'static str> {
    if !crate::limits::fits(contact, crate::limits::CONTACT) {
        return Err("must be at most 320 characters");
    }
    let contact = contact.trim();
    match kind {
        DispatchType::Email if contact.validate_email() => Ok(()),
        DispatchType::Email => Err("must be an email address"),
        DispatchType::Sms | DispatchType::TwoWay if is_e164(contact) => Ok(()),
        DispatchType::Sms | DispatchType::TwoWay => Err("must be an E.164 phone number such as +4791234567"),
        DispatchType::Login if (1..=255).contains(&contact.chars().count()) => Ok(()),
        DispatchType::Login => Err("must be a login identifier of 1 to 255 characters"),
        DispatchType::Link => Err("is not taken: a LINK sendout's respondents are its visitors"),
    }
}

/// Checks contact details of any kind, as the blocklist and an erasure take them: 1 to 320 characters as sent,
/// none a control character (not even in the blanks around them); returns them trimmed.
///
/// ```
/// use canvass_domain::distribution::check_any_contact;
///
/// assert_eq!(check_any_contact(" Ann@Example.com ").unwrap(), "Ann@Example.com");
/// assert!(check_any_contact("\tann@example.com").is_err());
/// assert!(check_any_contact(" ").is_err());
/// ```
pub fn check_any_contact(contact: &str) -> Result<&str, crate::error::DomainError> {
    let trimmed = contact.trim();
    if trimmed.is_empty() || !crate::limits::fits(contact, crate::limits::CONTACT) || contact.contains(char::is_control)
    {
        let message = "must be 1 to 320 characters, none a control character";
        return Err(crate::error::DomainError::invalid("contactDetails", message));
    }
    Ok(trimmed)
}

/// Checks an SMS sender: 1 to 11 ASCII letters and digits, or an E.164 number.
///
/// ```
/// use canvass_domain::distribution::check_sms_sender;
///
/// assert!(check_sms_sender("Canvass").is_ok());
/// assert!(check_sms_sender("+4791234567").is_ok());
/// assert!(check_sms_sender("12345").is_ok(), "a short code");
/// assert!(check_sms_sender("TwelveChars1").is_err());
/// assert!(check_sms_sender("no spaces").is_err());
/// ```
pub fn check_sms_sender(sender: &str) -> Result<(), &'static str> {
    let alphanumeric = (1..=11).contains(&sender.len()) && sender.chars().all(|c| c.is_ascii_alphanumeric());
    if alphanumeric || is_e164(sender) {
        Ok(())
    } else {
        Err("must be up to 11 letters and digits, or an E.164 phone number")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn e164_numbers() {
        for good in ["+47", "+4791234567", "+123456789012345"] {
            assert!(is_e164(good), "{good}");
        }
        for bad in ["4791234567", "+0123", "+1234567890123456", "+47 912", "+", "+4"] {
            assert!(!is_e164(bad), "{bad}");
        }
    }

    #[test]
    fn login_identifiers_have_a_length() {
        assert!(check_contact(DispatchType::Login, " ").is_err());
        assert!(check_contact(DispatchType::Login, &"x".repeat(256)).is_err());
        assert!(check_contact(DispatchType::Login, &"x".repeat(255)).is_ok());
        let padded = format!("{}{}", " ".repeat(66), "x".repeat(255));
        assert!(check_contact(DispatchType::Login, &padded).is_err(), "321 characters as sent");
        assert!(check_contact(DispatchType::Login, &padded[1..]).is_ok());
    }
}
