//! Relay trouble seen as an operator lives it (the contract's "Sending at the relay's pace"): a relay down for a
//! quarter of an hour loses nothing and the sendout says why meanwhile, a throttling relay slows the shared pace,
//! the day's limit holds the rest, and every SMS refusal lands on whom it blames.
//! A system test: rounds run here with the retry policy and pace they need, at simulated times
//! (`tests/helpers/worker.rs`).

use canvass_domain::delivery::{LinkBase, PaceLimits, RetryPolicy, Transports};
use canvass_domain::use_cases::delivery::{DeliveryReport, Round, LEASE};
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{activated, spawn_app, TestApp, PUBLIC};

/// A round of `round`'s shape through the relay at `smtp_url`.
fn deliver(app: &TestApp, smtp_url: &str, now: OffsetDateTime, round: &Round) -> DeliveryReport {
    let mailer = SmtpMailer::from_url(smtp_url).unwrap();
    let sms = HttpSmsSender::new("http://127.0.0.1:9/");
    app.deliver_shaped(Transports { email: &mailer, sms: &sms }, now, round)
}

/// Rounds with a short lifetime and backoff: a transient failure would fail a message within 90 s.
fn short_lived() -> Round {
    let mut round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
    round.retry = RetryPolicy { max_age: Duration::seconds(90), max_backoff: Duration::seconds(30) };
    round
}

async fn sendout(app: &TestApp, base: &str) -> Value {
    app.get(base).await.expect(200)
}

/// A port nothing listens on: a relay that is down.
fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port())
}

#[tokio::test]
async fn a_relay_down_for_a_quarter_of_an_hour_loses_nothing_and_the_sendout_says_why() {
    let app = spawn_app().await;
    let hook = app
        .post("/webhooks", json!({"url": "https://hooks.example.com/canvass", "events": ["sendout.deliveryHeld"]}))
        .await
        .expect(201);
    let (_, base, _) = activated(&app, &["ann@example.com", "bob@example.com", "cy@example.com"], None).await;
    let round = short_lived();
    let down = closed_port();
    let start = OffsetDateTime::now_utc();

    let first = deliver(&app, &down, start, &round);
    assert_eq!((first.claimed, first.sent, first.failed), (3, 0, 0));
    assert_eq!(first.relay_up, Some(false));
    let held = sendout(&app, &base).await;
    assert_eq!(held["delivery"], json!({"queued": 3, "sent": 0, "bounced": 0, "failed": 0, "expired": 0, "held": 3}));
    assert_eq!(held["deliveryIssue"]["kind"], "relay", "{held}");
    assert!(held["deliveryIssue"]["reply"].as_str().is_some_and(|reply| reply.contains("cannot connect")), "{held}");
    let since = held["deliveryIssue"]["since"].clone();
    let viewer = app.key_with_role("viewer@acme.example", "viewer").await;
    let viewer_sees = app.call_as(&viewer, "GET", &base, None).await.expect(200)["deliveryIssue"].clone();
    assert_eq!(
        (&viewer_sees["kind"], &viewer_sees["reply"], &viewer_sees["since"]),
        (&json!("relay"), &Value::Null, &since)
    );
    let respondent = app.get(&format!("{base}/respondents")).await.expect(200)[0].clone();
    assert_eq!(respondent["deliveryAttempts"], 0, "a hold is no attempt: {respondent}");
    assert!(respondent["nextAttemptAt"].is_string() && respondent["lastDeliveryError"].is_string(), "{respondent}");

    // Fifteen minutes of rounds every half minute: ten times the messages' lifetime, and nothing fails.
    let mut now = start;
    for _ in 0..30 {
        now += Duration::seconds(30);
        let report = deliver(&app, &down, now, &round);
        assert_eq!((report.sent, report.failed, report.bounced), (0, 0, 0));
    }
    let still = sendout(&app, &base).await;
    assert_eq!((still["delivery"]["held"].clone(), still["deliveryIssue"]["since"].clone()), (json!(3), since));
    assert_eq!(app.statuses(&base).await, ["Scheduled"; 3]);

    let relay = SmtpSink::start("", "");
    let back = deliver(&app, &relay.url, now + Duration::minutes(5), &round);
    assert_eq!((back.sent, back.relay_up), (3, Some(true)));
    assert_eq!(app.statuses(&base).await, ["Sent"; 3]);
    let sent = sendout(&app, &base).await;
    assert_eq!(sent["delivery"], json!({"queued": 0, "sent": 3, "bounced": 0, "failed": 0, "expired": 0, "held": 0}));
    assert_eq!(sent["deliveryIssue"], Value::Null, "a hand-over ends the hold");
    let respondent = app.get(&format!("{base}/respondents")).await.expect(200)[0].clone();
    assert_eq!((respondent["deliveryAttempts"].clone(), respondent["nextAttemptAt"].clone()), (json!(1), Value::Null));

    let deliveries = app.get(&format!("/webhooks/{}/deliveries", hook["webhookId"])).await.expect(200);
    let held_events: Vec<&Value> =
        deliveries.as_array().unwrap().iter().filter(|d| d["event"] == "sendout.deliveryHeld").collect();
    assert_eq!(held_events.len(), 1, "one event for the whole hold: {deliveries}");
}

