//! Webhook deliveries as the webhook worker makes them, one round at a time at the `now` a test chooses (the
//! worker's use case on the test database, through the real HTTP sender): events of real changes arrive signed,
//! failed attempts are retried with the same `webhook-id`, private addresses need the setting, another account
//! receives nothing, a round is shared over the accounts, a webhook and its deliveries say what went wrong (the last
//! error, the last attempt's time, the consecutive failures). The HTTP side of webhooks, and the server's own worker
//! delivering a test event, are in `api/accounts/webhooks.rs`.

use canvass_domain::use_cases::webhooks::{self, WebhookReport, LEASE};
use canvass_domain::webhook::MAX_ATTEMPTS;
use canvass_postgres::PgStore;
use canvass_server::jobs::webhooks::HttpWebhookSender;
use canvass_sinks::{SmsSink, SmtpSink, WebhookSink};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::api::accounts::webhooks::{app_allowing_private, create, verified};
use crate::helpers::{activated, deliver_on, inbound, TestApp};

/// Runs one webhook round at `now` as the worker does, through the real HTTP sender.
pub(super) async fn deliver(app: &TestApp, now: OffsetDateTime, allow_private: bool) -> WebhookReport {
    let url = app.db.url().to_owned();
    tokio::task::spawn_blocking(move || {
        let store = PgStore::connect_one(&url).unwrap();
        let sender = HttpWebhookSender::new(allow_private).unwrap();
        webhooks::deliver_due(&store, &sender, now, 100, LEASE).unwrap()
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn events_of_real_changes_arrive_signed_with_ids_only() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook =
        create(&app, &app.key, &sink.url, &["sendout.activated", "respondent.sent", "answerSet.completed"]).await;
    let secret = hook["secret"].as_str().unwrap().to_owned();

    let (survey, base, added) = activated(&app, &["ok@example.com"], None).await;
    let sendout = base.rsplit('/').next().unwrap().parse::<i64>().unwrap();
    let respondent = added[0]["respondentId"].as_i64().unwrap();
    let smtp = SmtpSink::start("", "");
    let now = OffsetDateTime::now_utc();
    assert_eq!(deliver_on(&app, &smtp.url, &SmsSink::start("", "").url, now).sent, 1);
    let answers = format!("/surveys/{survey}/answers");
    app.post(&answers, json!({"completed": false, "answers": []})).await.expect(201);
    let set =
        app.post(&answers, json!({"respondentId": respondent, "completed": true, "answers": []})).await.expect(201);

    let now = OffsetDateTime::now_utc();
    let report = deliver(&app, now, true).await;
    assert_eq!((report.claimed, report.delivered), (3, 3));
    let bodies: Vec<Value> = sink.received().iter().map(|request| verified(request, &secret)).collect();
    let of = |kind: &str| bodies.iter().find(|body| body["type"] == kind).cloned().unwrap_or_default();
    assert_eq!(of("sendout.activated")["data"], json!({"surveyId": survey, "sendoutId": sendout}));
    assert_eq!(
        of("respondent.sent")["data"],
        json!({"surveyId": survey, "sendoutId": sendout, "respondentId": respondent})
    );
    assert_eq!(
        of("answerSet.completed")["data"],
        json!({"surveyId": survey, "sendoutId": sendout, "respondentId": respondent, "answerSetId": set["answerSetId"]})
    );
    for body in &bodies {
        let timestamp = body["timestamp"].as_str().unwrap();
        assert!(OffsetDateTime::parse(timestamp, &time::format_description::well_known::Rfc3339).is_ok());
    }
    assert!(sink.received().iter().all(|request| !request.body.contains("ok@example.com")), "no contact details");

    let id = hook["webhookId"].as_i64().unwrap();
    let listed = app.get(&format!("/webhooks/{id}/deliveries")).await.expect(200);
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 3, "{listed:?}");
    for delivery in listed {
        assert_eq!(
            (&delivery["status"], &delivery["attempts"], &delivery["lastStatusCode"]),
            (&json!("Delivered"), &json!(1), &json!(200))
        );
        assert!(delivery["nextAttemptAt"].is_null());
    }
    let ids: Vec<i64> = listed.iter().map(|d| d["deliveryId"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|pair| pair[0] > pair[1]), "newest first: {ids:?}");
    assert_eq!(deliver(&app, now + Duration::days(1), true).await.claimed, 0, "delivered once");
}

#[tokio::test]
async fn opt_outs_and_bounces_are_events_too() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["respondent.optedOut", "respondent.bounced"]).await;
    let secret = hook["secret"].as_str().unwrap().to_owned();
    let (_, _, added) = activated(&app, &["stay@example.com", "bounce@example.com"], None).await;
    let now = OffsetDateTime::now_utc();
    deliver_on(&app, &SmtpSink::start("bounce@", "").url, &SmsSink::start("", "").url, now);
    let link = added[0]["surveyLink"].as_str().unwrap();
    let token = link.rsplit('/').next().unwrap();
    let opt_out = format!("{}/r/{token}/opt-out", app.address);
    let answered = app.client.post(&opt_out).form(&[("List-Unsubscribe", "One-Click")]).send().await.unwrap();
    assert_eq!(answered.status().as_u16(), 200);

    assert_eq!(deliver(&app, OffsetDateTime::now_utc(), true).await.delivered, 2);
    let bodies: Vec<Value> = sink.received().iter().map(|request| verified(request, &secret)).collect();
    let mut seen: Vec<(String, Value)> =
        bodies.iter().map(|b| (b["type"].as_str().unwrap().to_owned(), b["data"]["respondentId"].clone())).collect();
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        seen,
        [
            ("respondent.bounced".to_owned(), added[1]["respondentId"].clone()),
            ("respondent.optedOut".to_owned(), added[0]["respondentId"].clone()),
        ]
    );
}

