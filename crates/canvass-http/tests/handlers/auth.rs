//! Authentication in the API guard: which keys are refused (401 with a challenge) and which headers carry one, and
//! that a key reaches only its own account's resources.

use std::time::{Duration, Instant};

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_domain::ports::StoreExt;
use canvass_domain::testing::{At, NOW};
use canvass_domain::use_cases::accounts;
use canvass_http::problem::ProblemKind;
use canvass_http::Protection;
use serde_json::json;

use crate::support::{as_key, Reply, TestApp, API};

/// Checks a refusal: 401 `unauthorized` with `WWW-Authenticate: Bearer`.
#[track_caller]
fn refused(reply: &Reply) {
    reply.problem(ProblemKind::Unauthorized);
    assert_eq!(reply.header("www-authenticate"), "Bearer");
}

#[actix_web::test]
async fn a_request_without_a_key_answers_401_with_a_bearer_challenge() {
    let app = TestApp::new().await;
    let reply = app.call(TestRequest::get().uri(&format!("{API}/surveys"))).await;
    refused(&reply);
    let problem = reply.problem(ProblemKind::Unauthorized);
    assert!(problem["detail"].as_str().unwrap().contains("X-API-KEY"), "{problem}");
    // The guard answers before the body is read or its content type is judged.
    let post = TestRequest::post().uri(&format!("{API}/surveys")).insert_header(("content-type", "text/plain"));
    refused(&app.call(post.set_payload("not json")).await);
}

#[actix_web::test]
async fn a_malformed_key_is_refused_without_asking_the_store() {
    let app = TestApp::new().await;
    // An unreachable store would answer 503: a 401 shows the key was judged by its shape alone.
    app.store.set_available(false);
    let hex = "0".repeat(64);
    for key in ["garbage", "cvs_", &format!("cvs_{}", "G".repeat(64)), &format!("cvs_{hex}0"), &format!("CVS_{hex}")] {
        refused(&app.call(as_key(key, Method::GET, "/surveys")).await);
    }
    refused(&app.call(as_key("", Method::GET, "/surveys")).await);
}

#[actix_web::test]
async fn a_well_formed_key_the_store_does_not_know_is_refused() {
    let app = TestApp::new().await;
    let unknown = canvass_domain::account::ApiKey::generate();
    refused(&app.call(as_key(unknown.secret(), Method::GET, "/surveys")).await);
    refused(&app.call(as_key(&format!("cvs_{}", "0".repeat(64)), Method::GET, "/surveys")).await);
    app.get("/surveys").await.expect(200);
}

#[actix_web::test]
async fn a_key_revoked_before_its_first_use_is_refused() {
    let app = TestApp::new().await;
    let revoked = app.store.with_uow(|uow| accounts::revoke_key(uow, &At(NOW), &app.key_prefix)).unwrap();
    assert_eq!(revoked, 1);
    refused(&app.get("/surveys").await);
}

#[actix_web::test]
async fn a_key_revoked_after_use_stops_working_when_its_cache_entry_expires() {
    let protection = Protection { key_cache_ttl: Duration::from_millis(100), ..Protection::default() };
    let app = TestApp::with_protection(protection).await;
    app.get("/surveys").await.expect(200);
    app.store.with_uow(|uow| accounts::revoke_key(uow, &At(NOW), &app.key_prefix)).unwrap();
    let started = Instant::now();
    while app.get("/surveys").await.status != 401 {
        assert!(started.elapsed() < Duration::from_secs(1), "the revoked key was still accepted after 1 s");
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    refused(&app.get("/surveys").await);
}

#[actix_web::test]
async fn the_key_is_accepted_as_x_api_key_or_as_a_bearer_token() {
    let app = TestApp::new().await;
    let uri = format!("{API}/surveys");
    app.call(TestRequest::get().uri(&uri).insert_header(("X-API-KEY", app.key.as_str()))).await.expect(200);
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let bearer = TestRequest::get().uri(&uri).insert_header(("Authorization", format!("{scheme} {}", app.key)));
        app.call(bearer).await.expect(200);
    }
    for other in [format!("Basic {}", app.key), app.key.clone(), "Bearer".to_owned()] {
        refused(&app.call(TestRequest::get().uri(&uri).insert_header(("Authorization", other))).await);
    }
    // Under every version.
    let versioned = TestRequest::get().uri("/api/v1.3/surveys").insert_header(("X-API-KEY", app.key.as_str()));
    app.call(versioned).await.expect(200);
}

#[actix_web::test]
async fn another_accounts_survey_answers_404_as_a_missing_one_does() {
    let app = TestApp::new().await;
    let other_key = app.other_account("Other", "owner@other.example");
    let created = app.call(as_key(&other_key, Method::POST, "/surveys").set_json(json!({"name": "Theirs"}))).await;
    let id = created.expect(201)["surveyId"].as_i64().unwrap();
    app.call(as_key(&other_key, Method::GET, &format!("/surveys/{id}"))).await.expect(200);

    let theirs = app.get(&format!("/surveys/{id}")).await.problem(ProblemKind::NotFound);
    let missing = app.get("/surveys/987654").await.problem(ProblemKind::NotFound);
    assert_eq!(theirs, missing, "nothing tells another account's survey from a missing one");
    assert!(app.survey_names().await.is_empty());
}
