//! RFC 9457 problem details: the one error type of the HTTP layer, every kind of problem it answers with
//! ([`ProblemKind`], whose names are the ends of the `type` URIs and whose statuses are fixed), and the one place
//! where domain errors become HTTP statuses.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use canvass_domain::{Chain, ConflictKind, DomainError, FieldError, RepoError};
use serde::Serialize;
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Every kind of problem the service answers with: the end of its `type` URI (`/problems/not-found`), stable, what
/// a client branches on, and its one HTTP status. The README's error table lists exactly these (a test compares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::EnumIter, strum::Display)]
#[strum(serialize_all = "kebab-case")]
pub enum ProblemKind {
    /// 400: a broken rule, a wrong type or a missing field, naming each field.
    Validation,
    /// 400: the body is not JSON.
    MalformedJson,
    /// 400: the body could not be read at all.
    MalformedRequest,
    /// 401: no key, an unknown or revoked one, or a wrong shared secret or metrics token.
    Unauthorized,
    /// 403: the key's role lacks the operation's permission (named in `detail`), the key is read-only and the
    /// operation changes something, or only an owner may do it.
    Forbidden,
    /// 404: nothing of the caller's account at this path.
    NotFound,
    /// 405: a served path asked with a method it does not declare.
    MethodNotAllowed,
    /// 408: the body did not arrive in time.
    RequestTimeout,
    /// 409: copying logic that names a deleted item or page.
    BrokenLogic,
    /// 409: something of that name or contact is there already.
    Duplicate,
    /// 409: the contact is on the blocklist.
    Blocklisted,
    /// 409: deactivating a sendout that was never activated.
    NotActivated,
    /// 409: a sender number provisioned to another account.
    SenderTaken,
    /// 409: a TWOWAY sendout whose sender is not provisioned to the account.
    SenderNotProvisioned,
    /// 409: respondents added to a LINK sendout, whose respondents are its visitors.
    LinkSendout,
    /// 409: an open link or QR code of a sendout that has no public address.
    NoPublicLink,
    /// 409: a preview of a sendout that sends no invitation (LOGIN, LINK).
    NoInvitation,
    /// 409: deleting a page that still holds items.
    PageNotEmpty,
    /// 409: changing an answered item's type, or removing option values that answers hold (listed in `values`).
    ItemHasAnswers,
    /// 409: a move that would leave a `displayWhen` naming an item that no longer comes before it (the items in
    /// `values`).
    BreaksReferences,
    /// 409: a change that would leave the account without an active owner.
    LastOwner,
    /// 409: a write refused by a concurrent change: a retry is the answer (`Retry-After: 1`).
    ConcurrentChange,
    /// 409: an `Idempotency-Key` whose first request is still running.
    IdempotencyKeyInUse,
    /// 410: a repeat of an `Idempotency-Key` whose kept answer an erasure deleted (it held the erased person);
    /// nothing runs.
    IdempotencyAnswerErased,
    /// 413: a body over the limit.
    PayloadTooLarge,
    /// 415: a body declared as anything but JSON.
    UnsupportedMediaType,
    /// 422: an `Idempotency-Key` reused for another request.
    IdempotencyKeyReused,
    /// 429: over the key's request rate.
    RateLimited,
    /// 429: the account runs as many exports at once as it may (`Retry-After` says when to try again).
    TooManyExports,
    /// 500: an unexpected failure, its cause in the log only.
    Internal,
    /// 503: the database cannot be reached now.
    Unavailable,
    /// 503: a delivery report about a message still being sent.
    MessageInFlight,
}

