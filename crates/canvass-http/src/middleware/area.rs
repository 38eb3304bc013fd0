//! What a request is, decided once by the request layer from the route it matched (or, for a path no route
//! matches, from the path as the router reads it, percent-decoded): an API call, one of the respondent pages, or
//! anything else. The guards and the security headers read this answer, never the raw path text, so a path that
//! spells a page or the API otherwise (`/%6cogin/1`, `/%72/<token>`) meets the same guard and headers as the
//! canonical one: actix routes by the decoded path, and so does everything that decides by it.

use actix_web::dev::ServiceRequest;
use actix_web::HttpMessage;

use crate::OPENAPI_PATH;

/// The respondent pages, by the route they matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// `/r/{token}`: the survey behind a link token.
    Survey,
    /// `/r/{token}/opt-out`.
    OptOut,
    /// `/login/{sendoutId}`.
    Login,
}

/// What a request is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    /// Under `/api/`, but the OpenAPI document: the API guard's.
    Api,
    /// A respondent page: the pages' guard's, with the pages' security headers.
    Page(Page),
    /// Anything else: health, metrics, the document and its viewer, inbound hooks, unknown paths.
    Other,
}

/// The route templates of the pages, as `pages::configure` registers them.
const SURVEY_ROUTE: &str = "/r/{token}";
const OPT_OUT_ROUTE: &str = "/r/{token}/opt-out";
const LOGIN_ROUTE: &str = "/login/{sendoutId}";

impl Area {
    /// The area of a request that matched the route template `matched` (`None`: no route), where `decoded` is the
    /// path as the router reads it.
    pub fn of(matched: Option<&str>, decoded: &str) -> Self {
        match matched {
            Some(SURVEY_ROUTE) => Self::Page(Page::Survey),
            Some(OPT_OUT_ROUTE) => Self::Page(Page::OptOut),
            Some(LOGIN_ROUTE) => Self::Page(Page::Login),
            Some(route) => Self::api_or_other(route),
            // An unknown path under /api still needs a key first: which API paths exist is not told to strangers.
            None => Self::api_or_other(decoded),
        }
    }

    fn api_or_other(path: &str) -> Self {
        match path.starts_with("/api/") && path != OPENAPI_PATH {
            true => Self::Api,
            false => Self::Other,
        }
    }

    /// The area the request layer left in the request's extensions; worked out here when it left none (a guard
    /// used without the request layer), so a guard never fails open.
    pub fn of_request(req: &ServiceRequest) -> Self {
        if let Some(area) = req.extensions().get::<Area>() {
            return *area;
        }
        Self::of(matched_route(req).as_deref(), decoded_path(req))
    }

    /// Whether the API guard runs for the request.
    pub fn is_api(req: &ServiceRequest) -> bool {
        Self::of_request(req) == Self::Api
    }

    /// Whether the respondent pages' guard runs for the request.
    pub fn is_page(req: &ServiceRequest) -> bool {
        matches!(Self::of_request(req), Self::Page(_))
    }
}

/// The path as the router reads it: percent-encodings of anything but `%`, `/` and `+` decoded.
pub fn decoded_path(req: &ServiceRequest) -> &str {
    req.match_info().as_str()
}

/// The route template the router will match the request to, from the path as the router reads it. (actix's own
/// `match_pattern` walks the raw path text before routing, and finds no route for `/%6cogin/1`.)
pub fn matched_route(req: &ServiceRequest) -> Option<String> {
    req.resource_map().match_pattern(decoded_path(req))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn pages_are_known_by_their_route_and_everything_else_by_its_prefix() {
        assert_eq!(Area::of(Some("/r/{token}"), "/r/abc"), Area::Page(Page::Survey));
        assert_eq!(Area::of(Some("/r/{token}/opt-out"), "/r/abc/opt-out"), Area::Page(Page::OptOut));
        assert_eq!(Area::of(Some("/login/{sendoutId}"), "/login/1"), Area::Page(Page::Login));
        assert_eq!(Area::of(Some("/api/v1/surveys"), "/api/v1/surveys"), Area::Api);
        assert_eq!(Area::of(Some(OPENAPI_PATH), OPENAPI_PATH), Area::Other);
        assert_eq!(Area::of(None, "/api/v9/nothing"), Area::Api, "an unknown API path still needs a key");
        assert_eq!(Area::of(None, "/r"), Area::Other);
        assert_eq!(Area::of(Some("/health/live"), "/health/live"), Area::Other);
        assert_eq!(Area::of(None, "/apiary"), Area::Other);
        assert_eq!(Area::of(Some("/api/v1.5/data-retention/rules"), "/api/v1.5/data-retention/rules"), Area::Api);
    }

    #[test]
    fn the_router_reads_encoded_letters_as_the_letters() {
        let req = TestRequest::with_uri("/%6cogin/%31").to_srv_request();
        assert_eq!(decoded_path(&req), "/login/1");
        let req = TestRequest::with_uri("/%61pi/v1/surveys").to_srv_request();
        assert_eq!(Area::of(None, decoded_path(&req)), Area::Api);
    }
}
