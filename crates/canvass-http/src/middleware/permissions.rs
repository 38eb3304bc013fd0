//! What each keyed operation needs, read once from the OpenAPI document, where each operation's declaration names
//! it: `x-canvass-permission` (the permission, one of the domain's table) and, for an operation the audit log
//! records, `x-canvass-audit` (its action, `survey.create`). The API guard finds a request's operation by its
//! method and the route template it matched (never by its raw path) and asks the caller's role.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::http::Method;
use canvass_domain::account::Permission;
use utoipa::openapi::path::Operation as Declared;
use utoipa::openapi::OpenApi as Document;

use crate::routes::api_scope::{documented_template, API_VERSIONS, DOCUMENTED_VERSION};

/// The extension that names an operation's permission.
pub const PERMISSION: &str = "x-canvass-permission";

/// The extension that names the action an operation is recorded as in the audit log.
pub const AUDIT: &str = "x-canvass-audit";

/// One keyed operation's needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    /// The permission the caller's role must hold.
    pub permission: Permission,
    /// Whether it changes something (a read-only key may not run it).
    pub changes: bool,
    /// What the audit log records it as, when it records it.
    pub audit: Option<Arc<str>>,
    /// The status it answers on success (the lowest 2xx it declares).
    pub success: u16,
}

/// Every keyed operation of the document, by the route template a request matches (each version's spelling of
/// it: `/api/v1.3/surveys/{surveyId}` as the request layer writes it), then by method: found without building a
/// key per request.
#[derive(Debug, Default)]
pub struct Operations {
    by_route: HashMap<String, Vec<(Method, Operation)>>,
}

impl Operations {
    /// Reads the operations of `document`; one that names no permission, or an unknown one, is left out (and
    /// the document's test fails on it).
    pub fn of(document: &Document) -> Self {
        let mut by_route: HashMap<String, Vec<(Method, Operation)>> = HashMap::new();
        for (path, item) in &document.paths.paths {
            for (method, declared) in declared_operations(item) {
                let Some(operation) = read(&method, declared) else { continue };
                for template in templates_of(path) {
                    by_route.entry(template).or_default().push((method.clone(), operation.clone()));
                }
            }
        }
        Self { by_route }
    }

    /// The operation a request asked: its method, and the route template it matched as the request layer wrote it.
    pub fn find(&self, method: &Method, template: &str) -> Option<&Operation> {
        let method = if method == Method::HEAD { &Method::GET } else { method };
        let operations = self.by_route.get(template)?;
        operations.iter().find(|(declared, _)| declared == method).map(|(_, operation)| operation)
    }

    /// How many operations there are (each once, whatever the versions it is served under).
    pub fn len(&self) -> usize {
        let documented = |template: &&String| documented_template(template) == **template;
        self.by_route.iter().filter(|(template, _)| documented(template)).map(|(_, methods)| methods.len()).sum()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_route.is_empty()
    }
}

/// The permission an operation's declaration names, if it names one of the table.
pub fn permission_of(declared: &Declared) -> Option<Permission> {
    let extensions = declared.extensions.as_ref()?;
    extensions.get(PERMISSION)?.as_str().and_then(Permission::named)
}

/// Every spelling of a documented path the request layer can write: under each API version for a path of the
/// document's `/api/v1`, the path itself otherwise (the retention rules, under `/api/v1.5` only).
fn templates_of(path: &str) -> Vec<String> {
    match path.strip_prefix(DOCUMENTED_VERSION).filter(|rest| rest.starts_with('/')) {
        Some(rest) => API_VERSIONS.iter().map(|version| format!("{version}{rest}")).collect(),
        None => vec![path.to_owned()],
    }
}

fn read(method: &Method, declared: &Declared) -> Option<Operation> {
    let permission = permission_of(declared)?;
    let audit = declared.extensions.as_ref().and_then(|e| e.get(AUDIT)).and_then(|a| a.as_str()).map(Arc::from);
    let reading = matches!(*method, Method::GET | Method::HEAD);
    let success = declared.responses.responses.keys().filter_map(|status| status.parse::<u16>().ok());
    let success = success.filter(|status| (200..300).contains(status)).min().unwrap_or(200);
    Some(Operation { permission, changes: permission.changes(reading), audit, success })
}

/// The operations of a path item with their methods.
pub fn declared_operations(item: &utoipa::openapi::path::PathItem) -> Vec<(Method, &Declared)> {
    [(Method::GET, &item.get), (Method::PUT, &item.put), (Method::POST, &item.post)]
        .into_iter()
        .chain([(Method::DELETE, &item.delete), (Method::PATCH, &item.patch)])
        .filter_map(|(method, declared)| declared.as_ref().map(|declared| (method, declared)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_documented_path_is_found_under_every_version_and_the_rules_under_theirs_only() {
        let every = templates_of("/api/v1/surveys/{surveyId}");
        assert_eq!(every.len(), API_VERSIONS.len());
        assert!(every.contains(&"/api/v1.3/surveys/{surveyId}".to_owned()));
        assert_eq!(templates_of("/api/v1.5/data-retention/rules/account"), ["/api/v1.5/data-retention/rules/account"]);
    }
}
