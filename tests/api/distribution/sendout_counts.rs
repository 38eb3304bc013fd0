//! A sendout's `respondentCount` and `pendingCount`, stored with the sendout: after every path that adds
//! respondents, removes them or moves them out of Pending (single and batch adds, document rows, the blocklist,
//! permanent failures, activations, copies, concurrent batches), the sendout's read, the survey's list and the
//! background data document show what the respondent list shows. After delivery, retention and a planted blocklist
//! entry: `system/sendout_counts.rs`.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

fn pair(sendout: &Value) -> (i64, i64) {
    (sendout["respondentCount"].as_i64().unwrap(), sendout["pendingCount"].as_i64().unwrap())
}

/// The counts of the sendout at `base` (`/surveys/{id}/sendouts/{id}`), checked against its respondent list in
/// the sendout's own read, the survey's list and the sendout's background data document (`rowCount`), and returned
/// as `(respondentCount, pendingCount)`.
pub(crate) async fn counts(app: &TestApp, base: &str) -> (i64, i64) {
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

pub(crate) async fn add(app: &TestApp, base: &str, contact: &str) -> Value {
    app.post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true})).await.expect(201)
}

pub(crate) async fn batch(app: &TestApp, base: &str, contacts: &[String]) -> Value {
    let people: Vec<Value> = contacts.iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
    app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200)
}

pub(crate) fn contacts(range: std::ops::Range<usize>) -> Vec<String> {
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
        "failedAt": "2020-11-20T10:00:00Z", "reason": "550 no such user"}]});
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
