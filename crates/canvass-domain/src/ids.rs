//! Identifiers of the domain's entities: one type per kind of entity, so that an id of one kind cannot be passed
//! where another kind is expected. Each wraps the number the store gave the entity, which is also the number
//! clients see.

use std::fmt;
use std::num::ParseIntError;
use std::str::FromStr;

/// Declares one id type per name: a copyable wrapper of an `i64`, made with `new`, read with `get` (or turned into
/// an `i64`), shown and parsed as the plain number.
macro_rules! ids {
    ($($(#[doc = $doc:literal])+ $name:ident;)+) => {$(
        $(#[doc = $doc])+
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(i64);

        impl $name {
            /// Wraps a stored id, or the number a client gave.
            pub const fn new(id: i64) -> Self {
                Self(id)
            }

            /// The number, as stored and as shown to clients.
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }

        impl FromStr for $name {
            type Err = ParseIntError;

            fn from_str(text: &str) -> Result<Self, ParseIntError> {
                text.parse().map(Self)
            }
        }
    )+};
}

ids! {
    /// The account that owns a resource. Every repository call is scoped by one, taken from authentication; clients
    /// see it as `customerId`.
    AccountId;
    /// Id of a user of an account.
    UserId;
    /// Id of an API key.
    KeyId;
    /// Id of a survey category.
    CategoryId;
    /// Id of a contact of the account's directory.
    ContactId;
    /// Id of a list of the account's contacts.
    ContactListId;
    /// Id of a survey.
    SurveyId;
    /// Id of a page of a survey's question tree.
    PageId;
    /// Id of a question item.
    QuestionItemId;
    /// Id of a logic rule.
    RuleId;
    /// Id of a quota of a survey.
    QuotaId;
    /// Id of an answer set.
    AnswerSetId;
    /// Id of a respondent of a sendout.
    RespondentId;
    /// Id of a sendout.
    SendoutId;
    /// Id of a background data label.
    LabelId;
    /// Id of a background data document.
    BgDocumentId;
    /// Id of a reminder.
    ReminderId;
    /// Id of a webhook.
    WebhookId;
    /// Id of an alert of a survey.
    AlertId;
    /// Id of an event of the audit log.
    AuditEventId;
    /// Id of an erasure's receipt.
    ErasureReceiptId;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_shows_and_parses_as_its_number() {
        let id = SurveyId::new(42);
        assert_eq!((id.get(), id.to_string()), (42, "42".to_owned()));
        assert_eq!("42".parse::<SurveyId>(), Ok(id));
        assert!("4x".parse::<SendoutId>().is_err());
    }
}
