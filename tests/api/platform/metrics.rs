//! `GET /metrics`: the Prometheus text format, parsed as a scraper parses it. Every family with its type, route
//! labels that are templates and never raw paths, the bearer token when `METRICS_TOKEN` is set, the outbox gauges
//! at scrape time and the delivery worker's counts.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use canvass_server::jobs::delivery::DeliverySettings;
use canvass_sinks::{postfix_dsn, SmtpSink};
use prom_text_format_parser::{Metric, Scrape, Type};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};

use crate::helpers::{
    activated, header, post_dsn, spawn_app, spawn_app_with, TestApp, DSN_SECRET, PUBLIC, USER_UNKNOWN,
};

const TOKEN: &str = "scrape-token-0123456789";

/// Scrapes `/metrics` (with this bearer token, if any): the status, the content type and the body.
async fn get_metrics(app: &TestApp, token: Option<&str>) -> (u16, String, String) {
    let mut request = app.client.get(format!("{}/metrics", app.address));
    if let Some(token) = token {
        request = request.header(AUTHORIZATION, format!("Bearer {token}"));
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response.headers().get(CONTENT_TYPE).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, content_type, response.text().await.unwrap())
}

/// Parses the text as a scraper does; anything that is not the exposition format fails the test.
fn parse(text: &str) -> Scrape {
    Scrape::parse(text).unwrap_or_else(|error| panic!("not the Prometheus text format: {error:?}\n{text}"))
}

async fn scrape(app: &TestApp) -> (Scrape, String) {
    let (status, content_type, text) = get_metrics(app, None).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    (parse(&text), text)
}

fn family<'a>(scrape: &'a Scrape, name: &str) -> Option<&'a Metric> {
    scrape.metrics.iter().find(|metric| metric.name == name)
}

/// The value of the sample of `metric` with exactly these labels.
fn value(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let family = family(scrape, metric)?;
    let sample = family.samples.iter().find(|sample| {
        sample.labels.len() == labels.len()
            && labels.iter().all(|(key, value)| sample.labels.iter().any(|l| l.key == *key && l.value == *value))
    })?;
    Some(sample.value.value.as_f64())
}

#[tokio::test]
async fn every_family_is_served_with_its_type_and_routes_are_templates() {
    let app = spawn_app().await;
    app.get("/surveys/987654").await.expect(404);
    app.get("/surveys/987654/sendouts").await.expect(404);
    app.get("/surveys").await.expect(200);
    app.raw("GET", "/health/live", None, Vec::new()).await.expect(200);
    app.raw("GET", "/no/such/path/987654", None, Vec::new()).await.expect(404);
    let (scrape, text) = scrape(&app).await;

    for (name, kind) in [
        ("canvass_http_requests_total", Type::Counter),
        ("canvass_http_request_duration_seconds", Type::Histogram),
        ("canvass_outbox_pending", Type::Gauge),
        ("canvass_outbox_oldest_due_age_seconds", Type::Gauge),
        ("canvass_delivery_messages_total", Type::Counter),
        ("canvass_retention_respondents_removed_total", Type::Counter),
        ("canvass_retention_runs_total", Type::Counter),
        ("canvass_db_pool_connections", Type::Gauge),
    ] {
        let found = family(&scrape, name).unwrap_or_else(|| panic!("{name} is missing from\n{text}"));
        assert_eq!(found.kind, kind, "{name}");
        assert!(!found.samples.is_empty(), "{name} has samples");
    }

    let requests = |route: &str, status: &str| {
        value(&scrape, "canvass_http_requests_total", &[("method", "GET"), ("route", route), ("status", status)])
    };
    assert_eq!(requests("/api/v1/surveys/{surveyId}", "404"), Some(1.0), "{text}");
    assert_eq!(requests("/api/v1/surveys/{surveyId}/sendouts", "404"), Some(1.0), "{text}");
    assert_eq!(requests("/api/v1/surveys", "200"), Some(1.0), "{text}");
    assert_eq!(requests("/health/live", "200"), Some(2.0), "spawn_app's readiness check and this one: {text}");
    assert_eq!(requests("unmatched", "404"), Some(1.0), "{text}");
    let durations = family(&scrape, "canvass_http_request_duration_seconds").unwrap();
    let routes =
        |label: &str| durations.samples.iter().any(|s| s.labels.iter().any(|l| l.key == "route" && l.value == label));
    assert!(routes("/api/v1/surveys/{surveyId}") && routes("unmatched"), "{text}");
    for metric in &scrape.metrics {
        for label in metric.samples.iter().flat_map(|sample| sample.labels.iter()) {
            assert!(
                !label.value.contains("987654"),
                "{}{{{}={}}}: a raw path became a label",
                metric.name,
                label.key,
                label.value
            );
        }
    }
    assert!(!text.contains("987654"), "{text}");
    for state in ["idle", "in_use"] {
        assert!(value(&scrape, "canvass_db_pool_connections", &[("state", state)]).is_some(), "{state}");
    }
    let idle = value(&scrape, "canvass_db_pool_connections", &[("state", "idle")]).unwrap_or_default();
    assert!(idle >= 1.0, "the pool keeps a connection open: {text}");
}

