//! TWOWAY sendouts send only from numbers provisioned to their own account, and a reply reaches only conversations
//! of the account that owns the number it was sent to.
//! A system test: the questions are sent by rounds run here at a chosen `now` (`tests/helpers/worker.rs`).

use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{deliver_on, inbound, spawn_app, TestApp};
use canvass_sinks::{SmsSink, SmtpSink};

const SECRET: &str = "inbound-secret";
/// The respondent both accounts write to.
const RESPONDENT: &str = "+4791234567";

/// In the account behind `key`: a two-question survey and a TWOWAY sendout from `sender` to [`RESPONDENT`], sent
/// at `send_date`; returns the survey and the sendout's base path.
async fn chat_at(app: &TestApp, key: &str, sender: &str, send_date: &str) -> (i64, String) {
    let questions = json!([{"type": "OpenText", "text": "Anything else?"}, {"type": "OpenText", "text": "And?"}]);
    let survey = json!({"name": "Chat", "pages": [{"items": questions}]});
    let sendout = json!({"name": "Chat", "type": "TWOWAY", "sendDate": send_date, "sender": sender,
        "message": "Hi {{surveyLink}}"});
    let person = json!({"contactDetails": RESPONDENT, "sendMail": true});
    let (survey, base, _, _) = app.one_respondent_sendout(key, survey, sendout, person).await;
    (survey, base)
}

/// [`chat_at`] sent at once.
async fn chat(app: &TestApp, key: &str, sender: &str) -> (i64, String) {
    chat_at(app, key, sender, "2020-01-01").await
}

/// The answers recorded in a survey of the account behind `key`.
async fn answers(app: &TestApp, key: &str, survey: i64) -> Vec<Value> {
    let page = app.call_as(key, "GET", &format!("/surveys/{survey}/answersWithData"), None).await.expect(200);
    page["answerSets"].as_array().unwrap().iter().map(|set| set["answers"][0]["value"].clone()).collect()
}

fn reply(to: Option<&str>, text: &str) -> Value {
    json!({"from": RESPONDENT, "to": to, "text": text})
}

#[tokio::test]
async fn another_account_cannot_send_from_a_number_it_does_not_own_nor_take_its_replies() {
    let app = spawn_app().await;
    let (_, mallory) = app.new_account("Mallory", "owner@mallory.example");
    let (smtp, sms) = (SmtpSink::start("", ""), SmsSink::start("", ""));
    let acme_number = "+4790000001";
    app.provision_sender(app.account_id, acme_number);
    let (acme_survey, acme_base) = chat(&app, &app.key, acme_number).await;
    app.post(&format!("{acme_base}/activate"), json!({})).await.expect(200);
    assert_eq!(deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc() - Duration::minutes(5)).sent, 1);

    // Mallory writes to Acme's respondent from Acme's number.
    let (mallory_survey, mallory_base) = chat(&app, &mallory, acme_number).await;
    let activate = app.call_as(&mallory, "POST", &format!("{mallory_base}/activate"), Some(json!({}))).await;
    let problem = activate.problem(409, "/sender-not-provisioned");
    assert!(problem["detail"].as_str().unwrap().contains(acme_number), "{problem}");
    let sendout = app.call_as(&mallory, "GET", &mallory_base, None).await.expect(200);
    assert_eq!((sendout["status"].as_str(), sendout["pendingCount"].as_i64()), (Some("Draft"), Some(1)));
    let respondents = app.call_as(&mallory, "GET", &format!("{mallory_base}/respondents"), None).await.expect(200);
    assert_eq!(respondents[0]["status"], "Pending", "nothing is released");
    assert_eq!(deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc()).claimed, 0, "nothing is sent");

    let (status, outcome) = inbound(&app, SECRET, reply(Some(acme_number), "for Acme only")).await;
    assert_eq!((status, outcome["outcome"].as_str()), (200, Some("recorded")));
    assert_eq!(answers(&app, &app.key, acme_survey).await, [json!("for Acme only")]);
    assert!(answers(&app, &mallory, mallory_survey).await.is_empty());
}

#[tokio::test]
async fn a_reply_reaches_only_the_account_that_owns_the_number_it_was_sent_to() {
    let app = spawn_app().await;
    let (other_id, other) = app.new_account("Other", "owner@other.example");
    let (smtp, sms) = (SmtpSink::start("", ""), SmsSink::start("", ""));
    let (recycled, own) = ("+4790000001", "+4790000002");
    let now = OffsetDateTime::now_utc();
    let rfc3339 = |t: OffsetDateTime| t.format(&time::format_description::well_known::Rfc3339).unwrap();

    // The number was the other account's when it activated a conversation, due in a minute; then the number
    // went to Acme, which activated one of its own, due at once.
    app.provision_sender(other_id, recycled);
    let (stale_survey, stale_base) = chat_at(&app, &other, recycled, &rfc3339(now + Duration::minutes(1))).await;
    app.call_as(&other, "POST", &format!("{stale_base}/activate"), Some(json!({}))).await.expect(200);
    app.remove_sender(other_id, recycled);
    app.provision_sender(app.account_id, recycled);
    let (acme_survey, acme_base) = chat(&app, &app.key, recycled).await;
    app.post(&format!("{acme_base}/activate"), json!({})).await.expect(200);
    assert_eq!(deliver_on(&app, &smtp.url, &sms.url, now).sent, 1, "Acme's question");
    // The other account also talks to the respondent from a number of its own. Its two messages are the last.
    app.provision_sender(other_id, own);
    let (own_survey, own_base) = chat(&app, &other, own).await;
    app.call_as(&other, "POST", &format!("{own_base}/activate"), Some(json!({}))).await.expect(200);
    assert_eq!(deliver_on(&app, &smtp.url, &sms.url, now + Duration::minutes(2)).sent, 2);

    let (_, outcome) = inbound(&app, SECRET, reply(Some(recycled), "to Acme")).await;
    assert_eq!(outcome["outcome"], "recorded");
    assert_eq!(answers(&app, &app.key, acme_survey).await, [json!("to Acme")]);
    assert!(answers(&app, &other, stale_survey).await.is_empty(), "the number's former owner gets nothing");
    let (_, outcome) = inbound(&app, SECRET, reply(None, "to whom?")).await;
    assert_eq!(outcome["outcome"], "ignored", "a reply that does not name its number reaches no one");
    let (_, outcome) = inbound(&app, SECRET, reply(Some(own), "to Other")).await;
    assert_eq!(outcome["outcome"], "recorded");
    assert_eq!(answers(&app, &other, own_survey).await, [json!("to Other")]);

    // A number taken from its account receives no more replies, though its conversation is still open.
    app.remove_sender(other_id, own);
    let (_, outcome) = inbound(&app, SECRET, reply(Some(own), "anyone?")).await;
    assert_eq!(outcome["outcome"], "ignored");
    let (_, outcome) = inbound(&app, SECRET, reply(Some("+4700000000"), "to nobody")).await;
    assert_eq!(outcome["outcome"], "ignored");
}
