//! The route a request matched, resolved once by the request layer from the path as the router reads it
//! (percent-decoded), never from the raw path text: `/%6cogin/1` matched `/login/{sendoutId}` as `/login/1` did.
//! Which guard a request meets is not decided here: the guards are wrapped on the scopes and resources they guard.

use actix_web::dev::ServiceRequest;

use crate::routes::api_scope::with_version;

/// The path as the router reads it: percent-encodings of anything but `%`, `/` and `+` decoded.
pub fn decoded_path(req: &ServiceRequest) -> &str {
    req.match_info().as_str()
}

/// The route template the router will match the request to, from the path as the router reads it, with the API's
/// version segment as the path has it (`/api/v1.3/surveys/{surveyId}`). (actix's own `match_pattern` walks the raw
/// path text before routing, and finds no route for `/%6cogin/1`.)
pub fn matched_route(req: &ServiceRequest) -> Option<String> {
    let path = decoded_path(req);
    req.resource_map().match_pattern(path).map(|template| with_version(template, path))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn the_router_reads_encoded_letters_as_the_letters() {
        let req = TestRequest::with_uri("/%6cogin/%31").to_srv_request();
        assert_eq!(decoded_path(&req), "/login/1");
        let req = TestRequest::with_uri("/%61pi/v1%2E3/%2B").to_srv_request();
        assert_eq!(decoded_path(&req), "/api/v1.3/%2B");
    }
}
