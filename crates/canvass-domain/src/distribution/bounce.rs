//! Permanent email failures reported by the mail relay (bounces).

use time::OffsetDateTime;
use validator::ValidateEmail;

use crate::error::FieldError;
use crate::ids::{RespondentId, SendoutId};

/// A recorded permanent failure.
#[derive(Clone, PartialEq, Eq)]
pub struct PermanentFailure {
    /// The address that failed.
    pub email_address: String,
    /// The domain the message was sent from.
    pub sending_domain: String,
    /// When it failed.
    pub failed_at: OffsetDateTime,
    /// The relay's reason.
    pub reason: String,
    /// The sendout of the failed message, when known.
    pub sendout_id: Option<SendoutId>,
    /// The respondent of the failed message, when known.
    pub respondent_id: Option<RespondentId>,
}

/// A failure to record, checked. Made only by [`NewPermanentFailure::check`], read through its accessors.
#[derive(Clone, PartialEq, Eq)]
pub struct NewPermanentFailure {
    email_address: String,
    email_key: String,
    sending_domain: String,
    failed_at: OffsetDateTime,
    reason: String,
}

impl NewPermanentFailure {
    /// Checks a reported failure: an email address and a sending domain; `path` prefixes field names.
    ///
    /// ```
    /// use canvass_domain::distribution::NewPermanentFailure;
    /// use time::macros::datetime;
    ///
    /// let at = datetime!(2026-11-22 10:00 UTC);
    /// let ok = NewPermanentFailure::check("Ann@Example.com", "mail.acme.example", at, "550 no such user", "f.");
    /// assert_eq!(ok.unwrap().email_key(), "ann@example.com");
    /// assert!(NewPermanentFailure::check("ann", "", at, "", "f.").is_err());
    /// ```
    pub fn check(
        email_address: &str,
        sending_domain: &str,
        failed_at: OffsetDateTime,
        reason: &str,
        path: &str,
    ) -> Result<Self, Vec<FieldError>> {
        use crate::limits::{push_length, DOMAIN, EMAIL, REASON};
        let mut errors = Vec::new();
        // Lengths count what the client sent, as the published maxLength does, before any trimming.
        push_length(&mut errors, format!("{path}emailAddress"), email_address, EMAIL);
        push_length(&mut errors, format!("{path}sendingDomain"), sending_domain, DOMAIN);
        push_length(&mut errors, format!("{path}reason"), reason, REASON);
        let email_address = email_address.trim();
        if !email_address.validate_email() {
            errors.push(FieldError::new(format!("{path}emailAddress"), "must be an email address"));
        }
        let sending_domain = sending_domain.trim();
        if sending_domain.is_empty() || sending_domain.contains(char::is_whitespace) {
            errors.push(FieldError::new(format!("{path}sendingDomain"), "must be a domain name"));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Self {
            email_address: email_address.to_owned(),
            email_key: email_address.to_lowercase(),
            sending_domain: sending_domain.to_lowercase(),
            failed_at,
            reason: reason.to_owned(),
        })
    }

    /// The address that failed, trimmed.
    pub fn email_address(&self) -> &str {
        &self.email_address
    }

    /// Its comparison key (lower case).
    pub fn email_key(&self) -> &str {
        &self.email_key
    }

    /// The sending domain, lower case.
    pub fn sending_domain(&self) -> &str {
        &self.sending_domain
    }

    /// When it failed.
    pub fn failed_at(&self) -> OffsetDateTime {
        self.failed_at
    }

    /// The relay's reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// Filters of the failure list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BounceFilter {
    /// Only failures of this sending domain (case-insensitive).
    pub sending_domain: Option<String>,
    /// Only failures at or after this time.
    pub from: Option<OffsetDateTime>,
}

impl BounceFilter {
    /// The filter of a failure list: a blank domain filters nothing, and one longer than a DNS name is refused
    /// (as `sendingDomain`).
    ///
    /// ```
    /// use canvass_domain::distribution::BounceFilter;
    ///
    /// let blank = BounceFilter::new(Some("  ".into()), None).unwrap();
    /// assert_eq!(blank.sending_domain, None);
    /// assert!(BounceFilter::new(Some("a".repeat(254)), None).is_err());
    /// ```
    pub fn new(sending_domain: Option<String>, from: Option<OffsetDateTime>) -> Result<Self, FieldError> {
        if let Some(domain) = &sending_domain {
            crate::limits::check_length("sendingDomain", domain, crate::limits::DOMAIN)?;
        }
        Ok(Self { sending_domain: sending_domain.filter(|domain| !domain.trim().is_empty()), from })
    }
}

crate::debug_without_personal_data!(PermanentFailure { sending_domain, failed_at, sendout_id, respondent_id });

crate::debug_without_personal_data!(NewPermanentFailure { sending_domain, failed_at });

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_filter_takes_a_domain_of_253_characters_and_refuses_254() {
        let longest = "é".repeat(253);
        assert_eq!(BounceFilter::new(Some(longest.clone()), None).unwrap().sending_domain, Some(longest));
        let error = BounceFilter::new(Some("é".repeat(254)), None).unwrap_err();
        assert_eq!(error.field, "sendingDomain");
    }

    #[test]
    fn lengths_count_the_untrimmed_input() {
        let at = datetime!(2026-11-22 10:00 UTC);
        let padded = format!("{}acme.example", " ".repeat(250));
        let errors = NewPermanentFailure::check("ann@example.com", &padded, at, "", "f.").unwrap_err();
        assert_eq!(errors[0].field, "f.sendingDomain");
        assert!(NewPermanentFailure::check("ann@example.com", " acme.example ", at, "", "f.").is_ok());
    }
}
