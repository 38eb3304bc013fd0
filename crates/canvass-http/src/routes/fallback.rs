//! What answers a request no route took: a path that is an endpoint of the OpenAPI document with a method not
//! declared there answers 405 problem+json with an `Allow` header listing the declared methods; any other path 404.

use actix_web::dev::ResourceDef;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use utoipa::openapi::OpenApi as Document;

use crate::problem::{Problem, ProblemKind};

/// The declared methods of every path of the document, most specific pattern first.
pub struct DeclaredMethods {
    paths: Vec<(ResourceDef, String)>,
}

impl DeclaredMethods {
    /// Reads the paths and methods of `document`; call it before paths are dropped from the document.
    pub fn of(document: &Document) -> Self {
        let mut paths: Vec<(ResourceDef, String)> = document
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let mut methods: Vec<&str> = Vec::new();
                let declared = [
                    ("GET", item.get.is_some()),
                    ("PUT", item.put.is_some()),
                    ("POST", item.post.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("HEAD", item.head.is_some()),
                    ("OPTIONS", item.options.is_some()),
                ];
                methods.extend(declared.iter().filter(|(_, on)| *on).map(|(name, _)| *name));
                (ResourceDef::new(path.as_str()), methods.join(", "))
            })
            .collect();
        // Literal segments win over parameters, as in routing: `/surveys/frequency` before `/surveys/{surveyId}`.
        paths.sort_by_key(|(pattern, _)| pattern.pattern().map_or(0, |p| p.matches('{').count()));
        Self { paths }
    }

    /// The `Allow` value for `path`, when it is an endpoint of the document.
    pub fn allowed(&self, path: &str) -> Option<&str> {
        self.paths.iter().find(|(pattern, _)| pattern.is_match(path)).map(|(_, methods)| methods.as_str())
    }
}

/// 405 naming the allowed methods.
pub fn not_allowed(method: &str, allow: &str) -> HttpResponse {
    let problem = Problem::new(ProblemKind::MethodNotAllowed, format!("{method} is not served here; allowed: {allow}"));
    let mut response = problem.error_response();
    if let Ok(value) = HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

/// The default service: 405 for an undeclared method of a served path, else 404 (pointing at version 1.5 for the
/// retention rule endpoints asked for under an earlier version).
pub async fn unknown_route(req: HttpRequest, declared: web::Data<DeclaredMethods>) -> HttpResponse {
    // The path as the router read it, percent-decoded: the one the routes were not found for.
    let path = req.match_info().as_str();
    if let Some(allow) = declared.allowed(path) {
        return not_allowed(req.method().as_str(), allow);
    }
    let detail = if path.starts_with("/api/v1") && path.contains("/data-retention/rules") {
        format!(
            "the retention rule endpoints need API version 1.5: use {}/data-retention/rules...",
            super::RULES_VERSION
        )
    } else {
        "no such endpoint".to_owned()
    };
    Problem::new(ProblemKind::NotFound, detail).error_response()
}
