//! Identifiers of the domain's entities.

use std::fmt;

/// The account that owns a resource. Every repository call is scoped by one, taken from authentication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountId(i64);

impl AccountId {
    /// Wraps a stored account id.
    pub const fn new(id: i64) -> Self {
        Self(id)
    }

    /// The numeric id, as stored and as shown to clients (`customerId`).
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Id of a user of an account.
pub type UserId = i64;
/// Id of an API key.
pub type KeyId = i64;
/// Id of a survey category.
pub type CategoryId = i64;
/// Id of a survey.
pub type SurveyId = i64;
/// Id of a page of a survey's question tree.
pub type PageId = i64;
/// Id of a question item.
pub type QuestionItemId = i64;
/// Id of a logic (go-to-page) rule.
pub type RuleId = i64;
/// Id of an answer set.
pub type AnswerSetId = i64;
/// Id of a respondent of a sendout.
pub type RespondentId = i64;
/// Id of a sendout.
pub type SendoutId = i64;
/// Id of a background data label.
pub type LabelId = i64;
/// Id of a background data document.
pub type BgDocumentId = i64;
/// Id of a reminder.
pub type ReminderId = i64;