#[tokio::test]
async fn a_failed_attempt_is_retried_with_the_same_webhook_id_until_a_2xx_or_the_last_try() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["respondent.bounced"]).await;
    let (id, secret) = (hook["webhookId"].as_i64().unwrap(), hook["secret"].as_str().unwrap().to_owned());
    let path = format!("/webhooks/{id}");
    app.post(&format!("{path}/test"), json!({})).await.expect(202);
    sink.answer_next(&[500]);
    let now = OffsetDateTime::now_utc();

    assert_eq!(deliver(&app, now, true).await.retried, 1);
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!((&listed[0]["event"], &listed[0]["status"]), (&json!("webhook.test"), &json!("Pending")));
    assert_eq!((&listed[0]["attempts"], &listed[0]["lastStatusCode"]), (&json!(1), &json!(500)));
    let next = OffsetDateTime::parse(
        listed[0]["nextAttemptAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    );
    assert!(next.unwrap() > now, "{listed}");
    assert_eq!(deliver(&app, now, true).await.claimed, 0, "a retry waits for its backoff");

    assert_eq!(deliver(&app, now + Duration::hours(1), true).await.delivered, 1);
    let received = sink.received();
    assert_eq!(received.len(), 2);
    assert_eq!(received[0].header("webhook-id"), received[1].header("webhook-id"), "stable across retries");
    assert_eq!(verified(&received[1], &secret)["type"], "webhook.test");
    assert_eq!(verified(&received[0], &secret)["data"], json!({}));
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(
        (&listed[0]["status"], &listed[0]["attempts"], &listed[0]["lastStatusCode"]),
        (&json!("Delivered"), &json!(2), &json!(200))
    );

    // One that never gets a 2xx is given up after the last try.
    app.post(&format!("{path}/test"), json!({})).await.expect(202);
    sink.answer_next(&vec![503; MAX_ATTEMPTS as usize]);
    let mut at = now + Duration::hours(1);
    for _ in 0..MAX_ATTEMPTS {
        assert_eq!(deliver(&app, at, true).await.claimed, 1);
        at += Duration::hours(2);
    }
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(
        (&listed[0]["status"], &listed[0]["attempts"], &listed[0]["lastStatusCode"]),
        (&json!("Failed"), &json!(MAX_ATTEMPTS), &json!(503))
    );
    assert!(listed[0]["nextAttemptAt"].is_null());
    assert_eq!(deliver(&app, at + Duration::days(1), true).await.claimed, 0);
}

#[tokio::test]
async fn a_private_address_is_not_reached_at_delivery_without_the_setting() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["sendout.activated"]).await;
    let id = hook["webhookId"].as_i64().unwrap();
    app.post(&format!("/webhooks/{id}/test"), json!({})).await.expect(202);
    let report = deliver(&app, OffsetDateTime::now_utc(), false).await;
    assert_eq!((report.claimed, report.retried), (1, 1));
    assert!(sink.received().is_empty(), "nothing reached the private address");
    let listed = app.get(&format!("/webhooks/{id}/deliveries")).await.expect(200);
    assert_eq!((&listed[0]["status"], &listed[0]["lastStatusCode"]), (&json!("Pending"), &Value::Null));
}

