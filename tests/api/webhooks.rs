//! Signed webhooks: events caused by real changes reach a local receiver signed as Standard Webhooks says (checked
//! here with hmac, sha2 and base64 directly), failed attempts are retried with the same `webhook-id`, another
//! account sees nothing, bad input is refused, and the secret is shown once.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use canvass_domain::use_cases::webhooks::{self, WebhookReport, LEASE};
use canvass_domain::webhook::MAX_ATTEMPTS;
use canvass_postgres::PgStore;
use canvass_server::webhooks::HttpWebhookSender;
use canvass_sinks::{SmsSink, SmtpSink, WebhookRequest, WebhookSink};
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use time::{Duration, OffsetDateTime};

use crate::delivery::{activated, deliver_on, inbound};
use crate::helpers::{spawn_app, spawn_app_with, TestApp};

const EVENTS: [&str; 6] = [
    "answerSet.completed",
    "respondent.sent",
    "respondent.bounced",
    "respondent.optedOut",
    "sendout.activated",
    "sendout.deliveryHeld",
];

/// A server whose webhooks may point at this machine, where the test receivers listen.
async fn app_allowing_private() -> TestApp {
    spawn_app_with(|settings| settings.webhook_allow_private = true).await
}

/// Runs one webhook round at `now` as the worker does, through the real HTTP sender.
async fn deliver(app: &TestApp, now: OffsetDateTime, allow_private: bool) -> WebhookReport {
    let url = app.db.url().to_owned();
    tokio::task::spawn_blocking(move || {
        let store = PgStore::connect_one(&url).unwrap();
        let sender = HttpWebhookSender::new(allow_private).unwrap();
        webhooks::deliver_due(&store, &sender, now, 100, LEASE).unwrap()
    })
    .await
    .unwrap()
}

async fn create(app: &TestApp, key: &str, url: &str, events: &[&str]) -> Value {
    let body = json!({"url": url, "events": events, "description": "CRM sync"});
    app.call_as(key, "POST", "/webhooks", Some(body)).await.expect(201)
}

