//! Errors of the domain: what a use case can refuse, and what a repository can report.

use std::fmt;

/// A broken rule of one input field. `field` is the path of the field in the request body or query, such as
/// `name`, `pages[0].items[2].options`, or relative to a batch `[3].contactDetails`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Path of the offending field.
    pub field: String,
    /// What is wrong with it, in words for a developer.
    pub message: String,
}

impl FieldError {
    /// A broken rule of `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Why a use case did not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    /// The resource named in the path does not exist for this account.
    #[error("{0} not found")]
    NotFound(Resource),
    /// The input broke one or more rules; nothing was changed.
    #[error("invalid input: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<FieldError>),
    /// The request conflicts with the current state of the resource.
    #[error("conflict: {detail}")]
    Conflict {
        /// What kind of conflict it is.
        kind: ConflictKind,
        /// What conflicts, in words.
        detail: String,
        /// The values in the way, where the kind names some (the option values answers hold, for
        /// [`ConflictKind::ItemHasAnswers`]); empty otherwise.
        values: Vec<String>,
    },
    /// The caller's role does not allow what it asked (only an owner changes owners); the detail names why.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// A repository failed.
    #[error(transparent)]
    Repo(#[from] RepoError),
}

/// The things a use case can find missing: what [`DomainError::NotFound`] names. Each shows as the noun the
/// HTTP layer puts in its 404 detail (`survey not found`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// An account.
    Account,
    /// An alert of a survey.
    Alert,
    /// One item's answer in an answer set.
    Answer,
    /// An answer set.
    AnswerSet,
    /// A background data document.
    BackgroundDataDocument,
    /// A row of a background data document (one respondent of its sendout).
    BackgroundDataRow,
    /// A contact on the account's blocklist.
    BlocklistEntry,
    /// A category.
    Category,
    /// A contact of the account's directory.
    Contact,
    /// A list of the account's contacts.
    ContactList,
    /// The receipt of an erasure.
    ErasureReceipt,
    /// A survey's frequency setting.
    FrequencySetting,
    /// An API key.
    Key,
    /// A page of a survey.
    Page,
    /// A question item of a survey.
    QuestionItem,
    /// A quota of a survey.
    Quota,
    /// A respondent of the survey.
    Respondent,
    /// A retention rule.
    RetentionRule,
    /// A sender number provisioned to the account.
    SenderNumber,
    /// A sendout of the survey.
    Sendout,
    /// A survey.
    Survey,
    /// A respondent's survey link (its token).
    SurveyLink,
    /// A LINK sendout's open link (a handle under `/s/`).
    OpenLink,
    /// A survey's translation into one language.
    Translation,
    /// A user of the account.
    User,
    /// A webhook.
    Webhook,
}

impl Resource {
    /// The noun a message names this resource by.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Alert => "alert",
            Self::Answer => "answer",
            Self::AnswerSet => "answer set",
            Self::BackgroundDataDocument => "background data document",
            Self::BackgroundDataRow => "row",
            Self::BlocklistEntry => "blocklist entry",
            Self::Category => "category",
            Self::Contact => "contact",
            Self::ContactList => "contact list",
            Self::ErasureReceipt => "erasure receipt",
            Self::FrequencySetting => "frequency setting",
            Self::Key => "key",
            Self::Page => "page",
            Self::QuestionItem => "question item",
            Self::Quota => "quota",
            Self::Respondent => "respondent",
            Self::RetentionRule => "retention rule",
            Self::SenderNumber => "sender number of this account",
            Self::Sendout => "sendout",
            Self::Survey => "survey",
            Self::SurveyLink => "survey link",
            Self::OpenLink => "open link",
            Self::Translation => "translation",
            Self::User => "user",
            Self::Webhook => "webhook",
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.noun())
    }
}