impl ProblemKind {
    /// The HTTP status every problem of this kind answers with.
    pub fn status(self) -> StatusCode {
        match self {
            Self::Validation | Self::MalformedJson | Self::MalformedRequest => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::BrokenLogic
            | Self::Duplicate
            | Self::Blocklisted
            | Self::NotActivated
            | Self::SenderTaken
            | Self::SenderNotProvisioned
            | Self::LinkSendout
            | Self::NoPublicLink
            | Self::NoInvitation
            | Self::PageNotEmpty
            | Self::ItemHasAnswers
            | Self::BreaksReferences
            | Self::LastOwner
            | Self::ConcurrentChange
            | Self::IdempotencyKeyInUse => StatusCode::CONFLICT,
            Self::IdempotencyAnswerErased => StatusCode::GONE,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::IdempotencyKeyReused => StatusCode::UNPROCESSABLE_ENTITY,
            Self::RateLimited | Self::TooManyExports => StatusCode::TOO_MANY_REQUESTS,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Self::Unavailable | Self::MessageInFlight => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The end of the `type` URI: `not-found` for `/problems/not-found`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// Seconds a client is asked to wait (`Retry-After`) before it retries a request answered 503.
pub const UNAVAILABLE_RETRY_AFTER: u64 = 5;

/// Seconds a client is asked to wait (`Retry-After`) before it starts another export when its account runs as many
/// as it may: about what a long export takes to stream.
pub const EXPORTS_RETRY_AFTER: u64 = 10;

/// One broken rule of one field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProblemField {
    /// Path of the field, such as `pages[0].items[1].text`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

/// An RFC 9457 problem: the body of every error response.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// The kind of problem, served as the URI reference `/problems/<kind>` in `type`; stable (`validation`,
    /// `not-found`, ...).
    #[serde(rename = "type", serialize_with = "type_uri")]
    #[schema(value_type = String)]
    pub kind: ProblemKind,
    /// Short summary of the status.
    pub title: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong in this request.
    pub detail: String,
    /// The broken rules, for validation problems.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ProblemField>,
    /// The accepted values, where a value must be one of a set.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[schema(value_type = Vec<String>)]
    pub supported_values: Box<[String]>,
    /// The values in the way of a change, for `item-has-answers`: the option values that answers hold.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    #[schema(value_type = Vec<String>)]
    pub values: Box<[String]>,
    /// For a `duplicate` contact of the directory: the contact that has the email address or phone number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_id: Option<i64>,
}

impl Problem {
    /// A problem of this kind, with its status, and this detail.
    pub fn new(kind: ProblemKind, detail: impl Into<String>) -> Self {
        let status = kind.status();
        Self {
            kind,
            title: status.canonical_reason().unwrap_or("Error"),
            status: status.as_u16(),
            detail: detail.into(),
            errors: Vec::new(),
            supported_values: Box::default(),
            values: Box::default(),
            contact_id: None,
        }
    }

    /// 400 for input that breaks rules, naming each field.
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            many => format!("{} fields are invalid", many.len()),
        };
        let mut problem = Self::new(ProblemKind::Validation, detail);
        problem.errors = errors.into_iter().map(|e| ProblemField { field: e.field, message: e.message }).collect();
        problem
    }

    /// 400 for one field.
    pub fn invalid_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::invalid(vec![FieldError::new(field, message)])
    }

    /// 404 for a missing resource.
    pub fn not_found(what: &str) -> Self {
        Self::new(ProblemKind::NotFound, format!("{what} not found"))
    }

    /// 503: the database cannot be reached now.
    pub fn unavailable() -> Self {
        Self::new(ProblemKind::Unavailable, "the service cannot reach its database; retry later")
    }

    /// 500 for an unexpected failure. The cause is logged here, once, and never sent to the client.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error.message = %cause, "request failed");
        Self::new(ProblemKind::Internal, "an unexpected error occurred")
    }

    /// Adds the accepted values.
    pub fn with_supported_values(mut self, values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.supported_values = values.into_iter().map(Into::into).collect();
        self
    }
}

fn type_uri<S: serde::Serializer>(kind: &ProblemKind, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("/problems/{kind}"))
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status, self.kind, self.detail)
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        match self.status {
            401 => {
                response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
            }
            503 => {
                response.insert_header((header::RETRY_AFTER, HeaderValue::from(UNAVAILABLE_RETRY_AFTER)));
            }
            // The rest of a body that did not arrive in time is not waited for.
            408 => {
                response.force_close();
            }
            _ => {}
        }
        if self.kind == ProblemKind::TooManyExports {
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(EXPORTS_RETRY_AFTER)));
        }
        if self.kind == ProblemKind::ConcurrentChange {
            // A retry is the answer: say so, and say it is soon (an Idempotency-Key is then not kept either).
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(1u64)));
        }
        response.body(serde_json::to_string(self).unwrap_or_default())
    }
}

