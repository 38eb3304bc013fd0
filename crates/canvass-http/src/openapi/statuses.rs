//! The error statuses every operation shares, documented in one place: walks the operations and adds what the
//! middleware and extractors answer (401/429/503 on keyed operations, 400/408/413/415 where a body is read, 404
//! where the path names a resource), then serves every error response as `application/problem+json`.

use utoipa::openapi::path::{Operation, ParameterIn, PathItem};
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::{ContentBuilder, HeaderBuilder, Object, OpenApi as Document, Ref, RefOr, Schema, Type};

use crate::problem::PROBLEM_JSON;

/// Adds the shared statuses to every operation and makes every error response problem+json.
pub fn add_shared_statuses(document: &mut Document) {
    for (path, item) in document.paths.paths.iter_mut() {
        for operation in operations_mut(item) {
            add_to(path, operation);
            serve_errors_as_problems(operation);
        }
    }
}

pub(super) fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        item.get.as_mut(),
        item.put.as_mut(),
        item.post.as_mut(),
        item.delete.as_mut(),
        item.patch.as_mut(),
        item.head.as_mut(),
        item.options.as_mut(),
        item.trace.as_mut(),
    ]
    .into_iter()
    .flatten()
}

/// Whether the operation requires an API key.
pub fn is_keyed(operation: &Operation) -> bool {
    operation.security.as_ref().is_some_and(|requirements| !requirements.is_empty())
}

fn add_to(path: &str, operation: &mut Operation) {
    let parameters = operation.parameters.as_deref().unwrap_or_default();
    let in_path = parameters.iter().any(|p| matches!(p.parameter_in, ParameterIn::Path));
    let in_query_or_header =
        parameters.iter().any(|p| matches!(p.parameter_in, ParameterIn::Query | ParameterIn::Header));
    let has_body = operation.request_body.is_some();
    // `/metrics` is served without the outbox gauges when the database cannot answer: never a 503.
    let uses_database = !matches!(path, "/health/live" | "/metrics");
    let keyed = is_keyed(operation);
    let mut add = |status: u16, response: fn() -> Response| {
        operation.responses.responses.entry(status.to_string()).or_insert_with(|| RefOr::T(response()));
    };
    if keyed {
        add(401, unauthorized);
        add(403, || {
            problem(
                "The key's role lacks the operation's permission (`x-canvass-permission`, named in `detail`), or \
                 the key is read-only and the operation changes something",
            )
        });
        add(429, too_many_requests);
    }
    if in_path || in_query_or_header || has_body {
        add(400, || problem("The request breaks a rule; `errors` names each field"));
    }
    if in_path {
        add(404, || problem("No such resource in the caller's account"));
    }
    if has_body {
        add(408, || problem("The body did not arrive in time"));
        add(413, || problem("The body exceeds 1 MiB"));
        add(415, || problem("The body is not of the documented media type"));
    }
    if uses_database {
        add(503, unavailable);
    }
    // A handler's own 503 or 429 keeps its description and gains the header every such answer carries; a 409 may
    // carry it too (a `concurrent-change` problem: retry).
    for (status, header) in [("503", "Retry-After"), ("429", "Retry-After"), ("409", "Retry-After")] {
        if let Some(RefOr::T(response)) = operation.responses.responses.get_mut(status) {
            response
                .headers
                .entry(header.to_owned())
                .or_insert_with(|| seconds_header("Seconds to wait before retrying"));
        }
    }
}

/// Every 4xx and 5xx response carries a problem body, whatever the handler's annotation said.
fn serve_errors_as_problems(operation: &mut Operation) {
    for (status, response) in operation.responses.responses.iter_mut() {
        let RefOr::T(response) = response else { continue };
        if status.starts_with('4') || status.starts_with('5') {
            response.content.clear();
            response.content.insert(PROBLEM_JSON.to_owned(), problem_content());
        }
    }
}

fn problem_content() -> utoipa::openapi::Content {
    ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build()
}

/// An error response with a problem body.
pub(super) fn problem(description: &str) -> Response {
    ResponseBuilder::new().description(description).content(PROBLEM_JSON, problem_content()).build()
}

pub(super) fn seconds_header(description: &str) -> utoipa::openapi::Header {
    HeaderBuilder::new().schema(Schema::Object(Object::with_type(Type::Integer))).description(Some(description)).build()
}

fn unauthorized() -> Response {
    let mut response = problem("Missing, unknown, revoked or expired API key, or a key of a deactivated user");
    response.headers.insert(
        "WWW-Authenticate".to_owned(),
        HeaderBuilder::new()
            .schema(Schema::Object(Object::with_type(Type::String)))
            .description(Some("`Bearer`"))
            .build(),
    );
    response
}

fn too_many_requests() -> Response {
    let mut response = problem("Over RATE_LIMIT_PER_KEY requests per second for this key");
    response.headers.insert("Retry-After".to_owned(), seconds_header("Seconds until a request is accepted again"));
    response
}

fn unavailable() -> Response {
    let mut response = problem("The database cannot be reached now; retry later");
    response.headers.insert("Retry-After".to_owned(), seconds_header("Seconds to wait before retrying"));
    response
}
