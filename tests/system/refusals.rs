//! Whom a refusal blames, end to end (the contract's "Whom a refusal blames"): a relay that refuses the sender, or
//! an SMS endpoint that refuses the service's token, bounces no one, records no permanent failure and holds the
//! messages without counting attempts; a message refused at the end of `DATA` fails without blaming its address
//! unless the enhanced code names the recipient; one address refused for two sendouts in one round is recorded
//! twice, once per sendout.
//! A system test: rounds run here at a chosen `now` (`tests/helpers/worker.rs`).

use canvass_sinks::{SmsSink, SmtpSink};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{activated, deliver_on, spawn_app, TestApp};

async fn permanent_failures(app: &TestApp) -> Value {
    app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200)["totalCount"].clone()
}

#[tokio::test]
async fn a_relay_that_refuses_the_sender_bounces_no_one() {
    for refusal in ["553 5.7.1 sender not owned", "554 5.7.1 relay access denied"] {
        let app = spawn_app().await;
        let sink = SmtpSink::builder().refuse_mail(refusal).start();
        let (_, base, _) = activated(&app, &["ann@example.com", "bob@example.com", "cy@example.com"], None).await;
        let sms = SmsSink::start("", "");
        let report = deliver_on(&app, &sink.url, &sms.url, OffsetDateTime::now_utc());
        assert_eq!((report.sent, report.bounced, report.failed, report.retried), (0, 0, 0, 3), "{refusal}");
        assert_eq!(app.statuses(&base).await, ["Scheduled"; 3], "{refusal}");
        assert_eq!(permanent_failures(&app).await, 0, "{refusal}");
        assert_eq!(sink.count(), 0);
        // Held, not tried: however long the relay refuses, no attempt is counted and nothing fails.
        let mut now = OffsetDateTime::now_utc();
        for _ in 0..8 {
            now += Duration::hours(1);
            let report = deliver_on(&app, &sink.url, &sms.url, now);
            assert_eq!((report.claimed, report.retried, report.failed), (3, 3, 0), "{refusal}");
        }
        assert_eq!(app.statuses(&base).await, ["Scheduled"; 3], "{refusal}");
        let fixed = SmtpSink::start("", "");
        let report = deliver_on(&app, &fixed.url, &sms.url, now + Duration::hours(1));
        assert_eq!(report.sent, 3, "once the sender is fixed every message goes");
        assert_eq!(app.statuses(&base).await, ["Sent"; 3]);
    }
}

#[tokio::test]
async fn a_refused_sender_holds_its_sendouts_invitations_together_and_no_other_sendout() {
    let app = spawn_app().await;
    let refusing = SmtpSink::builder().refuse_mail("553 5.7.1 sender not owned").start();
    let (_, held, _) = activated(&app, &["ann@example.com", "bob@example.com", "cy@example.com"], None).await;
    let sms = SmsSink::start("", "");
    let now = OffsetDateTime::now_utc();
    let mailer = canvass_mail::SmtpMailer::from_url(&refusing.url).unwrap();
    let sender = canvass_sms::HttpSmsSender::new(&sms.url);
    let one = |at| {
        app.deliver_round(
            canvass_domain::delivery::Transports { email: &mailer, sms: &sender },
            at,
            "https://survey.example",
            1,
        )
    };
    assert_eq!(one(now).retried, 1, "one invitation tried and refused at MAIL FROM");
    assert_eq!(one(now + Duration::seconds(1)).claimed, 0, "the others wait with it, untried");
    let sendout = app.get(&held).await.expect(200);
    assert_eq!(sendout["delivery"]["held"], 3, "{sendout}");
    assert_eq!(sendout["deliveryIssue"]["kind"], "sender");
    let respondents = app.get(&format!("{held}/respondents")).await.expect(200);
    for respondent in respondents.as_array().unwrap() {
        assert_eq!(respondent["deliveryAttempts"], 0, "{respondent}");
        assert!(respondent["lastDeliveryError"].as_str().is_some_and(|reply| reply.contains("553")), "{respondent}");
    }
    assert_eq!(refusing.count(), 0);
}