/// Checks the request's signature with the Standard Webhooks algorithm, written out here, and returns its body.
fn verified(request: &WebhookRequest, secret: &str) -> Value {
    let id = request.header("webhook-id");
    let timestamp = request.header("webhook-timestamp");
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.{}", request.body).as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert_eq!(request.header("webhook-signature"), expected, "signature of {}", request.body);
    assert!(id.starts_with("msg_") && id.len() > 20, "webhook-id {id}");
    let sent_at = timestamp.parse::<i64>().unwrap();
    assert!((sent_at - OffsetDateTime::now_utc().unix_timestamp()).abs() < 2 * 86_400, "webhook-timestamp {timestamp}");
    assert!(request.header("content-type").starts_with("application/json"));
    serde_json::from_str(&request.body).unwrap()
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
async fn bad_webhooks_are_refused_naming_the_field_and_nothing_is_stored() {
    let app = spawn_app().await;
    let refused = |body: Value| {
        let app = &app;
        async move { app.post("/webhooks", body).await.problem(400, "validation") }
    };
    let with_url = |url: &str| json!({"url": url, "events": ["sendout.activated"]});
    for url in [
        "ftp://hooks.example.com/x",
        "hooks.example.com/x",
        "",
        "http://127.0.0.1:9/hook",
        "http://localhost/x",
        "http://[::1]/",
        "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.7/",
        "http://[fd00::1]/",
        "http://0.0.0.0/",
    ] {
        let problem = refused(with_url(url)).await;
        assert_eq!(problem["errors"][0]["field"], "url", "{url}: {problem}");
    }
    let long = format!("https://hooks.example.com/{}", "x".repeat(2000));
    assert_eq!(refused(with_url(&long)).await["errors"][0]["field"], "url");

    let unknown = refused(json!({"url": "https://hooks.example.com/", "events": ["respondent.clicked"]})).await;
    assert_eq!(unknown["errors"][0]["field"], "events[0]");
    assert_eq!(unknown["supportedValues"], json!(EVENTS));
    let test_event = refused(json!({"url": "https://hooks.example.com/", "events": ["webhook.test"]})).await;
    assert_eq!(test_event["supportedValues"], json!(EVENTS));
    let empty = refused(json!({"url": "https://hooks.example.com/", "events": []})).await;
    assert_eq!(empty["errors"][0]["field"], "events");
    let missing = refused(json!({"url": "https://hooks.example.com/"})).await;
    assert_eq!(missing["errors"][0]["field"], "events");
    let described =
        json!({"url": "https://hooks.example.com/", "events": ["sendout.activated"], "description": "d".repeat(501)});
    assert_eq!(refused(described).await["errors"][0]["field"], "description");
    app.raw("POST", "/api/v1/webhooks", Some("application/json"), b"[]".to_vec()).await.problem(400, "validation");
    assert_eq!(app.get("/webhooks").await.expect(200), json!([]));

    app.post("/webhooks", json!({"url": "https://hooks.example.com/canvass", "events": EVENTS})).await.expect(201);
    app.get("/webhooks/nope").await.problem(400, "validation");
}

#[tokio::test]
async fn the_secret_is_shown_only_when_the_webhook_is_created() {
    let app = spawn_app().await;
    let body = json!({"url": "https://hooks.example.com/a", "events": ["respondent.sent", "respondent.sent"]});
    let created = app.post("/webhooks", body).await.expect(201);
    let secret = created["secret"].as_str().unwrap().to_owned();
    assert_eq!(STANDARD.decode(secret.strip_prefix("whsec_").unwrap()).unwrap().len(), 32);
    assert_eq!(created["events"], json!(["respondent.sent"]));
    assert_eq!((&created["active"], &created["description"]), (&json!(true), &Value::Null));
    assert!(created["createdAt"].is_string());
    let second =
        app.post("/webhooks", json!({"url": "https://hooks.example.com/b", "events": EVENTS})).await.expect(201);
    assert_ne!(second["secret"], created["secret"]);

    let id = created["webhookId"].as_i64().unwrap();
    let one = app.get(&format!("/webhooks/{id}")).await.expect(200);
    let all = app.get("/webhooks").await.expect(200);
    let deliveries = app.get(&format!("/webhooks/{id}/deliveries")).await.expect(200);
    for shown in [&one, &all, &deliveries] {
        assert!(!shown.to_string().contains(&secret[6..]), "{shown}");
    }
    assert!(one.get("secret").is_none());
    assert_eq!(one["url"], "https://hooks.example.com/a");
    assert_eq!(all.as_array().unwrap().len(), 2);
    assert_eq!(all[0]["webhookId"], json!(id), "creation order");
    assert!(all[1].get("secret").is_none());
}

#[tokio::test]
async fn the_document_states_the_webhook_shapes() {
    let app = spawn_app().await;
    let document: Value =
        app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap();
    let schemas = &document["components"]["schemas"];
    let body = &schemas["CreateWebhookBody"];
    assert_eq!(
        (&body["properties"]["url"]["format"], &body["properties"]["url"]["maxLength"]),
        (&json!("uri"), &json!(2000))
    );
    assert_eq!(body["properties"]["events"]["minItems"], 1);
    assert_eq!(body["properties"]["description"]["maxLength"], 500);
    assert_eq!(body["required"], json!(["url", "events"]));
    assert_eq!(schemas["EventBody"]["enum"], json!(EVENTS));
    assert_eq!(schemas["DeliveryStatusBody"]["enum"], json!(["Pending", "Delivered", "Failed"]));
    let delivery = &schemas["DeliveryResponse"]["properties"];
    assert!(delivery["nextAttemptAt"].to_string().contains("date-time"), "{delivery}");
    let paths = &document["paths"];
    let statuses = |path: &str, method: &str| -> Vec<String> {
        paths[path][method]["responses"].as_object().unwrap().keys().cloned().collect()
    };
    for status in ["201", "400", "401"] {
        assert!(statuses("/api/v1/webhooks", "post").contains(&status.to_owned()), "POST /webhooks {status}");
    }
    assert!(statuses("/api/v1/webhooks/{webhookId}", "delete").contains(&"204".to_owned()));
    assert!(statuses("/api/v1/webhooks/{webhookId}/test", "post").contains(&"202".to_owned()));
    assert!(statuses("/api/v1/webhooks/{webhookId}/deliveries", "get").contains(&"404".to_owned()));
}

#[tokio::test]
async fn the_servers_own_worker_delivers_events() {
    let outbox_dir = std::env::temp_dir().join(format!("canvass-webhooks-{}", std::process::id()));
    let app = spawn_app_with(|settings| {
        settings.webhook_allow_private = true;
        settings.delivery = Some(canvass_server::delivery::DeliverySettings {
            smtp_url: None,
            smtp_ca_file: None,
            bounce_address: None,
            concurrency: 1,
            sms_url: None,
            outbox_dir: outbox_dir.clone(),
            poll: std::time::Duration::from_millis(50),
            lease: std::time::Duration::from_secs(300),
            rate: None,
            daily_limit: None,
            max_age: std::time::Duration::from_secs(5 * 86_400),
            max_backoff: std::time::Duration::from_secs(3600),
        });
    })
    .await;
    let sink = WebhookSink::start();
    let hook = create(&app, &app.key, &sink.url, &["sendout.activated"]).await;
    let secret = hook["secret"].as_str().unwrap().to_owned();
    app.post(&format!("/webhooks/{}/test", hook["webhookId"]), json!({})).await.expect(202);
    for _ in 0..200 {
        if !sink.received().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let received = sink.received();
    assert_eq!(received.len(), 1, "the worker in the server process delivered the test event");
    assert_eq!(verified(&received[0], &secret)["type"], "webhook.test");
    let _ = std::fs::remove_dir_all(outbox_dir);
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
    let chat = json!({"name": "Chat", "type": "TWOWAY", "sendDate": "2026-01-01", "sender": ours, "message": "Hi! {{surveyLink}}"});
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
