//! Signed webhooks over HTTP: bad input is refused, the secret is shown once, the document states their shapes, and
//! the server's own worker delivers a test event to a local receiver signed as Standard Webhooks says (checked here
//! with hmac, sha2 and base64 directly) and counts its attempts in `/metrics`. Rounds of the webhook worker at a chosen `now` (retries, events of real
//! changes, other accounts) are in `system/webhook_delivery.rs`.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use canvass_sinks::{WebhookRequest, WebhookSink};
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use time::OffsetDateTime;

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

pub(crate) const EVENTS: [&str; 6] = [
    "answerSet.completed",
    "respondent.sent",
    "respondent.bounced",
    "respondent.optedOut",
    "sendout.activated",
    "sendout.deliveryHeld",
];

/// A server whose webhooks may point at this machine, where the test receivers listen.
pub(crate) async fn app_allowing_private() -> TestApp {
    spawn_app_with(|settings| settings.webhook_allow_private = true).await
}

pub(crate) async fn create(app: &TestApp, key: &str, url: &str, events: &[&str]) -> Value {
    let body = json!({"url": url, "events": events, "description": "CRM sync"});
    app.call_as(key, "POST", "/webhooks", Some(body)).await.expect(201)
}

/// Checks the request's signature with the Standard Webhooks algorithm, written out here, and returns its body.
pub(crate) fn verified(request: &WebhookRequest, secret: &str) -> Value {
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
    let types = |schema: &Value| -> Vec<String> {
        schema["type"].as_array().map_or_else(
            || vec![schema["type"].as_str().unwrap_or_default().to_owned()],
            |types| types.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        )
    };
    let required = |schema: &Value, name: &str| schema["required"].as_array().unwrap().contains(&json!(name));
    let last_error = &delivery["lastError"];
    assert_eq!((types(last_error), &last_error["maxLength"]), (vec!["string".into(), "null".into()], &json!(2000)));
    assert!(required(&schemas["DeliveryResponse"], "lastError"), "always present, null when none");
    for name in ["WebhookResponse", "CreatedWebhookResponse"] {
        let webhook = &schemas[name];
        let last = &webhook["properties"]["lastDeliveryAt"];
        assert_eq!(
            (types(last), &last["format"]),
            (vec!["string".into(), "null".into()], &json!("date-time")),
            "{name}"
        );
        let failures = &webhook["properties"]["consecutiveFailures"];
        assert_eq!((types(failures), &failures["minimum"]), (vec!["integer".to_owned()], &json!(0)), "{name}");
        assert!(required(webhook, "lastDeliveryAt") && required(webhook, "consecutiveFailures"), "{name}: {webhook}");
    }
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
        settings.delivery = Some(canvass_server::jobs::delivery::DeliverySettings {
            smtp_url: None,
            smtp_ca_file: None,
            bounce_address: None,
            alert_sender: None,
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

    // Its attempts are counted in the server's /metrics, by outcome: one failed and tried again, one delivered.
    let path = format!("/webhooks/{}", hook["webhookId"]);
    sink.answer_next(&[500]);
    app.post(&format!("{path}/test"), json!({})).await.expect(202);
    app.post(&format!("{path}/test"), json!({})).await.expect(202);
    let counted = |text: &str, outcome: &str| {
        let series = format!("canvass_webhook_deliveries_total{{outcome=\"{outcome}\"}} ");
        text.lines().find_map(|line| line.strip_prefix(series.as_str())).and_then(|n| n.parse::<u64>().ok())
    };
    let mut text = String::new();
    for _ in 0..200 {
        text = app.client.get(format!("{}/metrics", app.address)).send().await.unwrap().text().await.unwrap();
        if counted(&text, "delivered") == Some(2) && counted(&text, "retried") == Some(1) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let counts: Vec<Option<u64>> = ["delivered", "retried", "failed"].iter().map(|o| counted(&text, o)).collect();
    assert_eq!(counts, [Some(2), Some(1), Some(0)], "{text}");
    let webhook = app.get(&path).await.expect(200);
    assert!(webhook["lastDeliveryAt"].is_string(), "{webhook}");
    assert_eq!(webhook["consecutiveFailures"], 0, "the round had a success: {webhook}");
    let _ = std::fs::remove_dir_all(outbox_dir);
}
