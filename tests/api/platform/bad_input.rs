//! Garbage to every endpoint: a 4xx problem (or, for a well-formed object whose fields are all optional, a
//! success), never a 500.

use serde_json::json;

use std::num::NonZeroU32;

use crate::helpers::{spawn_app, spawn_app_with, TestApp, ENDPOINTS, RULE_ENDPOINTS};

/// The path with every `{placeholder}` replaced by `id`.
fn fill(path: &str, id: &str) -> String {
    path.split('/').map(|segment| if segment.starts_with('{') { id } else { segment }).collect::<Vec<_>>().join("/")
}

async fn assert_client_error(app: &TestApp, method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) {
    let reply = app.raw(method, path, content_type, body.clone()).await;
    let status = reply.status.as_u16();
    let content = reply.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
    // Bodies that are valid JSON objects may be accepted where every field is optional; nothing may fail.
    assert!((400..500).contains(&status) || status < 300, "{method} {path} {shown:?}: {status} {}", reply.body);
    if status >= 400 {
        assert_eq!(content, "application/problem+json", "{method} {path}");
    }
}

#[tokio::test]
async fn garbage_never_yields_a_server_error() {
    // Over a thousand requests with one key: at the default rate (100 a second, bursts of 1,000) a fast machine
    // would use up the burst and read 429s, which pass as client errors and test nothing.
    let per_key = NonZeroU32::new(1_000_000).expect("not zero");
    let app = spawn_app_with(|settings| settings.protection.rate_limit_per_key = per_key).await;
    let (survey, _) = app.sample_survey().await;
    let survey = survey.to_string();
    let bodies: Vec<(Option<&str>, Vec<u8>)> = vec![
        (Some("application/json"), b"{".to_vec()),
        (Some("application/json"), b"null".to_vec()),
        (Some("application/json"), b"[1,2,3]".to_vec()),
        (Some("application/json"), b"\"text\"".to_vec()),
        (Some("application/json"), br#"{"name": {"$gt": ""}, "pages": "many", "answers": 5}"#.to_vec()),
        (Some("application/json"), "[".repeat(5000).into_bytes()),
        (Some("application/json"), vec![0xff, 0xfe, 0x00]),
        (
            Some("application/json"),
            br#"{"name": "a\u0000", "contactDetails": "\u0000", "labels": ["\u0000"]}"#.to_vec(),
        ),
        (Some("text/plain"), b"name=x".to_vec()),
        (Some("application/x-www-form-urlencoded"), b"name=x".to_vec()),
    ];
    let every = ENDPOINTS.iter().map(|e| ("/api/v1", e)).chain(RULE_ENDPOINTS.iter().map(|e| ("/api/v1.5", e)));
    for (prefix, (method, template)) in every {
        let method = &method.to_uppercase()[..];
        for id in ["abc", "-1", "99999999999999999999999", "1.5", "%00"] {
            assert_client_error(&app, method, &format!("{prefix}{}", fill(template, id)), None, Vec::new()).await;
        }
        if ["POST", "PUT", "PATCH"].contains(&method) {
            let path = format!("{prefix}{}", fill(template, &survey));
            for (content_type, body) in &bodies {
                assert_client_error(&app, method, &path, *content_type, body.clone()).await;
            }
        }
    }
    for query in ["page=-1", "pagesize=abc", "from=%ZZ", "completed=2", "to=2020-99-99", "updated=a&from=b"] {
        assert_client_error(&app, "GET", &format!("/api/v1/surveys/{survey}/answersWithData?{query}"), None, vec![])
            .await;
        assert_client_error(&app, "GET", &format!("/api/v1/surveys/{survey}/answers?{query}"), None, vec![]).await;
    }
    for query in
        ["active=maybe", "categoryid=1.5", "copysendoutids=1,x", "startdate=2020-02-30", "enddate=", "surveyname=%00"]
    {
        assert_client_error(&app, "GET", &format!("/api/v1/surveys/{survey}/copy?{query}"), None, vec![]).await;
    }
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 1, "nothing was created");
}

#[tokio::test]
async fn bodies_over_one_mebibyte_answer_413_and_up_to_it_are_read() {
    let app = spawn_app().await;
    let big = json!({"name": "x", "description": "d".repeat(1024 * 1024)}).to_string().into_bytes();
    app.raw("POST", "/api/v1/surveys", Some("application/json"), big).await.problem(413, "/payload-too-large");
    // Just under 1 MiB, every field within its length limit: 100 items of 9,900 characters.
    let items: Vec<_> = (0..100).map(|_| json!({"type": "Info", "text": "t".repeat(9_900)})).collect();
    let fits = json!({"name": "x", "pages": [{"items": items}]}).to_string().into_bytes();
    assert!(fits.len() > 990_000 && fits.len() < 1024 * 1024);
    app.raw("POST", "/api/v1/surveys", Some("application/json"), fits).await.expect(201);
}

#[tokio::test]
async fn non_json_bodies_answer_415_and_syntax_errors_400() {
    let app = spawn_app().await;
    app.raw("POST", "/api/v1/surveys", Some("text/plain"), b"{}".to_vec())
        .await
        .problem(415, "/unsupported-media-type");
    app.raw("POST", "/api/v1/surveys", Some("application/json"), b"{\"name\":".to_vec())
        .await
        .problem(400, "/malformed-json");
}

#[tokio::test]
async fn unknown_routes_answer_a_404_problem() {
    let app = spawn_app().await;
    for path in ["/api/v1/nothing", "/api/v2/surveys", "/", "/api/v1.6/surveys"] {
        app.raw("GET", path, None, vec![]).await.problem(404, "/not-found");
    }
    let reply = app.raw("GET", "/api/v1/surveys/abc", None, vec![]).await;
    assert_eq!(reply.fields(), ["path"]);
}
