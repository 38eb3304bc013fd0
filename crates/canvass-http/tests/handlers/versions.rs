//! One registration of each endpoint serves every API version: each path of the document is matched, under each
//! of the six versions, by one and the same route of the router (the retention rules under 1.5 only), and no other
//! version segment is a route.

use std::sync::Arc;

use actix_web::test::{self, TestRequest};
use actix_web::{web, HttpRequest};
use canvass_domain::testing::{At, MemoryStore, NOW};
use canvass_http::routes::api_scope::{API_VERSIONS, DOCUMENTED_VERSION, RULES_VERSION};
use canvass_http::AppState;
use serde_json::Value;

/// A request the application answered (its route map is the application's), and the served document.
async fn routes_and_document() -> (HttpRequest, Value) {
    let state = AppState::new(Arc::new(MemoryStore::new()), Arc::new(At(NOW)), "https://canvass.test");
    let app = test::init_service(canvass_http::app(web::Data::new(state))).await;
    let response = test::call_service(&app, TestRequest::get().uri(canvass_http::OPENAPI_PATH).to_request()).await;
    let routes = response.request().clone();
    let body = test::read_body(response).await;
    let document = serde_json::from_slice(&body).unwrap_or_else(|error| panic!("the document is no JSON: {error}"));
    (routes, document)
}

/// `template` with each `{parameter}` filled in.
fn instance(template: &str) -> String {
    template
        .split('/')
        .map(|segment| if segment.starts_with('{') { "7" } else { segment })
        .collect::<Vec<_>>()
        .join("/")
}

#[actix_web::test]
async fn each_endpoint_is_one_route_under_every_version() {
    let (routes, document) = routes_and_document().await;
    let paths = document["paths"].as_object().expect("paths");
    let mut api_paths = 0;
    for path in paths.keys() {
        let (served_under, rest) = match path.strip_prefix(DOCUMENTED_VERSION) {
            Some(rest) if rest.starts_with('/') => (&API_VERSIONS[..], rest),
            _ => match path.strip_prefix(RULES_VERSION) {
                Some(rest) => (&API_VERSIONS[5..], rest),
                None => continue,
            },
        };
        api_paths += 1;
        let matched: Vec<Option<String>> = served_under
            .iter()
            .map(|version| routes.resource_map().match_pattern(&instance(&format!("{version}{rest}"))))
            .collect();
        assert!(matched[0].is_some(), "{path} is no route");
        assert!(
            matched.iter().all(|route| *route == matched[0]),
            "{path}: one route for every version, not {matched:?}"
        );
        for version in API_VERSIONS.iter().filter(|version| !served_under.contains(version)) {
            assert_eq!(
                routes.resource_map().match_pattern(&instance(&format!("{version}{rest}"))),
                None,
                "{path} under {version}"
            );
        }
    }
    assert!(api_paths > 50, "the document lists the API's paths: {api_paths}");
    assert!(paths.keys().all(|path| !path.starts_with("/api/v1.") || path.starts_with(RULES_VERSION)));
}

#[actix_web::test]
async fn no_other_version_is_a_route() {
    let (routes, _) = routes_and_document().await;
    assert!(routes.resource_map().match_pattern("/api/v1.3/surveys").is_some());
    for version in ["v1.0", "v1.6", "v11", "v2", "V1", "v1.", "v1.5.0", ""] {
        assert_eq!(routes.resource_map().match_pattern(&format!("/api/{version}/surveys")), None, "{version}");
    }
}
