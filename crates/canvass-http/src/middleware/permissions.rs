//! What each keyed operation needs, read once from the OpenAPI document, where each operation's declaration names
//! it: `x-canvass-permission` (the permission, one of the domain's table) and, for an operation the audit log
//! records, `x-canvass-audit` (its action, `survey.create`). The API guard finds a request's operation by its
//! method and the route template it matched (never by its raw path) and asks the caller's role.

use std::collections::HashMap;

use actix_web::http::Method;
use canvass_domain::account::Permission;
use utoipa::openapi::path::Operation as Declared;
use utoipa::openapi::OpenApi as Document;

use crate::routes::api_scope::documented_template;

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
    pub audit: Option<String>,
    /// The status it answers on success (the lowest 2xx it declares).
    pub success: u16,
}

/// Every keyed operation of the document, by method and documented path.
#[derive(Debug, Default)]
pub struct Operations {
    by_route: HashMap<(Method, String), Operation>,
}

impl Operations {
    /// Reads the operations of `document`; one that names no permission, or an unknown one, is left out (and
    /// the document's test fails on it).
    pub fn of(document: &Document) -> Self {
        let mut by_route = HashMap::new();
        for (path, item) in &document.paths.paths {
            for (method, declared) in declared_operations(item) {
                if let Some(operation) = read(&method, declared) {
                    by_route.insert((method, path.clone()), operation);
                }
            }
        }
        Self { by_route }
    }

    /// The operation a request asked: its method, and the route template it matched as the request layer wrote it.
    pub fn find(&self, method: &Method, template: &str) -> Option<&Operation> {
        let method = if method == Method::HEAD { Method::GET } else { method.clone() };
        self.by_route.get(&(method, documented_template(template)))
    }

    /// How many operations there are.
    pub fn len(&self) -> usize {
        self.by_route.len()
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

fn read(method: &Method, declared: &Declared) -> Option<Operation> {
    let permission = permission_of(declared)?;
    let audit = declared.extensions.as_ref().and_then(|e| e.get(AUDIT)).and_then(|a| a.as_str()).map(str::to_owned);
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
