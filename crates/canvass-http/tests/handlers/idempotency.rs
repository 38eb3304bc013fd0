//! `Idempotency-Key` on a POST: the first request runs, a repeat is answered from what was kept, and the key used
//! for another request is refused.

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_domain::RepoError;
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

/// The units of work one request borrows from the store (after the first request of the seeded key, whose
/// authentication the key cache then keeps).
async fn lends_of(app: &TestApp, request: TestRequest) -> (Reply, usize) {
    let before = app.lends();
    let reply = app.call(request).await;
    (reply, app.lends() - before)
}

fn keyed_post(app: &TestApp, path: &str, key: &str) -> TestRequest {
    app.api(Method::POST, path).insert_header(("Idempotency-Key", key))
}

#[actix_web::test]
async fn a_keyed_request_keeps_its_answer_in_the_hop_of_its_change() {
    let app = TestApp::new().await;
    app.get("/surveys").await.expect(200);
    let body = json!({"name": "Pulse"});
    let (first, lends) = lends_of(&app, keyed_post(&app, "/surveys", "once").set_json(&body)).await;
    first.expect(201);
    assert_eq!(lends, 2, "the claim, and one hop that creates the survey and keeps its answer");
    let (again, lends) = lends_of(&app, keyed_post(&app, "/surveys", "once").set_json(&body)).await;
    assert_eq!((again.header("idempotent-replayed"), again.body.clone()), ("true", first.body.clone()));
    assert_eq!(lends, 1, "a replay is the claim's look-up alone");
    let (_, lends) = lends_of(&app, app.api(Method::POST, "/surveys").set_json(json!({"name": "Other"}))).await;
    assert_eq!(lends, 1, "an unkeyed request keeps its one hop");
    assert_eq!(app.survey_names().await, ["Pulse", "Other"]);
}

#[actix_web::test]
async fn a_client_error_of_the_use_case_is_kept_in_its_hop_and_replayed() {
    let app = TestApp::new().await;
    app.get("/surveys").await.expect(200);
    let body = json!({"name": "Pulse", "categoryId": 4242});
    let (first, lends) = lends_of(&app, keyed_post(&app, "/surveys", "unknown-category").set_json(&body)).await;
    assert_eq!(first.invalid_field(), "categoryId");
    assert_eq!(lends, 3, "kept with the use case, not in a hop of its own; then the refusal's audit event");
    let again = app.call(keyed_post(&app, "/surveys", "unknown-category").set_json(&body)).await;
    assert_eq!((again.status, again.header("idempotent-replayed")), (first.status, "true"));
    assert_eq!(again.body, first.body);
    assert!(app.survey_names().await.is_empty());
}

#[actix_web::test]
async fn an_answer_refused_before_the_hop_is_still_kept() {
    let app = TestApp::new().await;
    app.get("/surveys").await.expect(200);
    let malformed = || keyed_post(&app, "/surveys", "malformed").insert_header(("content-type", "application/json"));
    let (first, lends) = lends_of(&app, malformed().set_payload("{\"name\":")).await;
    first.problem(ProblemKind::MalformedJson);
    assert_eq!(lends, 3, "the claim, the middleware keeping the refused answer, the refusal's audit event");
    let again = app.call(malformed().set_payload("{\"name\":")).await;
    assert_eq!((again.status, again.header("idempotent-replayed")), (first.status, "true"));
}

#[actix_web::test]
async fn a_server_error_in_the_hop_releases_the_key_so_that_a_retry_runs_again() {
    let app = TestApp::new().await;
    app.get("/surveys").await.expect(200);
    // The store's transactions cannot begin: adding to the blocklist fails as a database error would.
    app.store.inspect(|memory| memory.hooks.failing_begin = Some(|| RepoError::Other("a broken row".into())));
    let body = json!({"contactDetails": "a@example.com", "type": "Blocked"});
    let (first, lends) = lends_of(&app, keyed_post(&app, "/accounts/blocklist", "block-a").set_json(&body)).await;
    first.problem(ProblemKind::Internal);
    assert_eq!(lends, 3, "the claim, the hop that rolled back, and the release");
    let retry = app.call(keyed_post(&app, "/accounts/blocklist", "block-a").set_json(&body)).await;
    retry.problem(ProblemKind::Internal);
    assert_eq!(retry.header("idempotent-replayed"), "", "the retry ran again instead of waiting for the lease");
    assert!(app.store.inspect(|memory| memory.state.blocklist.is_empty()), "nothing was added");
}
