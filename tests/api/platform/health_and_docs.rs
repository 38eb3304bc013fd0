//! Health, the OpenAPI document (every route in it), the docs page and the version prefixes.

use serde_json::Value;

use crate::helpers::{spawn_app, ENDPOINTS as ROUTES, RULE_ENDPOINTS};

#[tokio::test]
async fn health_needs_no_key() {
    let app = spawn_app().await;
    for path in ["/health/live", "/health/ready"] {
        let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
    }
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_once() {
    let app = spawn_app().await;
    let document: Value =
        app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap();
    assert!(document["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = document["paths"].as_object().unwrap();
    for (method, path) in ROUTES {
        let full = format!("/api/v1{path}");
        assert!(paths.get(&full).and_then(|p| p.get(method)).is_some(), "{method} {full} missing from the document");
    }
    for (method, path) in RULE_ENDPOINTS {
        let full = format!("/api/v1.5{path}");
        assert!(paths.get(&full).and_then(|p| p.get(method)).is_some(), "{method} {full} missing from the document");
    }
    for path in ["/health/live", "/health/ready"] {
        assert!(paths.contains_key(path), "{path}");
    }
    assert!(
        paths.keys().all(|p| !p.starts_with("/api/v1.") || p.starts_with("/api/v1.5/data-retention/rules")),
        "endpoints of every version are listed once, under /api/v1"
    );
    let documented: usize =
        paths.iter().filter(|(p, _)| p.starts_with("/api/")).map(|(_, ops)| ops.as_object().unwrap().len()).sum();
    assert_eq!(documented, ROUTES.len() + RULE_ENDPOINTS.len(), "the document lists a route this test does not know");
}

#[tokio::test]
async fn every_route_is_served_under_every_version() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    for version in ["v1", "v1.1", "v1.2", "v1.3", "v1.4", "v1.5"] {
        let response = app
            .client
            .get(format!("{}/api/{version}/surveys/{survey}/questions", app.address))
            .header("X-API-KEY", &app.key)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{version}");
    }
}

#[tokio::test]
async fn the_docs_page_renders_offline() {
    let app = spawn_app().await;
    let response = app.client.get(format!("{}/docs", app.address)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let html = response.text().await.unwrap();
    assert!(html.contains("swagger"), "{html}");
}
