//! A sendout's `respondentCount` and `pendingCount`, stored with the sendout: after every path that adds
//! respondents, removes them or moves them out of Pending (single and batch adds, document rows, the blocklist,
//! permanent failures, activations, the frequency limit, copies, delivery, retention, concurrent batches), the
//! sendout's read, the survey's list and the background data document show what the respondent list shows.

use canvass_domain::ports::StoreExt;
use canvass_sinks::{SmsSink, SmtpSink};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::delivery::{activated, deliver_on};
use crate::helpers::{spawn_app, TestApp};
use crate::sendouts::{email_sendout, survey_with_sendout};

fn pair(sendout: &Value) -> (i64, i64) {
    (sendout["respondentCount"].as_i64().unwrap(), sendout["pendingCount"].as_i64().unwrap())
}

/// The counts of the sendout at `base` (`/surveys/{id}/sendouts/{id}`), checked against its respondent list in
/// the sendout's own read, the survey's list and the sendout's background data document (`rowCount`), and returned
/// as `(respondentCount, pendingCount)`.
async fn counts(app: &TestApp, base: &str) -> (i64, i64) {
    let statuses = app.statuses(base).await;
    let listed = (statuses.len() as i64, statuses.iter().filter(|s| *s == "Pending").count() as i64);
    assert_eq!(pair(&app.get(base).await.expect(200)), listed, "GET {base} against its respondents {statuses:?}");
    let (list_path, id) = base.rsplit_once('/').unwrap();
    let id: i64 = id.parse().unwrap();
    let list = app.get(list_path).await.expect(200);
    let listed_sendout = list.as_array().unwrap().iter().find(|s| s["sendoutId"] == id).unwrap();
    assert_eq!(pair(listed_sendout), listed, "GET {list_path} against the respondents {statuses:?}");
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    let document = documents.as_array().unwrap().iter().find(|d| d["sendoutId"] == id).unwrap();
    assert_eq!(document["rowCount"], listed.0, "the document's rowCount");
    let one = app.get(&format!("/bgdata/bgdocuments/{}", document["bgDocumentId"])).await.expect(200);
    assert_eq!(one["rowCount"], listed.0, "the single document's rowCount");
    listed
}

async fn add(app: &TestApp, base: &str, contact: &str) -> Value {
    app.post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true})).await.expect(201)
}

async fn batch(app: &TestApp, base: &str, contacts: &[String]) -> Value {
    let people: Vec<Value> = contacts.iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
    app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200)
}

fn contacts(range: std::ops::Range<usize>) -> Vec<String> {
    range.map(|i| format!("c{i}@example.com")).collect()
}

#[tokio::test]
async fn adds_refusals_blocklisting_failures_and_activations_keep_both_counts() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    assert_eq!(counts(&app, &base).await, (0, 0));

    add(&app, &base, "a@example.com").await;
    assert_eq!(counts(&app, &base).await, (1, 1), "a single add");
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "A@example.com", "sendMail": true}))
        .await
        .problem(409, "/duplicate");
    app.post("/accounts/blocklist", json!({"contactDetails": "z@example.com", "type": "Blocked"})).await.expect(201);
    let mixed = ["b@example.com", "c@example.com", "a@example.com", "b@example.com", "z@example.com"].map(String::from);
    let outcome = batch(&app, &base, &mixed).await;
    assert_eq!((outcome["added"].as_array().unwrap().len(), outcome["rejected"].as_array().unwrap().len()), (2, 3));
    assert_eq!(counts(&app, &base).await, (3, 3), "a batch counts what it inserted, not what it was given");

    let document = app.get("/bgdata/bgdocuments").await.expect(200)[0]["bgDocumentId"].clone();
    let row = json!({"contactDetails": "d@example.com", "cellData": {}});
    app.post(&format!("/bgdata/bgdocuments/{document}/rows"), row).await.expect(201);
    assert_eq!(counts(&app, &base).await, (4, 4), "a document row is a pending respondent");

    app.post("/accounts/blocklist", json!({"contactDetails": "B@example.com", "type": "OptedOut"})).await.expect(201);
    assert_eq!(counts(&app, &base).await, (4, 3), "a blocklisted pending respondent is no longer pending");
    let failure = json!({"failures": [{"emailAddress": "c@example.com", "sendingDomain": "mail.acme.example",
        "failedAt": "2026-11-20T10:00:00Z", "reason": "550 no such user"}]});
    app.post("/email-bounces/permanent-failures", failure).await.expect(200);
    assert_eq!(counts(&app, &base).await, (4, 2), "a bounced pending respondent is no longer pending");
    assert_eq!(app.statuses(&base).await, ["Pending", "Blocklisted", "Bounced", "Pending"]);

    let activation = app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    assert_eq!(pair(&activation), (4, 0), "the activation's answer");
    assert_eq!(counts(&app, &base).await, (4, 0));
    add(&app, &base, "e@example.com").await;
    assert_eq!(counts(&app, &base).await, (5, 1), "added after the activation");
    app.post("/accounts/blocklist", json!({"contactDetails": "a@example.com", "type": "Blocked"})).await.expect(201);
    assert_eq!(counts(&app, &base).await, (5, 1), "blocklisting a scheduled respondent leaves the pending count");
    let deactivation = app.post(&format!("{base}/deactivate"), json!({})).await.expect(200);
    assert_eq!(pair(&deactivation), (5, 1), "the deactivation's answer");
    assert_eq!(pair(&app.post(&format!("{base}/activate"), json!({})).await.expect(200)), (5, 0));
    assert_eq!(counts(&app, &base).await, (5, 0));
}

