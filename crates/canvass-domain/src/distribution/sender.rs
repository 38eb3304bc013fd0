//! Sender numbers an account owns: the E.164 numbers its TWOWAY sendouts send from and receive replies on. A
//! number belongs to at most one account.

use time::OffsetDateTime;

use crate::error::FieldError;

use super::contact::is_e164;

/// A checked sender number: an E.164 phone number, trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SenderNumber(String);

impl SenderNumber {
    /// Checks a number given as `field`.
    ///
    /// ```
    /// use canvass_domain::distribution::SenderNumber;
    ///
    /// assert_eq!(SenderNumber::parse(" +4790000001 ", "sms").unwrap().as_str(), "+4790000001");
    /// assert_eq!(SenderNumber::parse("Acme", "sms").unwrap_err().field, "sms");
    /// assert!(SenderNumber::parse("4790000001", "sms").is_err());
    /// ```
    pub fn parse(text: &str, field: &str) -> Result<Self, FieldError> {
        let number = text.trim();
        if is_e164(number) {
            Ok(Self(number.to_owned()))
        } else {
            Err(FieldError::new(field, "must be an E.164 phone number such as +4790000001"))
        }
    }

    /// The number.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A number provisioned to an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProvisionedSender {
    /// The number.
    pub number: String,
    /// When it was provisioned.
    pub created_at: OffsetDateTime,
}
