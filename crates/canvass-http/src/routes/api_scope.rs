//! The API's one scope: `/api`, with the API guard wrapped on it, holding every endpoint once under a version
//! segment matched once (`v1`, `v1.1` to `v1.5`; any other is no route) and the retention rules under `v1.5` only.
//! The document lists each endpoint once, under `/api/v1` (the rules under `/api/v1.5`). The version segment is the
//! router's, not a handler's: it is taken out of the path's parameters (into [`ApiVersion`]), so a handler's path
//! extractor reads its own parameters only, as when each version was a scope of its own.

use actix_web::dev::{AppService, HttpServiceFactory, Service, ServiceRequest};
use actix_web::middleware::from_fn;
use actix_web::{web, HttpMessage};
use utoipa::openapi::path::Paths;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa_actix_web::{scope, OpenApiFactory};

use crate::middleware::api_guard;

/// Where the API is served: every path below it, known or not, passes the API guard first.
pub const API_PREFIX: &str = "/api";

/// The API versions every endpoint of the interface is served under.
pub const API_VERSIONS: [&str; 6] = ["/api/v1", "/api/v1.1", "/api/v1.2", "/api/v1.3", "/api/v1.4", "/api/v1.5"];

/// The version that adds the retention rule endpoints.
pub const RULES_VERSION: &str = "/api/v1.5";

/// The name of the version segment's parameter.
pub const VERSION: &str = "version";

/// The version segment as the router matches it (after [`API_PREFIX`]): exactly the versions of [`API_VERSIONS`].
pub const VERSION_SEGMENT: &str = r"/{version:v1(?:\.[1-5])?}";

/// Where the document lists the endpoints served under every version.
pub const DOCUMENTED_VERSION: &str = "/api/v1";

/// Where the retention rules are served, after [`API_PREFIX`]: [`RULES_VERSION`] only.
const RULES_SCOPE: &str = "/v1.5/data-retention/rules";

/// The API: see the module documentation.
pub fn api() -> impl HttpServiceFactory + OpenApiFactory {
    Api {
        rules: scope::scope(web::scope(RULES_SCOPE)).configure(super::api_v1_5),
        every: scope::scope(web::scope(VERSION_SEGMENT).wrap_fn(|req, scope| scope.call(version_apart(req))))
            .configure(super::api),
    }
}

/// In the request's extensions under the version scope: the version it was asked under (`/api/v1.3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiVersion(pub &'static str);

/// Moves the version segment the scope matched from the path's parameters to the request's extensions.
fn version_apart(mut req: ServiceRequest) -> ServiceRequest {
    let path = req.match_info_mut();
    let named = path.get(VERSION).and_then(|segment| {
        API_VERSIONS.into_iter().find(|version| version.rsplit('/').next() == Some(segment)).map(ApiVersion)
    });
    let matched = path.as_str().len() - path.unprocessed().len();
    path.reset();
    path.skip(u16::try_from(matched).unwrap_or_default());
    if let Some(version) = named {
        req.extensions_mut().insert(version);
    }
    req
}

/// The two scopes inside `/api`: the rules first, for the router (the version scope would take
/// `/api/v1.5/data-retention/rules` and find no route in it), and after every other endpoint in the document.
struct Api<R, E> {
    rules: R,
    every: E,
}

impl<R, E> HttpServiceFactory for Api<R, E>
where
    R: HttpServiceFactory + 'static,
    E: HttpServiceFactory + 'static,
{
    fn register(self, config: &mut AppService) {
        web::scope(API_PREFIX).wrap(from_fn(api_guard::guard)).service(self.rules).service(self.every).register(config);
    }
}

impl<R: OpenApiFactory, E: OpenApiFactory> OpenApiFactory for Api<R, E> {
    fn paths(&self) -> Paths {
        let mut paths = under(DOCUMENTED_VERSION, self.every.paths());
        paths.merge(under(&format!("{API_PREFIX}{RULES_SCOPE}"), self.rules.paths()));
        paths
    }

    fn schemas(&self, schemas: &mut Vec<(String, RefOr<Schema>)>) {
        self.every.schemas(schemas);
        self.rules.schemas(schemas);
    }
}

/// `paths`, each under `prefix`.
fn under(prefix: &str, mut paths: Paths) -> Paths {
    let relative = std::mem::take(&mut paths.paths);
    paths.paths = relative.into_iter().map(|(path, item)| (format!("{prefix}{path}"), item)).collect();
    paths
}

/// `path` (as the router read it) as the document lists it, for a request the version scope took under `version`:
/// the same path under [`DOCUMENTED_VERSION`].
pub fn documented_path(path: &str, version: ApiVersion) -> Option<String> {
    let rest = path.strip_prefix(version.0)?;
    Some(format!("{DOCUMENTED_VERSION}{rest}"))
}

