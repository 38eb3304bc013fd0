//! Undeclared methods: a request whose path is an endpoint of the OpenAPI document but whose method is not
//! declared there answers 405 problem+json with an `Allow` header listing the declared methods.

use actix_web::dev::ResourceDef;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use utoipa::openapi::OpenApi as Document;

use crate::Problem;

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
    let problem = Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        format!("{method} is not served here; allowed: {allow}"),
    );
    let mut response = problem.error_response();
    if let Ok(value) = HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}