#[tokio::test]
async fn the_frequency_limit_and_a_late_blocklist_entry_still_empty_the_pending_count() {
    use diesel::RunQueryDsl;
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
async fn a_copied_sendout_counts_the_respondents_it_was_given() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    batch(&app, &base, &contacts(0..3)).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    add(&app, &base, "late@example.com").await;
    app.post("/accounts/blocklist", json!({"contactDetails": "c1@example.com", "type": "Blocked"})).await.expect(201);
    assert_eq!(counts(&app, &base).await, (4, 1));

    let copy = app.get(&format!("/surveys/{survey}/copy?copysendoutids={sendout}")).await.expect(200);
    let copy_sendouts = format!("/surveys/{}/sendouts", copy["surveyId"]);
    let copied = app.get(&copy_sendouts).await.expect(200)[0]["sendoutId"].clone();
    let copied = format!("{copy_sendouts}/{copied}");
    assert_eq!(app.statuses(&copied).await, ["Pending", "Blocklisted", "Pending", "Pending"]);
    assert_eq!(counts(&app, &copied).await, (4, 3), "every copied respondent is pending but the blocklisted one");
    assert_eq!(counts(&app, &base).await, (4, 1), "the source is unchanged");
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

fn run_retention(app: &TestApp, now: OffsetDateTime) {
    app.db.store().with_uow(|uow| canvass_server::retention::run_once(uow, now, false, true)).unwrap();
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

    run_retention(&app, now + Duration::days(6));
    assert_eq!(counts(&app, &bases[0]).await, (0, 0), "released and pending respondents removed");
    assert_eq!(counts(&app, &bases[1]).await, (3, 1), "the other sendout has no rule");
}

#[tokio::test]
async fn retention_policies_erase_without_changing_the_counts_then_delete_to_zero() {
    let app = spawn_app().await;
    let end = OffsetDateTime::now_utc() + Duration::days(1);
    let mut body = crate::helpers::sample_survey_body();
    body["endDate"] = json!(end.format(&time::format_description::well_known::Rfc3339).unwrap());
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
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

#[tokio::test]
async fn concurrent_batches_to_one_sendout_both_count() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    for round in 0..3 {
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
        let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
        // Two batches of 1,000 that share 200 contacts: 1,800 respondents whichever inserts a shared one first.
        let (first, second) = (contacts(0..1000), contacts(800..1800));
        let (one, two) = tokio::join!(batch(&app, &base, &first), batch(&app, &base, &second));
        let added = one["added"].as_array().unwrap().len() + two["added"].as_array().unwrap().len();
        assert_eq!(added, 1800, "round {round}");
        assert_eq!(counts(&app, &base).await, (1800, 1800), "round {round}");
    }
}

#[tokio::test]
async fn a_batch_alongside_an_activation_stays_counted_as_pending_or_released() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    for round in 0..3 {
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
        let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
        batch(&app, &base, &contacts(0..500)).await;
        let (activate, more) = (format!("{base}/activate"), contacts(500..1500));
        let (added, activation) = tokio::join!(batch(&app, &base, &more), app.post(&activate, json!({})));
        activation.expect(200);
        assert_eq!(added["added"].as_array().unwrap().len(), 1000, "round {round}");
        let (respondents, pending) = counts(&app, &base).await;
        assert_eq!(respondents, 1500, "round {round}");
        assert!(pending == 0 || pending == 1000, "round {round}: the batch is released whole or not at all: {pending}");
    }
}
