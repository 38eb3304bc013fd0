//! A sendout's counts after what no API call does: a delivery round (run at the `now` the test chooses), retention
//! runs of the engine, and a blocklist entry planted with SQL as a race would leave it. The counts are read over
//! HTTP, with the readers of `api/distribution/sendout_counts.rs`, where the paths the API drives are.

use canvass_domain::governance::RunTrigger;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::retention::RetentionSummary;
use canvass_sinks::{SmsSink, SmtpSink};
use diesel::RunQueryDsl;
use serde_json::json;
use time::{Duration, OffsetDateTime};

use crate::api::distribution::sendout_counts::{add, batch, contacts, counts};
use crate::helpers::{activated, deliver_on, email_sendout, spawn_app, survey_with_sendout, TestApp};
use crate::system::timelines::events_stored;

#[tokio::test]
async fn the_frequency_limit_and_a_late_blocklist_entry_still_empty_the_pending_count() {
    let app = spawn_app().await;
    app.put("/surveys/frequency", json!({"enabled": true, "settings": {"numberOfDays": 30, "maxNumberOfSurveys": 1}}))
        .await
        .expect(200);
    let (first_survey, first) = survey_with_sendout(&app, email_sendout()).await;
    let first = format!("/surveys/{first_survey}/sendouts/{first}");
    add(&app, &first, "ann@example.com").await;
    app.post(&format!("{first}/activate"), json!({})).await.expect(200);

    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    batch(&app, &base, &["ann@example.com", "bob@example.com", "late@example.com"].map(String::from)).await;
    // A blocklist entry committed between an add's blocklist check and its insert: the activation blocklists it.
    diesel::sql_query(
        "INSERT INTO blocklist (account_id, contact_key, contact_details, entry_type, created_at) \
         SELECT account_id, 'late@example.com', 'late@example.com', 'OptedOut', now() FROM sendouts LIMIT 1",
    )
    .execute(&mut app.db.connect())
    .unwrap();
    assert_eq!(counts(&app, &base).await, (3, 3));
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(app.statuses(&base).await, ["FrequencyLimitReached", "Scheduled", "Blocklisted"]);
    assert_eq!(counts(&app, &base).await, (3, 0));
}

#[tokio::test]
async fn delivery_outcomes_leave_the_pending_count_as_the_list_shows_it() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("bounce@", "later@");
    let (_, base, _) = activated(&app, &["ok@example.com", "bounce@example.com", "later@example.com"], None).await;
    add(&app, &base, "new@example.com").await;
    deliver_on(&app, &sink.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!(app.statuses(&base).await, ["Sent", "Bounced", "Scheduled", "Pending"]);
    assert_eq!(counts(&app, &base).await, (4, 1));
}

async fn respondent_ids(app: &TestApp, base: &str) -> Vec<i64> {
    let people = app.get(&format!("{base}/respondents")).await.expect(200);
    people.as_array().unwrap().iter().map(|person| person["respondentId"].as_i64().unwrap()).collect()
}

/// Runs the retention engine once at `now`, as the CLI's command does; what it did.
pub(crate) fn run_retention(app: &TestApp, now: OffsetDateTime) -> RetentionSummary {
    app.db
        .store()
        .with_uow(|uow| canvass_server::jobs::retention::run_once(uow, now, false, true, RunTrigger::Command))
        .unwrap()
}

#[tokio::test]
async fn a_retention_rule_takes_removed_respondents_off_their_sendout() {
    let app = spawn_app().await;
    let now = OffsetDateTime::now_utc();
    let (survey, _) = app.sample_survey().await;
    let mut bases = Vec::new();
    for _ in 0..2 {
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
        let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
        batch(&app, &base, &contacts(0..2)).await;
        app.post(&format!("{base}/activate"), json!({})).await.expect(200);
        add(&app, &base, "late@example.com").await;
        assert_eq!(counts(&app, &base).await, (3, 1));
        bases.push(base);
    }
    let rule = json!({"action": "RemoveRespondentDataWithoutAnswers", "retentionDays": 5, "status": "Active"});
    let rules_path = bases[0].replacen("/surveys/", "/data-retention/rules/surveys/", 1);
    app.v1_5("POST", &rules_path, Some(rule)).await.expect(200);

    let (removed, kept) = (respondent_ids(&app, &bases[0]).await, respondent_ids(&app, &bases[1]).await);
    assert_eq!(events_stored(&app, &removed), 5, "three added, two released");

    run_retention(&app, now + Duration::days(6));
    assert_eq!(counts(&app, &bases[0]).await, (0, 0), "released and pending respondents removed");
    assert_eq!(counts(&app, &bases[1]).await, (3, 1), "the other sendout has no rule");
    assert_eq!(events_stored(&app, &removed), 0, "their timelines go with them");
    assert_eq!(events_stored(&app, &kept), 5);
}

#[tokio::test]
async fn retention_policies_erase_without_changing_the_counts_then_delete_to_zero() {
    let app = spawn_app().await;
    let end = OffsetDateTime::now_utc() + Duration::days(1);
    let survey = crate::helpers::survey_ending(&app, end).await;
    let mut bases = Vec::new();
    for size in [2, 3] {
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
        let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
        batch(&app, &base, &contacts(0..size)).await;
        app.post(&format!("{base}/activate"), json!({})).await.expect(200);
        add(&app, &base, "late@example.com").await;
        bases.push(base);
    }
    let policy = json!({"partialDeleteAfterDays": 1, "completeDeleteAfterDays": 10});
    app.post("/data-retention/account", policy).await.expect(200);

    run_retention(&app, end + Duration::days(2));
    assert_eq!(app.get(&format!("{}/respondents", bases[0])).await.expect(200)[0]["contactDetails"], "");
    assert_eq!(counts(&app, &bases[0]).await, (3, 1), "erased respondents stay counted");
    assert_eq!(counts(&app, &bases[1]).await, (4, 1));
    run_retention(&app, end + Duration::days(11));
    assert_eq!(counts(&app, &bases[0]).await, (0, 0), "a complete delete removes every respondent of the survey");
    assert_eq!(counts(&app, &bases[1]).await, (0, 0));
}