#[tokio::test]
async fn another_account_neither_sees_nor_receives_a_webhook() {
    let app = app_allowing_private().await;
    let (sink, theirs) = (WebhookSink::start(), WebhookSink::start());
    let hook = create(&app, &app.key, &sink.url, &["sendout.activated"]).await;
    let id = hook["webhookId"].as_i64().unwrap();
    let (_, other) = app.new_account("Other", "owner@other.example");
    create(&app, &other, &theirs.url, &["sendout.activated"]).await;
    let path = format!("/webhooks/{id}");
    for (method, path) in [
        ("GET", path.clone()),
        ("DELETE", path.clone()),
        ("POST", format!("{path}/test")),
        ("GET", format!("{path}/deliveries")),
    ] {
        let body = (method == "POST").then(|| json!({}));
        app.call_as(&other, method, &path, body).await.problem(404, "not-found");
    }
    let listed = app.call_as(&other, "GET", "/webhooks", None).await.expect(200);
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert_ne!(listed[0]["webhookId"], json!(id));
    app.get(&path).await.expect(200);

    activated(&app, &["ok@example.com"], None).await;
    assert_eq!(deliver(&app, OffsetDateTime::now_utc(), true).await.delivered, 1);
    assert_eq!(sink.received().len(), 1);
    assert!(theirs.received().is_empty(), "another account's change is not theirs to hear of");

    app.delete(&path).await.expect(204);
    app.get(&path).await.problem(404, "not-found");
    app.get(&format!("{path}/deliveries")).await.problem(404, "not-found");
    app.delete(&path).await.problem(404, "not-found");
}