#[tokio::test]
async fn a_message_refused_at_data_fails_alone_unless_the_code_names_the_recipient() {
    let app = spawn_app().await;
    let spam = SmtpSink::builder().refuse_data("spam@", "554 5.7.1 refused as spam").start();
    let (_, base, _) = activated(&app, &["ok@example.com", "spam@example.com", "late@example.com"], None).await;
    let report = deliver_on(&app, &spam.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.bounced, report.failed), (2, 0, 1));
    assert_eq!(app.statuses(&base).await, ["Sent", "Failed", "Sent"]);
    assert_eq!(permanent_failures(&app).await, 0, "the address stays usable");
    // One session; every message after its first went with the content of the one before, refused or not, and no
    // RSET came after the refusal (the reply to the content ended the transaction; an RSET would have landed in
    // the next message's content).
    let unchained = spam.received().iter().filter(|received| !received.came_with_previous).count();
    assert!(unchained <= 1, "only the session's first message goes alone: {:?}", spam.received());
    assert_eq!(spam.resets(), 0);
    assert_eq!(spam.connections(), 1);

    let unknown = SmtpSink::builder().refuse_data("gone@", "550 5.1.1 mailbox unavailable").start();
    let (_, base, _) = activated(&app, &["gone@example.com"], None).await;
    let report = deliver_on(&app, &unknown.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.bounced), (0, 1));
    assert_eq!(app.statuses(&base).await, ["Bounced"]);
    assert_eq!(permanent_failures(&app).await, 1, "5.1.1 after DATA blames the recipient");
}

#[tokio::test]
async fn an_sms_endpoint_that_refuses_the_token_bounces_no_one() {
    let app = spawn_app().await;
    let sms = SmsSink::answering("401 Unauthorized");
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Text", "type": "SMS", "sendDate": "2020-01-01", "sender": "Acme",
        "message": "Answer: {{surveyLink}}"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people: Vec<Value> =
        ["+4791234567", "+4791234568"].iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
    app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let report = deliver_on(&app, &SmtpSink::start("", "").url, &sms.url, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.bounced, report.retried), (0, 0, 2));
    assert_eq!(app.statuses(&base).await, ["Scheduled"; 2]);
    assert!(sms.bodies().is_empty());
}

#[tokio::test]
async fn a_relay_that_takes_data_after_refusing_the_recipient_bounces_only_that_recipient() {
    let app = spawn_app().await;
    // A pipelining client sends DATA with the refused RCPT; this relay answers 354 all the same, so the client ends
    // the empty message, resets, and goes on in the same session.
    let careless = SmtpSink::builder().refuse_5xx("gone@").take_data_without_recipients().start();
    let (_, base, _) = activated(&app, &["gone@example.com", "here@example.com"], None).await;
    let report = deliver_on(&app, &careless.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!((report.sent, report.bounced, report.failed), (1, 1, 0));
    let mut statuses = app.statuses(&base).await;
    statuses.sort();
    assert_eq!(statuses, ["Bounced", "Sent"]);
    let kept = careless.messages();
    assert_eq!(kept.iter().filter(|message| message.contains("here@example.com")).count(), 1, "{kept:?}");
    assert!(kept.iter().all(|message| !message.contains("gone@example.com")), "nothing reached the refused address");
}

#[tokio::test]
async fn one_address_refused_for_two_sendouts_in_one_round_records_two_permanent_failures() {
    let app = spawn_app().await;
    let relay = SmtpSink::builder().refuse_5xx("one@").start();
    let (_, first, first_added) = activated(&app, &["gone@example.com"], None).await;
    let (_, second, second_added) = activated(&app, &["Gone@Example.com"], None).await;
    let report = deliver_on(&app, &relay.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!((report.claimed, report.bounced), (2, 2), "both invitations in one round");
    assert_eq!(app.statuses(&first).await, ["Bounced"]);
    assert_eq!(app.statuses(&second).await, ["Bounced"]);

    let page = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(page["totalCount"], 2, "one failure per sendout, though they share the address and the time: {page}");
    let failures = page["failures"].as_array().unwrap();
    assert_eq!(failures[0]["failedAt"], failures[1]["failedAt"], "recorded at the round's time");
    let mut recorded: Vec<(String, String)> =
        failures.iter().map(|f| (f["sendoutId"].to_string(), f["respondentId"].to_string())).collect();
    recorded.sort();
    let sendout = |base: &str| base.rsplit('/').next().unwrap().to_owned();
    let mut expected = vec![
        (sendout(&first), first_added[0]["respondentId"].to_string()),
        (sendout(&second), second_added[0]["respondentId"].to_string()),
    ];
    expected.sort();
    assert_eq!(recorded, expected);
}
