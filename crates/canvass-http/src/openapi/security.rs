//! Who may call what: the security schemes, and the base document's default requirement stated on each operation.

use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::OpenApi as Document;
use utoipa::Modify;

use super::statuses::operations_mut;

/// Adds the two ways of giving the key: the `X-API-KEY` header and a bearer token.
pub struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("apiKey", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-API-KEY"))));
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// A key, in the `X-API-KEY` header or as a bearer token: what an operation needs unless it says otherwise.
pub fn a_key() -> Vec<SecurityRequirement> {
    let none: [&str; 0] = [];
    vec![SecurityRequirement::new("apiKey", none), SecurityRequirement::new("bearer", none)]
}

/// States the base document's default requirement (a key) on every operation that states none, and none on the
/// public ones (those that state only the empty requirement, `security(())`), then drops the default: each
/// operation says what it needs, as the document always has, and a handler needs no `security(...)` of its own.
pub fn state_on_each_operation(document: &mut Document) {
    let Some(default) = document.security.take() else { return };
    for item in document.paths.paths.values_mut() {
        for operation in operations_mut(item) {
            operation.security = match operation.security.take() {
                None => Some(default.clone()),
                Some(stated) if stated.iter().all(|requirement| *requirement == SecurityRequirement::default()) => None,
                Some(stated) => Some(stated),
            };
        }
    }
}