#[tokio::test]
async fn a_relay_that_throttles_holds_the_message_and_halves_the_shared_pace() {
    let app = spawn_app().await;
    let throttling = "454 4.7.0 Throttling failure: Maximum sending rate exceeded.";
    let relay = SmtpSink::builder().refuse_rcpt("slow@", throttling).start();
    let (_, base, _) = activated(&app, &["slow@example.com"], None).await;
    let mut round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
    round.pace = PaceLimits { rate: Some(14.0), burst: 8, daily: None };
    let now = OffsetDateTime::now_utc();

    let report = deliver(&app, &relay.url, now, &round);
    assert_eq!((report.sent, report.failed, report.retried), (0, 0, 1));
    assert_eq!(report.pace_per_second, Some(14.0), "the round was claimed at the configured pace");
    let held = sendout(&app, &base).await;
    assert_eq!(
        (held["deliveryIssue"]["kind"].clone(), held["delivery"]["held"].clone()),
        (json!("throttled"), json!(1))
    );
    assert_eq!(held["deliveryIssue"]["reply"].as_str().map(|reply| reply.contains("454")), Some(true), "{held}");

    let next = deliver(&app, &SmtpSink::start("", "").url, now + Duration::seconds(5), &round);
    assert_eq!(next.sent, 1);
    assert_eq!(next.pace_per_second, Some(7.0), "the relay's 454 halved the pace all workers keep");
    assert_eq!(app.statuses(&base).await, ["Sent"]);
}

#[tokio::test]
async fn a_relay_that_answers_421_and_closes_holds_that_message_as_throttled() {
    let app = spawn_app().await;
    // The 421 comes in a pipelined group (alone, or with the previous message's content) and the relay closes the
    // session before the group's other replies: the 421 is still its answer.
    let relay = SmtpSink::builder().refuse_rcpt("busy@", "421 4.7.0 Too busy, closing").start();
    let (_, base, _) = activated(&app, &["busy@example.com", "ok@example.com"], None).await;
    let round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
    let report = deliver(&app, &relay.url, OffsetDateTime::now_utc(), &round);
    assert_eq!((report.sent, report.failed, report.retried), (1, 0, 1), "{report:?}");
    let held = sendout(&app, &base).await;
    assert_eq!(held["deliveryIssue"]["kind"], "throttled", "{held}");
    assert_eq!(held["deliveryIssue"]["reply"].as_str().map(|reply| reply.contains("421")), Some(true), "{held}");
}

#[tokio::test]
async fn the_daily_limit_holds_the_rest_until_the_next_utc_day() {
    let app = spawn_app().await;
    let relay = SmtpSink::start("", "");
    let (_, base, _) = activated(&app, &["a@example.com", "b@example.com", "c@example.com"], None).await;
    let mut round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
    round.pace = PaceLimits { rate: None, burst: 8, daily: Some(2) };

    let report = deliver(&app, &relay.url, OffsetDateTime::now_utc(), &round);
    assert_eq!((report.claimed, report.sent), (2, 2));
    assert_eq!(deliver(&app, &relay.url, OffsetDateTime::now_utc(), &round).claimed, 0, "the day is full");
    assert_eq!(relay.count(), 2);
    let waiting = sendout(&app, &base).await;
    assert_eq!(waiting["deliveryIssue"]["kind"], "dailyLimit", "{waiting}");
    assert_eq!(waiting["delivery"]["queued"], 1);
    let statuses = app.statuses(&base).await;
    assert_eq!(statuses.iter().filter(|status| *status == "Scheduled").count(), 1);

    let tomorrow = (OffsetDateTime::now_utc() + Duration::days(1)).replace_time(time::macros::time!(00:00:01));
    assert_eq!(deliver(&app, &relay.url, tomorrow, &round).sent, 1, "a new day, a new count");
}

#[tokio::test]
async fn every_sms_refusal_lands_on_whom_it_blames() {
    // (the endpoint's answer, the respondent's status, permanent failures recorded, attempts counted)
    let rows = [
        ("400 Bad Request", "Bounced", 1, 1),
        ("422 Unprocessable Entity", "Bounced", 1, 1),
        ("401 Unauthorized", "Scheduled", 0, 0),
        ("403 Forbidden", "Scheduled", 0, 0),
        ("404 Not Found", "Scheduled", 0, 0),
        ("407 Proxy Authentication Required", "Scheduled", 0, 0),
        ("429 Too Many Requests", "Scheduled", 0, 0),
        ("503 Service Unavailable", "Scheduled", 0, 0),
        ("500 Internal Server Error", "Scheduled", 0, 1),
        ("413 Payload Too Large", "Failed", 0, 1),
    ];
    for (answer, status, bounces, attempts) in rows {
        let app = spawn_app().await;
        let sms = SmsSink::answering(answer);
        let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].clone();
        let body = json!({"name": "Text", "type": "SMS", "sendDate": "2020-01-01", "sender": "Acme",
            "message": "Answer: {{surveyLink}}"});
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].clone();
        let base = format!("/surveys/{survey}/sendouts/{sendout}");
        let people = json!({"surveyRespondents": [{"contactDetails": "+4791234567", "sendMail": true}]});
        app.post(&format!("{base}/respondents/batch"), people).await.expect(200);
        app.post(&format!("{base}/activate"), json!({})).await.expect(200);
        let mailer = SmtpMailer::from_url(&SmtpSink::start("", "").url).unwrap();
        let sender = HttpSmsSender::new(&sms.url);
        let round = Round::new(100, LEASE, LinkBase::new(PUBLIC));
        app.deliver_shaped(Transports { email: &mailer, sms: &sender }, OffsetDateTime::now_utc(), &round);
        let respondent = app.get(&format!("{base}/respondents")).await.expect(200)[0].clone();
        assert_eq!(respondent["status"], status, "{answer}");
        assert_eq!(respondent["deliveryAttempts"], attempts, "{answer}");
        let failures = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
        assert_eq!(failures["totalCount"], bounces, "{answer}");
    }
}
