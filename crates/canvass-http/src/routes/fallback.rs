//! What answers a request no route took: a path that is an endpoint of the OpenAPI document (under any version: the
//! document lists each endpoint once, under `/api/v1`) with a method not declared there answers 405 problem+json
//! with an `Allow` header listing the declared methods; any other path 404.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse, ResponseError};
use utoipa::openapi::OpenApi as Document;

use super::api_scope;
use crate::problem::{Problem, ProblemKind};

/// The declared methods of every path of the document, most specific pattern first.
///
/// A path is matched segment by segment, not through actix's `ResourceDef`: each of those compiles a regular
/// expression (with one-pass DFA tables for the Unicode class of a parameter), and the ~480 paths of the six API
/// versions, when each was registered apart, held 7 MiB in every HTTP worker for a table that only 404s and 405s
/// read (docs/decisions.md, "Memory under readers").
pub struct DeclaredMethods {
    paths: Vec<(String, String)>,
}

impl DeclaredMethods {
    /// Reads the paths and methods of `document`.
    pub fn of(document: &Document) -> Self {
        let mut paths: Vec<(String, String)> = document
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
                (path.clone(), methods.join(", "))
            })
            .collect();
        // Literal segments win over parameters, as in routing: `/surveys/frequency` before `/surveys/{surveyId}`.
        paths.sort_by_key(|(pattern, _)| pattern.matches('{').count());
        Self { paths }
    }

    /// The `Allow` value for `path`, when it is an endpoint of the document.
    pub fn allowed(&self, path: &str) -> Option<&str> {
        self.paths.iter().find(|(pattern, _)| matches(pattern, path)).map(|(_, methods)| methods.as_str())
    }
}

/// Whether `path` is an instance of the document's `pattern`: as many segments, each a `{parameter}` that takes
/// any non-empty segment or a literal equal to it (what actix's default `{parameter}` pattern, `[^/]+`, matches).
fn matches(pattern: &str, path: &str) -> bool {
    let (mut wanted, mut given) = (pattern.split('/'), path.split('/'));
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return true,
            (Some(wanted), Some(given)) => {
                let parameter = wanted.starts_with('{') && wanted.ends_with('}');
                let fits = if parameter { !given.is_empty() } else { wanted == given };
                if !fits {
                    return false;
                }
            }
            _ => return false,
        }
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
    // Under the version scope, the path as the document lists it too (the rules are listed under 1.5 itself).
    let version = req.extensions().get::<api_scope::ApiVersion>().copied();
    let documented = version.and_then(|version| api_scope::documented_path(path, version));
    if let Some(allow) = declared.allowed(path).or_else(|| documented.and_then(|path| declared.allowed(&path))) {
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

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn a_path_matches_a_pattern_segment_by_segment_as_actix_routes_it() {
        let pattern = "/api/v1/surveys/{surveyId}/answers/{answerSetId}";
        assert!(matches(pattern, "/api/v1/surveys/7/answers/x%20y"));
        for path in [
            "/api/v1/surveys/7/answers",
            "/api/v1/surveys/7/answers/",
            "/api/v1/surveys//answers/3",
            "/api/v1/surveys/7/answers/3/",
            "/api/v1/surveys/7/answers/3/more",
            "/api/v1.1/surveys/7/answers/3",
        ] {
            assert!(!matches(pattern, path), "{path}");
        }
        assert!(matches("/api/v1/surveys", "/api/v1/surveys"));
        assert!(!matches("/api/v1/surveys", "/api/v1/surveys/"));
    }
}
