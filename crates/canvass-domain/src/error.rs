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
    NotFound(&'static str),
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
    },
    /// A repository failed.
    #[error(transparent)]
    Repo(#[from] RepoError),
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
}

impl DomainError {
    /// A conflict of this kind.
    pub fn conflict(kind: ConflictKind, detail: impl Into<String>) -> Self {
        Self::Conflict { kind, detail: detail.into() }
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

/// What a repository reports when it cannot do its work. Adapters MUST map their failures to these variants.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// The store cannot be reached now (pool exhausted, connection lost): worth retrying later.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// A uniqueness rule of the store refused the write; the string names the constraint.
    #[error("unique constraint violated: {0}")]
    Duplicate(String),
    /// A row the write relied on changed or went away while it ran (a foreign key or serialization failure under
    /// concurrent requests): the request can be retried.
    #[error("concurrent change: {0}")]
    Concurrent(String),
    /// Anything else: a bug or an operational failure, never caused by client input.
    #[error("store failure: {0}")]
    Other(String),
}