/// The problem kind of each kind of conflict.
fn conflict_kind(kind: ConflictKind) -> ProblemKind {
    match kind {
        ConflictKind::BrokenLogic => ProblemKind::BrokenLogic,
        ConflictKind::Duplicate => ProblemKind::Duplicate,
        ConflictKind::Blocklisted => ProblemKind::Blocklisted,
        ConflictKind::NotActivated => ProblemKind::NotActivated,
        ConflictKind::SenderTaken => ProblemKind::SenderTaken,
        ConflictKind::SenderNotProvisioned => ProblemKind::SenderNotProvisioned,
        ConflictKind::LinkSendout => ProblemKind::LinkSendout,
        ConflictKind::NoPublicLink => ProblemKind::NoPublicLink,
        ConflictKind::NoInvitation => ProblemKind::NoInvitation,
        ConflictKind::PageNotEmpty => ProblemKind::PageNotEmpty,
        ConflictKind::BreaksReferences => ProblemKind::BreaksReferences,
        ConflictKind::ItemHasAnswers => ProblemKind::ItemHasAnswers,
        ConflictKind::ContactExists => ProblemKind::Duplicate,
        ConflictKind::LastOwner => ProblemKind::LastOwner,
    }
}

impl From<DomainError> for Problem {
    fn from(error: DomainError) -> Self {
        match error {
            DomainError::NotFound(what) => Self::not_found(what.noun()),
            DomainError::Invalid(errors) => Self::invalid(errors),
            DomainError::Conflict { kind: ConflictKind::ContactExists, detail, values } => Self {
                contact_id: values.first().and_then(|id| id.parse().ok()),
                ..Self::new(ProblemKind::Duplicate, detail)
            },
            DomainError::Conflict { kind, detail, values } => {
                Self { values: values.into_boxed_slice(), ..Self::new(conflict_kind(kind), detail) }
            }
            DomainError::Forbidden(detail) => Self::new(ProblemKind::Forbidden, detail),
            DomainError::Repo(RepoError::Unavailable(cause)) => {
                tracing::warn!(error.message = %Chain(&*cause), "database unavailable");
                Self::unavailable()
            }
            DomainError::Repo(RepoError::Concurrent(cause)) => {
                tracing::info!(error.message = %Chain(&*cause), "write refused by a concurrent change");
                Self::new(
                    ProblemKind::ConcurrentChange,
                    "something this request relies on changed while it ran; retry it",
                )
            }
            DomainError::Repo(cause @ (RepoError::Duplicate { .. } | RepoError::Other(_))) => {
                Self::internal(&Chain(&cause))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_conflict_is_a_409_of_its_own_type() {
        let problem = Problem::from(DomainError::conflict(ConflictKind::SenderNotProvisioned, "not ours"));
        assert_eq!(
            (problem.status, problem.kind, problem.detail.as_str()),
            (409, ProblemKind::SenderNotProvisioned, "not ours")
        );
        let json = serde_json::to_value(Problem::from(DomainError::conflict(ConflictKind::BrokenLogic, "x")))
            .unwrap_or_default();
        assert_eq!(json["type"], "/problems/broken-logic");
    }

    /// The rows of the README's error table: `| status | `kind` | when |`.
    fn readme_error_table() -> Vec<(u16, String)> {
        let readme = include_str!("../../../README.md");
        let section = readme.split("\n## Errors\n").nth(1).unwrap_or_default();
        let section = section.split("\n## ").next().unwrap_or_default();
        section
            .lines()
            .filter_map(|line| {
                let mut cells = line.split('|').map(str::trim).skip(1);
                let status = cells.next()?.parse().ok()?;
                let kind = cells.next()?.trim_matches('`').to_owned();
                Some((status, kind))
            })
            .collect()
    }

    #[test]
    fn the_readme_lists_every_problem_kind_with_its_status_and_no_other() {
        use strum::IntoEnumIterator;
        let mut served: Vec<(u16, String)> =
            ProblemKind::iter().map(|kind| (kind.status().as_u16(), kind.name().to_owned())).collect();
        let mut documented = readme_error_table();
        served.sort();
        documented.sort();
        assert!(documented.len() > 10, "the README's error table was not found");
        assert_eq!(documented, served, "README.md, \"## Errors\": one row per ProblemKind, with its status");
    }

    #[test]
    fn a_kind_is_served_with_its_own_status_and_type() {
        for kind in [ProblemKind::RateLimited, ProblemKind::IdempotencyKeyReused, ProblemKind::MethodNotAllowed] {
            let problem = Problem::new(kind, "x");
            let json = serde_json::to_value(&problem).unwrap_or_default();
            assert_eq!(json["type"], format!("/problems/{}", kind.name()));
            assert_eq!(json["status"], kind.status().as_u16());
            assert_eq!(problem.error_response().status(), kind.status());
        }
        assert_eq!(ProblemKind::IdempotencyKeyInUse.name(), "idempotency-key-in-use");
    }
}