#[tokio::test]
async fn the_last_reply_of_a_twoway_conversation_completes_the_answer_set() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["answerSet.completed"]).await;
    let body = json!({"name": "Chat", "pages": [{"items": [{"type": "SingleChoice", "text": "Happy?", "required": true,
        "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let ours = "+4790000100";
    app.provision_sender(app.account_id, ours);
    let chat = json!({"name": "Chat", "type": "TWOWAY", "sendDate": "2020-01-01", "sender": ours, "message": "Hi! {{surveyLink}}"});
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), chat).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let person = json!({"contactDetails": "+4791234567", "sendMail": true});
    let respondent =
        app.post(&format!("{base}/respondents"), person).await.expect(201)["respondentId"].as_i64().unwrap();
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let (smtp, sms) = (SmtpSink::start("", ""), SmsSink::start("", ""));
    assert_eq!(deliver_on(&app, &smtp.url, &sms.url, OffsetDateTime::now_utc()).sent, 1);
    let reply = json!({"from": "+4791234567", "to": ours, "text": "1"});
    assert_eq!(inbound(&app, "inbound-secret", reply).await.1["outcome"], "recorded");

    assert_eq!(deliver(&app, OffsetDateTime::now_utc(), true).await.delivered, 1);
    let event = verified(&sink.received()[0], hook["secret"].as_str().unwrap());
    assert_eq!(event["type"], "answerSet.completed");
    assert_eq!((&event["data"]["respondentId"], &event["data"]["sendoutId"]), (&json!(respondent), &json!(sendout)));
    assert!(event["data"]["answerSetId"].is_i64());
}

#[tokio::test]
async fn a_round_is_shared_over_the_accounts_with_due_deliveries() {
    let app = app_allowing_private().await;
    let (mine, theirs) = (WebhookSink::start(), WebhookSink::start());
    let my_hook = create(&app, &app.key, &mine.url, &["sendout.activated"]).await;
    let (_, other) = app.new_account("Other", "owner@other.example");
    let their_hook = create(&app, &other, &theirs.url, &["sendout.activated"]).await;
    let my_test = format!("/webhooks/{}/test", my_hook["webhookId"]);
    let their_test = format!("/webhooks/{}/test", their_hook["webhookId"]);
    for _ in 0..6 {
        app.call_as(&app.key, "POST", &my_test, Some(json!({}))).await.expect(202);
    }
    for _ in 0..2 {
        app.call_as(&other, "POST", &their_test, Some(json!({}))).await.expect(202);
    }

    let url = app.db.url().to_owned();
    let round = move |limit: i64| {
        let url = url.clone();
        tokio::task::spawn_blocking(move || {
            let store = PgStore::connect_one(&url).unwrap();
            let sender = HttpWebhookSender::new(true).unwrap();
            webhooks::deliver_due(&store, &sender, OffsetDateTime::now_utc(), limit, LEASE).unwrap()
        })
    };
    let first = round(4).await.unwrap();
    assert_eq!((first.claimed, first.delivered), (4, 4));
    assert_eq!(
        (mine.received().len(), theirs.received().len()),
        (2, 2),
        "the account with the older backlog does not take the whole round"
    );
    let second = round(100).await.unwrap();
    assert_eq!(second.delivered, 4);
    assert_eq!((mine.received().len(), theirs.received().len()), (6, 2));
}

#[tokio::test]
async fn a_replacement_completes_a_set_once_and_a_repeat_sends_nothing() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["answerSet.completed"]).await;
    let survey = app.post("/surveys", json!({"name": "Open"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let answers = format!("/surveys/{survey}/answers");
    let set = app.post(&answers, json!({"completed": false, "answers": []})).await.expect(201)["answerSetId"].clone();
    let one = format!("{answers}/{set}");
    for completed in [false, true, true] {
        app.put(&one, json!({"completed": completed, "answers": []})).await.expect(200);
    }

    assert_eq!(deliver(&app, OffsetDateTime::now_utc(), true).await.delivered, 1, "one event for one completion");
    let event = verified(&sink.received()[0], hook["secret"].as_str().unwrap());
    assert_eq!((&event["type"], &event["data"]["answerSetId"]), (&json!("answerSet.completed"), &set));
}

/// The instant an RFC 3339 field names.
fn instant(field: &Value) -> OffsetDateTime {
    let text = field.as_str().unwrap_or_else(|| panic!("a timestamp, not {field}"));
    OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).unwrap()
}

#[tokio::test]
async fn a_webhook_and_its_deliveries_say_what_went_wrong_until_a_success() {
    let app = app_allowing_private().await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["respondent.sent"]).await;
    assert_eq!((&hook["lastDeliveryAt"], &hook["consecutiveFailures"]), (&Value::Null, &json!(0)), "{hook}");
    let path = format!("/webhooks/{}", hook["webhookId"]);
    app.post(&format!("{path}/test"), json!({})).await.expect(202);
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(listed[0]["lastError"], Value::Null, "no attempt, no error: {listed}");

    // The database keeps microseconds: a `now` of whole seconds (after the test event's) comes back as it was.
    let now = (OffsetDateTime::now_utc() + Duration::seconds(1)).replace_nanosecond(0).unwrap();
    sink.answer_next(&[503, 500]);
    assert_eq!(deliver(&app, now, true).await.retried, 1);
    let webhook = app.get(&path).await.expect(200);
    assert_eq!((instant(&webhook["lastDeliveryAt"]), &webhook["consecutiveFailures"]), (now, &json!(1)), "{webhook}");
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(
        (&listed[0]["lastStatusCode"], &listed[0]["lastError"]),
        (&json!(503), &json!("the receiver answered 503"))
    );

    let later = now + Duration::hours(1);
    assert_eq!(deliver(&app, later, true).await.retried, 1);
    let webhook = app.get(&path).await.expect(200);
    assert_eq!((instant(&webhook["lastDeliveryAt"]), &webhook["consecutiveFailures"]), (later, &json!(2)));
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(listed[0]["lastError"], "the receiver answered 500");

    let last = now + Duration::hours(2);
    assert_eq!(deliver(&app, last, true).await.delivered, 1);
    let webhook = app.get(&path).await.expect(200);
    assert_eq!((instant(&webhook["lastDeliveryAt"]), &webhook["consecutiveFailures"]), (last, &json!(0)), "reset");
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    assert_eq!(
        (&listed[0]["status"], &listed[0]["lastStatusCode"], &listed[0]["lastError"]),
        (&json!("Delivered"), &json!(200), &json!("the receiver answered 500")),
        "the last failure's reason stays after the success"
    );
    let all = app.get("/webhooks").await.expect(200);
    assert_eq!((&all[0]["consecutiveFailures"], &all[0]["lastDeliveryAt"]), (&json!(0), &webhook["lastDeliveryAt"]));
}

#[tokio::test]
async fn a_receiver_that_cannot_be_reached_is_named_without_its_url() {
    let app = app_allowing_private().await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let url = format!("http://127.0.0.1:{port}/hook?token=receiver-token-123");
    let hook = create(&app, &app.key, &url, &["respondent.sent"]).await;
    let path = format!("/webhooks/{}", hook["webhookId"]);
    app.post(&format!("{path}/test"), json!({})).await.expect(202);

    assert_eq!(deliver(&app, OffsetDateTime::now_utc(), true).await.retried, 1);
    let listed = app.get(&format!("{path}/deliveries")).await.expect(200);
    let error = listed[0]["lastError"].as_str().unwrap_or_else(|| panic!("a reason: {listed}"));
    assert_eq!(listed[0]["lastStatusCode"], Value::Null);
    assert!(error.to_lowercase().contains("connect"), "says the connection failed: {error}");
    assert!(!error.contains("receiver-token-123") && !error.contains("/hook"), "never the URL: {error}");
    assert_eq!(app.get(&path).await.expect(200)["consecutiveFailures"], 1);
}
