//! The OpenAPI document: generated from the handlers' annotations, with the security schemes added and each
//! endpoint listed once under its lowest API version; served as JSON made once per process ([`served`]).

use std::sync::OnceLock;

use actix_web::web::Bytes;
use utoipa::openapi::OpenApi as Document;
use utoipa::OpenApi;

mod idempotent;
mod items;
mod nul;
mod security;
mod shapes;
mod statuses;
mod variants;

use security::SecuritySchemes;

pub use statuses::is_keyed;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Canvass",
        description = "Survey distribution and response service. Every endpoint under /api/v1 is also served, \
            unchanged, under /api/v1.1 to /api/v1.5. Errors are RFC 9457 problem+json.",
    ),
    modifiers(&SecuritySchemes),
    components(schemas(crate::problem::Problem, crate::problem::ProblemField, crate::dto::schemas::ConditionText)),
    tags(
        (name = "Surveys", description = "Surveys and copies"),
        (name = "Questions", description = "Question trees and logic"),
        (name = "Translations", description = "A survey's texts in other languages"),
        (name = "Quotas", description = "A survey's quotas: completed answer sets counted up to a limit"),
        (name = "Alerts", description = "A survey's alerts: emails when a completed answer set meets conditions"),
        (name = "Answers", description = "Answer sets"),
        (name = "Accounts", description = "Categories and users of the account"),
        (name = "Sendouts", description = "Sendouts, their labels and reminders"),
        (name = "Respondents", description = "Respondents of sendouts"),
        (name = "Background data", description = "Background data documents, one per sendout"),
        (name = "Blocklist", description = "Blocked and opted-out contacts"),
        (name = "Contacts", description = "The account's directory of contacts, kept across sendouts"),
        (name = "Email bounces", description = "Permanent email failures"),
        (name = "Insight", description = "Sendout statistics and survey results, aggregated by the store"),
        (name = "Survey frequency", description = "How many surveys one contact may receive"),
        (name = "Data retention", description = "Retention policies"),
        (name = "Retention rules (v1.5)", description = "Retention rules, under /api/v1.5 only"),
        (name = "Webhooks", description = "Signed webhooks: events POSTed to the account's URLs"),
        (name = "SMS", description = "Replies of TWOWAY respondents, from the SMS provider"),
        (name = "Health", description = "Liveness and readiness"),
        (name = "Metrics", description = "Prometheus metrics for the operator (docs/operations.md)"),
    )
)]
struct ApiDoc;

/// The document the handlers' paths are added to, with its default security: a key, in a header or as a bearer
/// token (stated on each operation by [`document_what_is_served`]; public ones state `security(())`).
pub fn base() -> Document {
    let mut document = ApiDoc::openapi();
    document.security = Some(security::a_key());
    document
}

/// Finishes the generated document so that it states what is served: the statuses every
/// operation shares (see [`statuses`]), `Idempotency-Key` on every keyed POST (see [`idempotent`]), the rules
/// across fields that JSON Schema can state (see [`shapes`]), the refusal of NUL in strings (see [`nul`]), the
/// default key requirement on each operation (see [`security`]), a name for each variant of a `oneOf` (see
/// [`variants`]) and a question item's shape per type (see [`items`]).
pub fn document_what_is_served(document: &mut Document) {
    shapes::state_cross_field_rules(document);
    nul::forbid_nul(document);
    security::state_on_each_operation(document);
    idempotent::add_key_parameter(document);
    statuses::add_shared_statuses(document);
    idempotent::add_key_responses(document);
    variants::name_the_variants(document);
    items::split_items_by_type(document);
}

/// The document as served at [`crate::OPENAPI_PATH`]: `document` finished ([`document_what_is_served`]) and written
/// as JSON once per process, for every HTTP worker (each builds the document as it registers its routes; only the
/// first one's is kept, as bytes). Holding the document itself in every worker, to write it at every request as
/// `SwaggerUi` did, kept a copy of its structure per worker (docs/decisions.md, "Memory under readers").
pub fn served(document: Document) -> Bytes {
    static SERVED: OnceLock<Bytes> = OnceLock::new();
    SERVED
        .get_or_init(move || {
            let mut document = document;
            document_what_is_served(&mut document);
            serde_json::to_vec(&document).map(Bytes::from).unwrap_or_else(|error| {
                tracing::error!(error.message = %error, "the OpenAPI document cannot be written as JSON");
                Bytes::new()
            })
        })
        .clone()
}
