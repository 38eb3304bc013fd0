//! A keyed request runs once: its change and its kept answer commit together, so a repeat replays the answer and
//! the change is there once. The rules of keys, replays and mismatches are in `idempotency.rs`; a kept answer the
//! database refuses (which takes the change down with it) is in tests/system/idempotency_faults.rs.

use serde_json::json;

use crate::helpers::{email_sendout, survey_with_sendout};

#[tokio::test]
async fn a_keyed_request_adds_its_respondent_once_and_replays_its_answer() {
    let app = crate::helpers::spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents");
    let body = json!({"contactDetails": "ann@example.com", "sendMail": true});
    let (status, replayed, first) = app.post_keyed(&path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed), (201, false), "{first}");
    let (status, replayed, again) = app.post_keyed(&path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed, &again), (201, true, &first));
    assert_eq!(app.sendout_contacts(survey, sendout).await, (vec!["ann@example.com".to_owned()], json!(1)));
}