/// The path the document lists an operation under for a route template as [`with_version`] writes it: every
/// version's `/api/v1.3/surveys/{surveyId}` is the document's `/api/v1/surveys/{surveyId}`; the retention rules
/// are listed under [`RULES_VERSION`] itself.
pub fn documented_template(template: &str) -> String {
    if template.starts_with(RULES_VERSION) && template[RULES_VERSION.len()..].starts_with(&RULES_SCOPE[5..]) {
        return template.to_owned();
    }
    let Some(rest) = template.strip_prefix(API_PREFIX).and_then(|rest| rest.strip_prefix('/')) else {
        return template.to_owned();
    };
    match rest.split_once('/') {
        Some((_version, path)) => format!("{DOCUMENTED_VERSION}/{path}"),
        None => template.to_owned(),
    }
}

/// The route template `template` with its version segment written as `path` (the path it matched) has it:
/// `/api/v1.3/surveys/{surveyId}`, as each version's own registration was named before there was one.
pub fn with_version(template: String, path: &str) -> String {
    let pattern = &VERSION_SEGMENT[1..];
    let Some(at) = template.find(pattern) else { return template };
    let index = template[..at].matches('/').count();
    match path.split('/').nth(index) {
        Some(version) => template.replacen(pattern, version, 1),
        None => template,
    }
}

#[cfg(test)]
mod tests {
    use actix_web::dev::ResourceDef;

    use super::*;

    #[test]
    fn every_versions_template_is_documented_under_the_first_and_the_rules_under_theirs() {
        assert_eq!(documented_template("/api/v1.3/surveys/{surveyId}"), "/api/v1/surveys/{surveyId}");
        assert_eq!(documented_template("/api/v1/surveys"), "/api/v1/surveys");
        assert_eq!(documented_template("/api/v1.5/data-retention/account"), "/api/v1/data-retention/account");
        let rules = "/api/v1.5/data-retention/rules/surveys/{surveyId}";
        assert_eq!(documented_template(rules), rules);
        assert_eq!(documented_template("/api/v1.5/data-retention/rules"), "/api/v1.5/data-retention/rules");
        assert_eq!(documented_template("/metrics"), "/metrics");
    }

    #[test]
    fn the_version_segment_takes_exactly_the_six_versions() {
        let segment = ResourceDef::prefix(VERSION_SEGMENT);
        for version in API_VERSIONS {
            let under_api = version.strip_prefix(API_PREFIX).unwrap_or_default();
            assert_eq!(segment.find_match(&format!("{under_api}/surveys")), Some(under_api.len()), "{version}");
        }
        for other in ["/v1.0", "/v1.6", "/v1.", "/v11", "/v2", "/V1", "/v1.5.1", "/v1%2E5", "/1.5", "/"] {
            assert_eq!(segment.find_match(&format!("{other}/surveys")), None, "{other}");
        }
    }

    #[test]
    fn templates_name_the_version_they_were_matched_with() {
        let template = format!("{API_PREFIX}{VERSION_SEGMENT}/surveys/{{surveyId}}");
        assert_eq!(with_version(template.clone(), "/api/v1.3/surveys/7"), "/api/v1.3/surveys/{surveyId}");
        assert_eq!(with_version(template, "/api/v1/surveys/7"), "/api/v1/surveys/{surveyId}");
        let rules = "/api/v1.5/data-retention/rules/account".to_owned();
        assert_eq!(with_version(rules.clone(), &rules), rules);
        assert_eq!(with_version("/r/{token}".to_owned(), "/r/abc"), "/r/{token}");
    }

    #[test]
    fn a_path_under_any_version_is_documented_under_the_first() {
        let under = |version| ApiVersion(API_VERSIONS[version]);
        assert_eq!(documented_path("/api/v1.3/surveys", under(3)).as_deref(), Some("/api/v1/surveys"));
        assert_eq!(documented_path("/api/v1/surveys/7", under(0)).as_deref(), Some("/api/v1/surveys/7"));
        assert_eq!(documented_path("/api/v1.5", under(5)).as_deref(), Some("/api/v1"));
        assert_eq!(documented_path("/health/live", under(0)), None);
    }

    #[test]
    fn the_version_is_taken_out_of_the_parameters_and_the_rest_is_left_to_route() {
        let mut req = actix_web::test::TestRequest::with_uri("/api/v1.3/surveys/7").to_srv_request();
        let version = ResourceDef::root_prefix(&format!("{API_PREFIX}{VERSION_SEGMENT}"));
        assert!(version.capture_match_info(req.match_info_mut()));
        let req = version_apart(req);
        assert_eq!((req.match_info().segment_count(), req.match_info().unprocessed()), (0, "/surveys/7"));
        assert_eq!(req.extensions().get::<ApiVersion>(), Some(&ApiVersion("/api/v1.3")));
    }
}
