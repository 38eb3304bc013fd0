//! A keyed request runs once: its change and its kept answer commit together, so a repeat replays the answer and
//! the change is there once. The rules of keys, replays and mismatches are in `idempotency.rs`; a kept answer the
//! database refuses (which takes the change down with it) is in tests/system/idempotency_faults.rs.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{email_sendout, survey_with_sendout, TestApp};

/// POSTs `body` to `/api/v1{path}` with `key` as the Idempotency-Key: status, whether it was replayed, body.
async fn post_keyed(app: &TestApp, path: &str, key: &str, body: &Value) -> (StatusCode, bool, Value) {
    let reply = app.post_keyed_as(&app.key, path, key, body).await;
    (reply.status, reply.replayed(), reply.body)
}

/// The sendout's respondents' contacts, and its `respondentCount`.
async fn respondents(app: &TestApp, survey: i64, sendout: i64) -> (Vec<String>, Value) {
    let listed = app.get(&format!("/surveys/{survey}/sendouts/{sendout}/respondents")).await.expect(200);
    let contacts = listed.as_array().unwrap().iter().map(|r| r["contactDetails"].as_str().unwrap().to_owned());
    let count = app.get(&format!("/surveys/{survey}/sendouts/{sendout}")).await.expect(200)["respondentCount"].clone();
    (contacts.collect(), count)
}

#[tokio::test]
async fn a_keyed_request_adds_its_respondent_once_and_replays_its_answer() {
    let app = crate::helpers::spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents");
    let body = json!({"contactDetails": "ann@example.com", "sendMail": true});
    let (status, replayed, first) = post_keyed(&app, &path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed), (201, false), "{first}");
    let (status, replayed, again) = post_keyed(&app, &path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed, &again), (201, true, &first));
    assert_eq!(respondents(&app, survey, sendout).await, (vec!["ann@example.com".to_owned()], json!(1)));
}
