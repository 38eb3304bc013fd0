//! Alerts as a store manager lives them: a completed answer set that meets an alert's conditions emails each
//! recipient once, through the relay the invitations use, with the answers when the alert includes them; sets that
//! do not meet it, or are not completed, send nothing; relay trouble holds an alert email without losing it, a
//! refused recipient bounces, and a deleted alert's unsent emails are not sent.
//! A system test: it runs the delivery worker's rounds against the SMTP sink at simulated times.

use canvass_sinks::{SmsSink, SmtpSink};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{deliver_on, item_id, recipient, sender, spawn_app, subject, text_part, TestApp};

/// "Store visits": a Rating and an OpenText item; returns its id and tree.
async fn survey(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Store visits", "pages": [{"items": [
        {"type": "Rating", "text": "How likely are you to recommend us?"},
        {"type": "OpenText", "text": "What could we do better?"}]}]});
    let id = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

/// An alert of `survey` on scores of at most 6.
async fn alert(app: &TestApp, survey: i64, tree: &Value, recipients: &[&str], include_answers: bool) -> Value {
    let body = json!({"name": "Unhappy customer", "recipients": recipients, "includeAnswers": include_answers,
        "when": {"questionItemId": item_id(tree, 0, 0), "operator": "atMost", "value": 6}});
    app.post(&format!("/surveys/{survey}/alerts"), body).await.expect(201)
}

/// Records an answer set of `survey` through the API.
async fn answer(app: &TestApp, survey: i64, tree: &Value, score: i64, text: &str, completed: bool) {
    let body = json!({"completed": completed, "answers": [
        {"questionItemId": item_id(tree, 0, 0), "value": score},
        {"questionItemId": item_id(tree, 0, 1), "value": text}]});
    app.post(&format!("/surveys/{survey}/answers"), body).await.expect(201);
}

#[tokio::test]
async fn a_completed_set_that_meets_an_alert_emails_each_recipient_once() {
    let app = spawn_app().await;
    let (survey, tree) = survey(&app).await;
    alert(&app, survey, &tree, &["manager@store.example", "owner@store.example"], true).await;
    alert(&app, survey, &tree, &["analyst@store.example"], false).await;
    answer(&app, survey, &tree, 3, "The queue was long", true).await;
    answer(&app, survey, &tree, 9, "All good", true).await;
    answer(&app, survey, &tree, 2, "Still answering", false).await;

    let relay = SmtpSink::start("", "");
    let sms = SmsSink::start("", "");
    let now = OffsetDateTime::now_utc();
    let round = deliver_on(&app, &relay.url, &sms.url, now);
    assert_eq!((round.claimed, round.sent), (3, 3), "{round:?}");
    let messages = relay.messages();
    let mut to: Vec<String> = messages.iter().map(|m| recipient(m)).collect();
    to.sort_unstable();
    assert_eq!(to, ["analyst@store.example", "manager@store.example", "owner@store.example"]);
    for message in &messages {
        assert_eq!(subject(message), "Alert \"Unhappy customer\": Store visits", "{message}");
        assert_eq!(sender(message), "alerts@survey.example", "{message}");
        let text = text_part(message);
        assert!(text.contains("Sendout: none (recorded through the API)"), "{text}");
        let answers = text.contains("What could we do better?\r\n  The queue was long");
        assert_eq!(answers, recipient(message) != "analyst@store.example", "answers only where included: {text}");
        assert!(!text.contains("All good") && !text.contains("Still answering"), "{text}");
    }
    let again = deliver_on(&app, &relay.url, &sms.url, now + Duration::hours(1));
    assert_eq!((again.claimed, relay.count()), (0, 3), "each email goes once");
}

#[tokio::test]
async fn an_alert_email_waits_out_relay_trouble_and_a_refused_recipient_bounces() {
    let app = spawn_app().await;
    let (survey, tree) = survey(&app).await;
    alert(&app, survey, &tree, &["manager@store.example", "gone@store.example"], true).await;
    answer(&app, survey, &tree, 1, "Rude staff", true).await;
    let sms = SmsSink::start("", "");
    let now = OffsetDateTime::now_utc();

    let refusing = SmtpSink::builder().refuse_mail("553 5.7.1 <alerts@survey.example>: Sender not owned").start();
    let held = deliver_on(&app, &refusing.url, &sms.url, now);
    assert_eq!((held.claimed, held.sent, held.retried, held.bounced), (2, 0, 2, 0), "{held:?}");
    let soon = deliver_on(&app, &refusing.url, &sms.url, now + Duration::seconds(1));
    assert_eq!(soon.claimed, 0, "a held email waits before it is tried again");

    let relay = SmtpSink::builder().refuse_rcpt("gone", "550 5.1.1 <gone@store.example>: User unknown").start();
    let later = deliver_on(&app, &relay.url, &sms.url, now + Duration::minutes(10));
    assert_eq!((later.claimed, later.sent, later.bounced), (2, 1, 1), "{later:?}");
    assert_eq!(recipient(&relay.messages()[0]), "manager@store.example");
    let after = deliver_on(&app, &relay.url, &sms.url, now + Duration::hours(2));
    assert_eq!(after.claimed, 0, "a bounced alert email is not tried again");
}

#[tokio::test]
async fn a_deleted_alert_sends_none_of_its_unsent_emails() {
    let app = spawn_app().await;
    let (survey, tree) = survey(&app).await;
    let made = alert(&app, survey, &tree, &["manager@store.example"], false).await;
    answer(&app, survey, &tree, 0, "Closed early", true).await;
    let path = format!("/surveys/{survey}/alerts/{}", made["alertId"]);
    assert_eq!(app.call("DELETE", &path, None).await.status, 204);
    let relay = SmtpSink::start("", "");
    let round = deliver_on(&app, &relay.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!((round.claimed, relay.count()), (0, 0));
}
