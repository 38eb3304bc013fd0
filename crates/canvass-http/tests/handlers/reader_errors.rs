//! Reading requests: bodies that are not JSON, not declared as JSON, of the wrong shape or too large, and path and
//! query parameters that do not parse, each answered by a problem that names what is wrong, with nothing stored.

use actix_web::http::Method;
use canvass_http::extract::body::MAX_BODY_BYTES;
use canvass_http::problem::ProblemKind;
use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn a_body_that_is_not_json_answers_400_malformed_json() {
    let app = TestApp::new().await;
    for body in [&br#"{"name": "#[..], b"{'name': 'x'}", br#"{"name": "x"} {}"#, b""] {
        let request = app.api(Method::POST, "/surveys").insert_header(("content-type", "application/json"));
        let reply = app.call(request.set_payload(body)).await;
        reply.problem(ProblemKind::MalformedJson);
    }
    assert!(app.survey_names().await.is_empty());
}

#[actix_web::test]
async fn a_body_declared_as_anything_but_json_answers_415_and_an_undeclared_one_is_read_as_json() {
    let app = TestApp::new().await;
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
        let request = app.api(Method::POST, "/surveys").insert_header(("content-type", content_type));
        app.call(request.set_payload(r#"{"name": "Pulse"}"#)).await.problem(ProblemKind::UnsupportedMediaType);
    }
    assert!(app.survey_names().await.is_empty());

    let undeclared = app.api(Method::POST, "/surveys").set_payload(r#"{"name": "Plain"}"#);
    app.call(undeclared).await.expect(201);
    let merge = app.api(Method::POST, "/surveys").insert_header(("content-type", "application/merge-patch+json"));
    app.call(merge.set_payload(r#"{"name": "Suffixed"}"#)).await.expect(201);
    assert_eq!(app.survey_names().await, ["Plain", "Suffixed"]);
}

#[actix_web::test]
async fn a_missing_or_mistyped_field_answers_400_naming_it() {
    let app = TestApp::new().await;
    for (body, field) in [
        (json!({"description": "no name"}), "name"),
        (json!({"name": 5}), "name"),
        (json!({"name": "x", "active": "yes"}), "active"),
        (json!({"name": "x", "pages": [{"items": [{"text": "q"}]}]}), "pages[0].items[0].type"),
        (json!({"name": "x", "pages": {"items": []}}), "pages"),
        (json!(["not", "an", "object"]), "body"),
    ] {
        assert_eq!(app.post("/surveys", &body).await.invalid_field(), field, "{body}");
    }
    assert!(app.survey_names().await.is_empty());
}

#[actix_web::test]
async fn an_unknown_enum_value_answers_400_naming_the_field_with_the_supported_values() {
    let app = TestApp::new().await;
    let body = json!({"name": "x", "pages": [{"title": "One", "items": [{"type": "Slider", "text": "q"}]}]});
    let reply = app.post("/surveys", &body).await;
    assert_eq!(reply.invalid_field(), "pages[0].items[0].type");
    let problem = reply.problem(ProblemKind::Validation);
    let supported = json!([
        "SingleChoice",
        "MultipleChoice",
        "OpenText",
        "Numeric",
        "Rating",
        "Info",
        "Dropdown",
        "Date",
        "Matrix",
        "Ranking"
    ]);
    assert_eq!(problem["supportedValues"], supported);
}

#[actix_web::test]
async fn a_nul_character_in_a_string_answers_400_naming_the_field() {
    let app = TestApp::new().await;
    let reply = app.post("/surveys", &json!({"name": "Pul\u{0}se"})).await;
    assert_eq!(reply.invalid_field(), "name");
    let nested = json!({"name": "x", "pages": [{"title": "One", "items": [{"type": "OpenText", "text": "a\u{0}"}]}]});
    assert_eq!(app.post("/surveys", &nested).await.invalid_field(), "pages[0].items[0].text");
    // An escaped backslash followed by `u0000` is six ordinary characters.
    let escaped = app.api(Method::POST, "/surveys").set_payload(r#"{"name": "Pul\\u0000se"}"#);
    assert_eq!(app.call(escaped).await.expect(201)["name"], r"Pul\u0000se");
}

#[actix_web::test]
async fn a_body_over_1_mib_answers_413_and_one_of_exactly_1_mib_is_read() {
    let app = TestApp::new().await;
    let json = br#"{"name": "Big"}"#;
    let padded = |length: usize| {
        let mut body = json.to_vec();
        body.resize(length, b' ');
        body
    };
    let over = app.api(Method::POST, "/surveys").set_payload(padded(MAX_BODY_BYTES + 1));
    app.call(over).await.problem(ProblemKind::PayloadTooLarge);
    // The idempotency layer reads the body first, and has the same limit.
    let keyed = app.api(Method::POST, "/surveys").insert_header(("Idempotency-Key", "big"));
    app.call(keyed.set_payload(padded(MAX_BODY_BYTES + 1))).await.problem(ProblemKind::PayloadTooLarge);
    assert!(app.survey_names().await.is_empty());

    let exact = app.api(Method::POST, "/surveys").set_payload(padded(MAX_BODY_BYTES));
    assert_eq!(app.call(exact).await.expect(201)["name"], "Big");
}

#[actix_web::test]
async fn a_path_id_that_is_not_a_number_answers_400_naming_path() {
    let app = TestApp::new().await;
    for path in ["/surveys/abc", "/surveys/1.5", "/surveys/99999999999999999999"] {
        assert_eq!(app.get(path).await.invalid_field(), "path", "{path}");
    }
}

#[actix_web::test]
async fn a_query_parameter_that_does_not_parse_answers_400_naming_it() {
    let app = TestApp::new().await;
    let id = app.post("/surveys", &json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    for (query, field) in
        [("copylogic=maybe", "copylogic"), ("categoryid=HR", "categoryid"), ("startdate=soon", "startdate")]
    {
        let reply = app.get(&format!("/surveys/{id}/copy?{query}")).await;
        assert_eq!(reply.invalid_field(), field, "{query}");
    }
    assert_eq!(app.survey_names().await, ["Pulse"], "no copy was made");
}