/// The kinds of [`DomainError::Conflict`]. A transport names each in its own words (the HTTP layer as a problem type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConflictKind {
    /// A survey whose logic names missing items or pages was to be copied with its logic.
    BrokenLogic,
    /// The thing to add exists already: a contact of the sendout or of the blocklist, a label name of the sendout.
    Duplicate,
    /// The contact is on the account's blocklist.
    Blocklisted,
    /// A sendout that was never activated cannot be deactivated.
    NotActivated,
    /// The sender number is provisioned to another account.
    SenderTaken,
    /// A TWOWAY sendout's sender is not a number provisioned to its account.
    SenderNotProvisioned,
    /// Respondents added to a LINK sendout: its respondents are its visitors.
    LinkSendout,
    /// An open link or QR code asked of a sendout that has no public address (EMAIL, SMS, TWOWAY).
    NoPublicLink,
    /// A page to delete still holds items.
    PageNotEmpty,
    /// A change that answers would no longer fit: an answered item's type, or option values answers hold.
    ItemHasAnswers,
    /// A move that would leave an item's `displayWhen` naming an item that no longer comes before it; the
    /// conflict's values are the items whose conditions it would break.
    BreaksReferences,
    /// A contact of the directory holds the email address or phone number already; the conflict's one value is
    /// its id.
    ContactExists,
    /// A preview asked of a sendout that sends nothing (LOGIN, LINK).
    NoInvitation,
    /// A change that would leave the account without an active owner.
    LastOwner,
}

impl DomainError {
    /// A conflict of this kind.
    pub fn conflict(kind: ConflictKind, detail: impl Into<String>) -> Self {
        Self::Conflict { kind, detail: detail.into(), values: Vec::new() }
    }

    /// A conflict of this kind, naming the values in the way.
    pub fn conflict_over(kind: ConflictKind, detail: impl Into<String>, values: Vec<String>) -> Self {
        Self::Conflict { kind, detail: detail.into(), values }
    }

    /// One broken rule of one field.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::Invalid(vec![FieldError::new(field, message)])
    }

    /// `Err(Invalid(errors))` unless `errors` is empty.
    pub fn check(errors: Vec<FieldError>) -> Result<(), Self> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Self::Invalid(errors))
        }
    }
}

/// The lower failure a [`RepoError`] was built from: the adapter's own error (diesel's, the pool's), or words
/// where there is none (`"...".into()`). Like every message here it names no personal data.
pub type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// What a repository reports when it cannot do its work. Adapters MUST map their failures to these variants. Each
/// carries its [`Cause`] as its `source`, which its own message leaves out: log the whole chain with [`Chain`].
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// The store cannot be reached now (pool exhausted, connection lost, statement cancelled): worth retrying
    /// later.
    #[error("store unavailable")]
    Unavailable(#[source] Cause),
    /// A uniqueness rule of the store refused the write.
    #[error("unique constraint violated: {constraint}")]
    Duplicate {
        /// The constraint's name.
        constraint: String,
        /// The store's refusal.
        #[source]
        source: Cause,
    },
    /// A row the write relied on changed or went away while it ran (a foreign key or serialization failure under
    /// concurrent requests): the request can be retried.
    #[error("concurrent change")]
    Concurrent(#[source] Cause),
    /// Anything else: a bug or an operational failure, never caused by client input.
    #[error("store failure")]
    Other(#[source] Cause),
}

impl RepoError {
    /// The store went away while a transaction was rolled back after `error`: `Unavailable`, the rollback's failure
    /// as its source, what was being undone named in words.
    pub fn rollback_failed(error: &DomainError, rollback: RepoError) -> Self {
        Self::Unavailable(Box::new(RollbackFailed { undoing: Chain(error).to_string(), source: rollback }))
    }
}

/// A rollback that failed: the cause of [`RepoError::rollback_failed`].
#[derive(Debug, thiserror::Error)]
#[error("rollback failed after: {undoing}")]
struct RollbackFailed {
    undoing: String,
    #[source]
    source: RepoError,
}

/// An error and its sources, shown as `outer: inner: innermost` (as anyhow's `{:#}` shows them): for logs.
pub struct Chain<'a>(pub &'a (dyn std::error::Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(error) = source {
            write!(f, ": {error}")?;
            source = error.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repo_error_keeps_its_cause_as_its_source() {
        let error = DomainError::from(RepoError::Other("relation \"users\" does not exist".into()));
        assert_eq!(error.to_string(), "store failure");
        assert_eq!(Chain(&error).to_string(), "store failure: relation \"users\" does not exist");
        let duplicate = RepoError::Duplicate { constraint: "labels_name_key".into(), source: "refused".into() };
        assert_eq!(Chain(&duplicate).to_string(), "unique constraint violated: labels_name_key: refused");
    }

    #[test]
    fn not_found_names_the_resource_by_its_noun() {
        assert_eq!(DomainError::NotFound(Resource::AnswerSet).to_string(), "answer set not found");
        assert_eq!(Resource::SenderNumber.to_string(), "sender number of this account");
    }
}
