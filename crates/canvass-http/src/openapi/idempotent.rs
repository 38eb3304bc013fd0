//! `Idempotency-Key` in the document: every keyed POST under `/api` gains the optional header parameter, the 409,
//! 410 and 422 answers the key can cause (problem+json) and the `Idempotent-Replayed` header on every answer that
//! can be replayed (docs/idempotency.md).

use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::{HeaderBuilder, ObjectBuilder, OpenApi as Document, RefOr, Required, Schema, Type};

use super::statuses::{is_keyed, problem};

/// The pattern a key matches: 1 to 255 visible ASCII characters (0x21 to 0x7E).
pub const KEY_PATTERN: &str = "^[!-~]{1,255}$";

/// The 422 every keyed POST may answer, whatever its own body: a key is the client's name for one request, and the
/// same key on another method, path, query or body is refused rather than run or replayed.
const REUSED: &str = "The Idempotency-Key was used for another request (another method, path, query or body): \
    problem `idempotency-key-reused`; nothing is run";

/// The keyed POST operations under `/api`.
fn keyed_posts(document: &mut Document) -> impl Iterator<Item = &mut Operation> {
    document
        .paths
        .paths
        .iter_mut()
        .filter(|(path, _)| path.starts_with("/api/"))
        .filter_map(|(_, item)| item.post.as_mut())
        .filter(|operation| is_keyed(operation))
}

/// Adds the optional `Idempotency-Key` header parameter (before the shared statuses are added, which list the 400
/// an invalid one answers).
pub fn add_key_parameter(document: &mut Document) {
    for operation in keyed_posts(document) {
        let schema = ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .max_length(Some(255))
            .pattern(Some(KEY_PATTERN))
            .build();
        let parameter = ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(
                "Makes the request safe to repeat: its status and body are kept for 24 hours per account, and a \
                 repeat with the same key and request answers them again with `Idempotent-Replayed: true`",
            ))
            .schema(Some(Schema::Object(schema)))
            .build();
        operation.parameters.get_or_insert_with(Vec::new).push(parameter);
    }
}

/// Adds 409, 410 and 422 and the `Idempotent-Replayed` header (after the shared statuses, so the header reaches
/// every answer that can be kept: 2xx and 4xx but 401, 408, 413 and 429, which come before the key is claimed or
/// are not kept, and 410, which answers a key whose kept answer is gone).
pub fn add_key_responses(document: &mut Document) {
    for operation in keyed_posts(document) {
        let responses = &mut operation.responses.responses;
        for (status, described) in [
            ("409", "A request with the same Idempotency-Key is still running"),
            (
                "410",
                "The answer kept for this Idempotency-Key was deleted by an erasure (it held the erased person); the \
                 request is not carried out again",
            ),
            ("422", REUSED),
        ] {
            match responses.get_mut(status) {
                Some(RefOr::T(response)) => response.description = format!("{}; or: {described}", response.description),
                Some(RefOr::Ref(_)) => {}
                None => {
                    let mut response = problem(described);
                    if status == "409" {
                        let header = super::statuses::seconds_header("Seconds to wait before retrying");
                        response.headers.insert("Retry-After".to_owned(), header);
                    }
                    responses.insert(status.to_owned(), RefOr::T(response));
                }
            }
        }
        for (status, response) in responses.iter_mut() {
            let RefOr::T(response) = response else { continue };
            if replayable(status) {
                response.headers.insert(
                    "Idempotent-Replayed".to_owned(),
                    HeaderBuilder::new()
                        .schema(Schema::Object(
                            ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["true"])).build(),
                        ))
                        .description(Some("`true` on an answer served again for a repeated Idempotency-Key"))
                        .build(),
                );
            }
        }
    }
}

/// Whether an answer with `status` can be kept and replayed.
fn replayable(status: &str) -> bool {
    (status.starts_with('2') || status.starts_with('4')) && !["401", "408", "410", "413", "429"].contains(&status)
}
