//! `Idempotency-Key` on a POST: the first request runs, a repeat is answered from what was kept, and the key used
//! for another request is refused.

use actix_web::http::Method;
use canvass_http::problem::ProblemKind;
use serde_json::{json, Value};

use crate::support::{as_key, Reply, TestApp};

impl TestApp {
    /// `POST {API}/surveys` with `body` under `Idempotency-Key: key`.
    async fn create_survey_once(&self, key: &str, body: &Value) -> Reply {
        self.call(self.api(Method::POST, "/surveys").insert_header(("Idempotency-Key", key)).set_json(body)).await
    }
}

#[actix_web::test]
async fn a_repeat_is_answered_from_the_kept_answer_and_creates_nothing() {
    let app = TestApp::new().await;
    let body = json!({"name": "Pulse", "description": "weekly"});
    let first = app.create_survey_once("create-pulse", &body).await;
    let created = first.expect(201);
    assert_eq!(first.header("idempotent-replayed"), "", "the first request runs");

    let again = app.create_survey_once("create-pulse", &body).await;
    assert_eq!(again.status, first.status);
    assert_eq!(again.body, first.body, "the same body, byte for byte");
    assert_eq!(again.header("idempotent-replayed"), "true");
    assert_eq!(again.header("content-type"), first.header("content-type"));
    assert_eq!(app.survey_names().await, ["Pulse"], "one survey");

    let listed = app.get("/surveys").await.expect(200);
    assert_eq!(listed, json!([created]));
}

#[actix_web::test]
async fn the_key_sent_with_another_body_answers_422_and_changes_nothing() {
    let app = TestApp::new().await;
    app.create_survey_once("create-pulse", &json!({"name": "Pulse"})).await.expect(201);
    let other = app.create_survey_once("create-pulse", &json!({"name": "Other"})).await;
    other.problem(ProblemKind::IdempotencyKeyReused);
    assert_eq!(other.header("idempotent-replayed"), "");
    // Another path with the key is another request too.
    let category = app.api(Method::POST, "/accounts/categories").insert_header(("Idempotency-Key", "create-pulse"));
    app.call(category.set_json(json!({"name": "HR"}))).await.problem(ProblemKind::IdempotencyKeyReused);
    assert_eq!(app.survey_names().await, ["Pulse"]);
    assert_eq!(app.get("/accounts/categories").await.expect(200), json!([]));
}

#[actix_web::test]
async fn keys_are_scoped_by_account() {
    let app = TestApp::new().await;
    let body = json!({"name": "Pulse"});
    app.create_survey_once("shared-key", &body).await.expect(201);
    let other_key = app.other_account("Other", "owner@other.example");
    let theirs = as_key(&other_key, Method::POST, "/surveys").insert_header(("Idempotency-Key", "shared-key"));
    let reply = app.call(theirs.set_json(&body)).await;
    reply.expect(201);
    assert_eq!(reply.header("idempotent-replayed"), "", "another account's request runs");
    let listed = app.call(as_key(&other_key, Method::GET, "/surveys")).await.expect(200);
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
}

#[actix_web::test]
async fn a_malformed_key_answers_400_naming_the_header() {
    let app = TestApp::new().await;
    let reply = app.create_survey_once(&"k".repeat(256), &json!({"name": "Pulse"})).await;
    assert_eq!(reply.invalid_field(), "Idempotency-Key");
    assert!(app.survey_names().await.is_empty());
}
