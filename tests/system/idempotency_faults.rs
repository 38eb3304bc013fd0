//! A keyed request whose kept answer cannot be written changes nothing: the database is made to refuse kept
//! answers with SQL (a constraint no kept answer meets, as a database that went away just then would fail the
//! write), so the request's change rolls back with its answer; its retry then runs once and the next replays. What a
//! keyed request gets when nothing fails is in tests/api/platform/idempotency_once.rs.

use diesel::RunQueryDsl;
use serde_json::json;

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

/// Makes the database refuse kept answers (`true`), or keep them again.
fn refuse_kept_answers(app: &TestApp, refuse: bool) {
    let statement = if refuse {
        "ALTER TABLE idempotency_keys ADD CONSTRAINT refuse_kept_answers CHECK (state <> 'done') NOT VALID"
    } else {
        "ALTER TABLE idempotency_keys DROP CONSTRAINT refuse_kept_answers"
    };
    diesel::sql_query(statement).execute(&mut app.db.connect()).unwrap();
}

#[tokio::test]
async fn a_kept_answer_that_cannot_be_written_takes_the_change_with_it_and_the_retry_runs_once() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents");
    let body = json!({"contactDetails": "ann@example.com", "sendMail": true});

    refuse_kept_answers(&app, true);
    let (status, replayed, failed) = app.post_keyed(&path, "add-ann", &body).await;
    assert!(status.is_server_error() && !replayed, "{status}: {failed}");
    assert_eq!(app.sendout_contacts(survey, sendout).await, (vec![], json!(0)), "nothing stored: it rolled back");

    refuse_kept_answers(&app, false);
    let (status, replayed, ran) = app.post_keyed(&path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed), (201, false), "the retry runs (the key was released): {ran}");
    let (status, replayed, again) = app.post_keyed(&path, "add-ann", &body).await;
    assert_eq!((status.as_u16(), replayed, &again), (201, true, &ran), "and the next one replays it");
    assert_eq!(app.sendout_contacts(survey, sendout).await, (vec!["ann@example.com".to_owned()], json!(1)));
}
