//! RFC 9457 problem details: the one error type of the HTTP layer, and the one place where domain errors become
//! HTTP statuses.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use canvass_domain::{ConflictKind, DomainError, FieldError, RepoError};
use serde::Serialize;
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The problem type of a write refused by a concurrent change: a retry is the answer (`Retry-After: 1`).
pub const CONCURRENT_CHANGE: &str = "concurrent-change";

/// Seconds a client is asked to wait (`Retry-After`) before it retries a request answered 503.
pub const UNAVAILABLE_RETRY_AFTER: u64 = 5;

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
    pub kind: &'static str,
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub supported_values: Vec<String>,
}

impl Problem {
    /// A problem of kind `slug` with this status and detail.
    pub fn new(status: StatusCode, kind: &'static str, detail: impl Into<String>) -> Self {
        Self {
            kind,
            title: status.canonical_reason().unwrap_or("Error"),
            status: status.as_u16(),
            detail: detail.into(),
            errors: Vec::new(),
            supported_values: Vec::new(),
        }
    }

    /// 400 for input that breaks rules, naming each field.
    pub fn invalid(errors: Vec<FieldError>) -> Self {
        let detail = match errors.as_slice() {
            [one] => format!("{}: {}", one.field, one.message),
            many => format!("{} fields are invalid", many.len()),
        };
        let mut problem = Self::new(StatusCode::BAD_REQUEST, "validation", detail);
        problem.errors = errors.into_iter().map(|e| ProblemField { field: e.field, message: e.message }).collect();
        problem
    }

    /// 400 for one field.
    pub fn invalid_field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::invalid(vec![FieldError::new(field, message)])
    }

    /// 404 for a missing resource.
    pub fn not_found(what: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not-found", format!("{what} not found"))
    }

    /// 503: the database cannot be reached now.
    pub fn unavailable() -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "the service cannot reach its database; retry later")
    }

    /// 500 for an unexpected failure. The cause is logged here, once, and never sent to the client.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error.message = %cause, "request failed");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "an unexpected error occurred")
    }

    /// Adds the accepted values.
    pub fn with_supported_values(mut self, values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.supported_values = values.into_iter().map(Into::into).collect();
        self
    }
}

fn type_uri<S: serde::Serializer>(kind: &&'static str, serializer: S) -> Result<S::Ok, S::Error> {
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
        if self.kind == CONCURRENT_CHANGE {
            // A retry is the answer: say so, and say it is soon (an Idempotency-Key is then not kept either).
            response.insert_header((header::RETRY_AFTER, HeaderValue::from(1u64)));
        }
        response.body(serde_json::to_string(self).unwrap_or_default())
    }
}

/// The problem type of each kind of conflict: the end of its `/problems/<kind>` URI.
fn conflict_type(kind: ConflictKind) -> &'static str {
    match kind {
        ConflictKind::BrokenLogic => "broken-logic",
        ConflictKind::Duplicate => "duplicate",
        ConflictKind::Blocklisted => "blocklisted",
        ConflictKind::NotActivated => "not-activated",
        ConflictKind::SenderTaken => "sender-taken",
        ConflictKind::SenderNotProvisioned => "sender-not-provisioned",
    }
}

impl From<DomainError> for Problem {
    fn from(error: DomainError) -> Self {
        match error {
            DomainError::NotFound(what) => Self::not_found(what),
            DomainError::Invalid(errors) => Self::invalid(errors),
            DomainError::Conflict { kind, detail } => Self::new(StatusCode::CONFLICT, conflict_type(kind), detail),
            DomainError::Repo(RepoError::Unavailable(cause)) => {
                tracing::warn!(error.message = %cause, "database unavailable");
                Self::unavailable()
            }
            DomainError::Repo(RepoError::Concurrent(cause)) => {
                tracing::info!(error.message = %cause, "write refused by a concurrent change");
                Self::new(
                    StatusCode::CONFLICT,
                    CONCURRENT_CHANGE,
                    "something this request relies on changed while it ran; retry it",
                )
            }
            DomainError::Repo(cause @ (RepoError::Duplicate(_) | RepoError::Other(_))) => Self::internal(&cause),
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
            (409, "sender-not-provisioned", "not ours")
        );
        let json = serde_json::to_value(Problem::from(DomainError::conflict(ConflictKind::BrokenLogic, "x")))
            .unwrap_or_default();
        assert_eq!(json["type"], "/problems/broken-logic");
    }
}