#[tokio::test]
async fn with_a_metrics_token_only_its_bearer_may_scrape() {
    let app = spawn_app_with(|settings| settings.metrics_token = Some(TOKEN.into())).await;
    for token in [None, Some("wrong"), Some("scrape-token-012345678")] {
        let response = app
            .client
            .get(format!("{}/metrics", app.address))
            .header(AUTHORIZATION, token.map_or(String::new(), |token| format!("Bearer {token}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 401, "{token:?}");
        assert_eq!(response.headers()[WWW_AUTHENTICATE], "Bearer");
        assert_eq!(response.headers()[CONTENT_TYPE], "application/problem+json");
        let body = response.text().await.unwrap();
        assert!(!body.contains(TOKEN), "the token never appears: {body}");
    }
    let (status, _, text) = get_metrics(&app, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert!(family(&parse(&text), "canvass_outbox_pending").is_some(), "{text}");
    // The token is not an API key: the API still wants its own.
    app.raw("GET", "/health/live", None, Vec::new()).await.expect(200);
}

#[tokio::test]
async fn the_outbox_gauges_show_the_messages_waiting_to_be_sent() {
    // Every scrape reads the backlog (by default a reading is served for 5 s).
    let app = spawn_app_with(|settings| settings.protection.backlog_reading_ttl = Duration::ZERO).await;
    let (scrape_before, _) = scrape(&app).await;
    assert_eq!(value(&scrape_before, "canvass_outbox_pending", &[]), Some(0.0));
    assert_eq!(value(&scrape_before, "canvass_outbox_oldest_due_age_seconds", &[]), Some(0.0), "none due: 0");

    // No worker runs: the invitations, due since the sendout's send date in the past, wait in the outbox.
    activated(&app, &["a@example.com", "b@example.com", "c@example.com"], None).await;
    let (scrape, text) = scrape(&app).await;
    assert_eq!(value(&scrape, "canvass_outbox_pending", &[]), Some(3.0), "{text}");
    let age = value(&scrape, "canvass_outbox_oldest_due_age_seconds", &[]).unwrap_or_default();
    assert!(age > 86_400.0, "due since 2020-01-01: {age}");

    // Another account's messages count too: the gauges span accounts.
    let (_, other) = app.new_account("Other", "owner@other.example");
    let mut other_app = app;
    other_app.key = other;
    activated(&other_app, &["d@example.com"], None).await;
    let (scrape, _) = self::scrape(&other_app).await;
    assert_eq!(value(&scrape, "canvass_outbox_pending", &[]), Some(4.0));
}

/// A delivery worker in the server process, sending email through `sink` and polling every 50 ms.
fn worker(sink: &SmtpSink, outbox_dir: PathBuf) -> DeliverySettings {
    DeliverySettings {
        smtp_url: Some(sink.url.clone().into()),
        smtp_ca_file: None,
        bounce_address: None,
        alert_sender: None,
        concurrency: 1,
        sms_url: None,
        outbox_dir,
        poll: Duration::from_millis(50),
        lease: Duration::from_secs(300),
        rate: None,
        daily_limit: None,
        max_age: Duration::from_secs(5 * 86_400),
        max_backoff: Duration::from_secs(3600),
    }
}

#[tokio::test]
async fn the_delivery_workers_rounds_are_counted_by_channel_and_outcome() {
    let sink = SmtpSink::start("bounce@", "");
    let outbox_dir = std::env::temp_dir().join(format!("canvass-metrics-{}", sink.port()));
    let app = spawn_app_with(|settings| {
        settings.public_url = Some(PUBLIC.into());
        settings.delivery = Some(worker(&sink, outbox_dir.clone()));
        settings.protection.backlog_reading_ttl = Duration::ZERO;
    })
    .await;
    let (before, _) = scrape(&app).await;
    let sent = |scrape: &Scrape, outcome: &str| {
        value(scrape, "canvass_delivery_messages_total", &[("channel", "email"), ("outcome", outcome)])
    };
    assert_eq!((sent(&before, "sent"), sent(&before, "bounced")), (Some(0.0), Some(0.0)));

    activated(&app, &["ok@example.com", "also@example.com", "bounce@example.com"], None).await;
    let started = Instant::now();
    let after = loop {
        let (scrape, text) = scrape(&app).await;
        // Counted as soon as the round is sent; the outbox drains once it is recorded.
        let drained = value(&scrape, "canvass_outbox_pending", &[]) == Some(0.0);
        if sent(&scrape, "sent") == Some(2.0) && sent(&scrape, "bounced") == Some(1.0) && drained {
            break scrape;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the worker's round is not counted:\n{text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let _ = std::fs::remove_dir_all(&outbox_dir);
    let sms = value(&after, "canvass_delivery_messages_total", &[("channel", "sms"), ("outcome", "sent")]);
    assert_eq!(sms, Some(0.0), "the email round counts nothing for SMS");
}

#[tokio::test]
async fn the_document_states_what_metrics_serves() {
    let app = spawn_app().await;
    let document: serde_json::Value =
        app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap();
    let operation = &document["paths"]["/metrics"]["get"];
    let responses = operation["responses"].as_object().unwrap();
    let statuses: Vec<&String> = responses.keys().collect();
    assert_eq!(statuses, ["200", "401"], "never a 503: {operation}");
    assert!(responses["200"]["content"]["text/plain; version=0.0.4; charset=utf-8"].is_object(), "{operation}");
    assert!(responses["401"]["content"]["application/problem+json"].is_object(), "{operation}");
    assert!(responses["401"]["headers"]["WWW-Authenticate"].is_object(), "{operation}");
}

#[tokio::test]
async fn the_servers_retention_runs_are_counted() {
    // The retention timer is a task local to the server's thread, as under actix's runtime.
    tokio::task::LocalSet::new().run_until(retention_runs_are_counted()).await;
}

async fn retention_runs_are_counted() {
    let app = spawn_app_with(|settings| settings.retention_interval = Duration::from_secs(1)).await;
    let started = Instant::now();
    loop {
        let (scrape, text) = scrape(&app).await;
        let runs = |outcome: &str| value(&scrape, "canvass_retention_runs_total", &[("outcome", outcome)]);
        if runs("ok").unwrap_or_default() >= 1.0 {
            assert_eq!(runs("failed"), Some(0.0), "{text}");
            let removed = value(&scrape, "canvass_retention_respondents_removed_total", &[]);
            assert_eq!(removed, Some(0.0), "nothing to remove");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no retention run is counted:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_late_bounce_counts_as_bounced_email_once() {
    let sink = SmtpSink::start("", "");
    let outbox_dir = std::env::temp_dir().join(format!("canvass-metrics-{}", sink.port()));
    let app = spawn_app_with(|settings| {
        settings.public_url = Some(PUBLIC.into());
        settings.delivery = Some(worker(&sink, outbox_dir.clone()));
    })
    .await;
    // The server's own worker sends the invitation; the report names its Message-ID.
    let (_, base, _) = activated(&app, &["gone@example.com"], None).await;
    let started = Instant::now();
    while app.statuses(&base).await != ["Sent"] {
        assert!(started.elapsed() < Duration::from_secs(30), "the invitation is not sent");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    let id = header(&messages[0], "Message-ID:").to_owned();
    let email_bounced = [("channel", "email"), ("outcome", "bounced")];
    assert_eq!(value(&scrape(&app).await.0, "canvass_delivery_messages_total", &email_bounced), Some(0.0));
    let failed = postfix_dsn(&id, "gone@example.com", "failed", "5.1.1", USER_UNKNOWN);
    // The relay hands the same report over twice at once: one records it, the other changes nothing.
    let secret = Some(DSN_SECRET);
    let (first, second) = tokio::join!(post_dsn(&app, secret, failed.clone()), post_dsn(&app, secret, failed));
    assert_eq!((first.0, second.0), (200, 200), "{first:?} {second:?}");
    let recorded = first.1["permanentFailures"].as_u64().unwrap() + second.1["permanentFailures"].as_u64().unwrap();
    assert_eq!(recorded, 1, "{first:?} {second:?}");
    let bounced = value(&scrape(&app).await.0, "canvass_delivery_messages_total", &email_bounced);
    assert_eq!(bounced, Some(1.0), "the repeated report recorded, and so counted, nothing");
    let _ = std::fs::remove_dir_all(&outbox_dir);
}
