//! Delivery through relays like commercial ones: STARTTLS with AUTH, TLS from the first byte, a private CA from
//! `SMTP_CA_FILE`, sessions reused across messages and rounds, an untrusted certificate that gets nothing, a URL
//! that would send credentials in clear refused at start, and two workers with several sessions each.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink, TestCa};
use canvass_sms::HttpSmsSender;
use time::OffsetDateTime;

use crate::cli::canvass_binary;
use crate::delivery::{activated, header, PUBLIC};
use crate::helpers::{spawn_app, TestApp};

const USER: &str = "canvass";
const PASSWORD: &str = "hunter2-relay";

fn contacts(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|n| format!("{prefix}{n}@example.com")).collect()
}

async fn activated_for(app: &TestApp, contacts: &[String]) -> String {
    let refs: Vec<&str> = contacts.iter().map(String::as_str).collect();
    activated(app, &refs, None).await.1
}

fn round(app: &TestApp, mailer: &SmtpMailer) -> canvass_domain::use_cases::delivery::DeliveryReport {
    let sms = HttpSmsSender::new(&SmsSink::start("", "").url);
    app.deliver_round(Transports { email: mailer, sms: &sms }, OffsetDateTime::now_utc(), PUBLIC, 100)
}

#[tokio::test]
async fn starttls_and_auth_carry_every_message_over_a_few_reused_sessions() {
    let app = spawn_app().await;
    let ca = TestCa::new();
    let sink = SmtpSink::builder().starttls(&ca).require_auth(USER, PASSWORD).start();
    let url = format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", sink.port());
    let mailer = SmtpMailer::new(&url, Some(ca.cert_pem().as_bytes()), 3).unwrap();
    assert!(!format!("{mailer:?}").contains(PASSWORD), "Debug shows no password");

    let first = activated_for(&app, &contacts("first", 12)).await;
    assert_eq!(round(&app, &mailer).sent, 12);
    let second = activated_for(&app, &contacts("second", 12)).await;
    assert_eq!(round(&app, &mailer).sent, 12);

    assert!(app.statuses(&first).await.iter().chain(&app.statuses(&second).await).all(|s| s == "Sent"));
    let received = sink.received();
    assert_eq!(received.len(), 24);
    assert!(received.iter().all(|r| r.tls && r.user.as_deref() == Some(USER)), "every message over TLS after AUTH");
    assert!(received.iter().all(|r| r.mail_from == "hr@acme.example"), "without a bounce address, the sender");
    assert!(sink.connections() <= 3, "sessions are reused across messages and rounds: {}", sink.connections());
}

#[tokio::test]
async fn implicit_tls_delivers_from_the_first_byte() {
    let app = spawn_app().await;
    let ca = TestCa::new();
    let sink = SmtpSink::builder().implicit_tls(&ca).require_auth(USER, PASSWORD).start();
    let url = format!("smtps://{USER}:{PASSWORD}@127.0.0.1:{}", sink.port());
    let mailer = SmtpMailer::new(&url, Some(ca.cert_pem().as_bytes()), 2).unwrap();
    let base = activated_for(&app, &contacts("tls", 5)).await;
    assert_eq!(round(&app, &mailer).sent, 5);
    assert_eq!(app.statuses(&base).await, ["Sent"; 5]);
    assert!(sink.received().iter().all(|r| r.tls && r.user.as_deref() == Some(USER)));
}

#[tokio::test]
async fn a_relay_whose_certificate_fails_the_check_gets_nothing_and_the_messages_wait() {
    let app = spawn_app().await;
    let (relay_ca, other_ca) = (TestCa::new(), TestCa::new());
    let starttls = SmtpSink::builder().starttls(&relay_ca).require_auth(USER, PASSWORD).start();
    let implicit = SmtpSink::builder().implicit_tls(&relay_ca).require_auth(USER, PASSWORD).start();
    let urls = [
        format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", starttls.port()),
        format!("smtps://{USER}:{PASSWORD}@127.0.0.1:{}", implicit.port()),
    ];
    let base = activated_for(&app, &contacts("careful", 3)).await;
    for url in &urls {
        let mailer = SmtpMailer::new(url, Some(other_ca.cert_pem().as_bytes()), 2).unwrap();
        let report = round(&app, &mailer);
        assert_eq!((report.claimed, report.sent, report.bounced, report.retried), (3, 0, 0, 3), "{url}");
        // The next round comes only after the backoff; make the messages due again at once.
        diesel::RunQueryDsl::execute(diesel::sql_query("UPDATE outbox SET due_at = now()"), &mut app.db.connect())
            .unwrap();
    }
    assert_eq!((starttls.count(), implicit.count()), (0, 0), "nothing is delivered");
    assert_eq!(app.statuses(&base).await, ["Scheduled"; 3], "retried like a 4xx, never bounced");
}

fn worker(app: &TestApp, envs: &[(&str, &str)]) -> Child {
    Command::new(canvass_binary())
        .args(["worker", "--public-url", PUBLIC])
        .env("DATABASE_URL", app.db.url())
        .envs(envs.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[tokio::test]
async fn credentials_without_tls_are_refused_at_start_without_showing_the_password() {
    let app = spawn_app().await;
    for url in [
        format!("smtp://{USER}:{PASSWORD}@127.0.0.1:2525"),
        format!("smtp://{USER}:{PASSWORD}@127.0.0.1:2525?tls=opportunistic"),
    ] {
        for args in [&["worker"][..], &["serve", "--bind", "127.0.0.1:0"]] {
            let command = args[0];
            let output = Command::new(canvass_binary())
                .args(args)
                .env("DATABASE_URL", app.db.url())
                .env("SMTP_URL", &url)
                .env("RETENTION_INTERVAL", "0")
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{command} {url}: {stderr}");
            assert!(stderr.contains("credentials but no TLS"), "{command}: {stderr}");
            assert!(!stderr.contains(PASSWORD), "{command}: the password is never printed: {stderr}");
        }
    }
}

/// Waits until every respondent of the sendout is Sent.
async fn all_sent(app: &TestApp, base: &str, within: Duration) {
    let started = Instant::now();
    while !app.statuses(base).await.iter().all(|s| s == "Sent") {
        assert!(started.elapsed() < within, "not every invitation was sent: {:?}", app.statuses(base).await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_worker_sends_through_a_relay_with_a_private_ca_from_smtp_ca_file() {
    let app = spawn_app().await;
    let ca = TestCa::new();
    let sink = SmtpSink::builder().starttls(&ca).require_auth(USER, PASSWORD).start();
    let ca_file = std::env::temp_dir().join(format!("canvass-ca-{}.pem", sink.port()));
    std::fs::write(&ca_file, ca.cert_pem()).unwrap();
    let base = activated_for(&app, &contacts("private", 20)).await;
    let url = format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", sink.port());
    let ca_path = ca_file.to_string_lossy().into_owned();
    let envs = [
        ("SMTP_URL", url.as_str()),
        ("SMTP_CA_FILE", &ca_path),
        ("DELIVERY_CONCURRENCY", "4"),
        ("BOUNCE_ADDRESS", "bounces@survey.example"),
    ];
    let mut running = worker(&app, &envs);
    all_sent(&app, &base, Duration::from_secs(60)).await;
    running.kill().unwrap();
    running.wait().unwrap();
    let _ = std::fs::remove_file(&ca_file);
    assert_eq!(sink.count(), 20);
    assert!(sink.received().iter().all(|r| r.tls && r.user.as_deref() == Some(USER)));
    assert!(sink.received().iter().all(|r| r.mail_from == "bounces@survey.example"), "bounces go to the mailbox");
    assert!(sink.connections() <= 4, "{} sessions for 4 lanes", sink.connections());
}

#[tokio::test]
async fn two_workers_with_several_sessions_each_send_every_message_exactly_once() {
    let app = spawn_app().await;
    let sink = SmtpSink::with_delay("", "", Duration::from_millis(2));
    let people = contacts("pair", 900);
    let base = activated_for(&app, &people).await;
    let envs = [("SMTP_URL", sink.url.as_str()), ("DELIVERY_CONCURRENCY", "4")];
    let mut workers = [worker(&app, &envs), worker(&app, &envs)];
    all_sent(&app, &base, Duration::from_secs(120)).await;
    for running in &mut workers {
        running.kill().unwrap();
        running.wait().unwrap();
    }
    let mut per_recipient: HashMap<String, usize> = HashMap::new();
    for message in sink.messages() {
        *per_recipient.entry(header(&message, "To:").to_owned()).or_default() += 1;
    }
    assert_eq!(per_recipient.len(), 900, "every respondent received the invitation");
    assert!(per_recipient.values().all(|&n| n == 1), "nobody received it twice");
}

#[tokio::test]
async fn a_worker_logs_an_untrusted_relay_without_the_password_and_sends_nothing() {
    let app = spawn_app().await;
    let sink = SmtpSink::builder().starttls(&TestCa::new()).require_auth(USER, PASSWORD).start();
    let base = activated_for(&app, &contacts("untrusted", 3)).await;
    let url = format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", sink.port());
    let mut running = worker(&app, &[("SMTP_URL", &url), ("RUST_LOG", "info")]);
    let started = Instant::now();
    while sink.connections() == 0 {
        assert!(started.elapsed() < Duration::from_secs(30), "the worker never tried the relay");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    running.kill().unwrap();
    let output = running.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("cannot open an SMTP session") && log.contains("STARTTLS"), "{log}");
    assert!(!log.contains(PASSWORD), "the password is never logged: {log}");
    assert_eq!(sink.count(), 0);
    assert_eq!(app.statuses(&base).await, ["Scheduled"; 3]);
}

#[tokio::test]
async fn a_relay_that_allows_fewer_sessions_than_the_lanes_still_gets_every_message() {
    let app = spawn_app().await;
    let sink = SmtpSink::builder().max_sessions(2).start();
    let mailer = SmtpMailer::new(&sink.url, None, 6).unwrap();
    let base = activated_for(&app, &contacts("limited", 30)).await;
    let report = round(&app, &mailer);
    assert_eq!((report.sent, report.retried), (30, 0), "the lanes that got a session carry the round");
    assert_eq!(app.statuses(&base).await, ["Sent"; 30]);
    assert_eq!(sink.count(), 30);
    let knocked = sink.connections();
    let _more = activated_for(&app, &contacts("again", 10)).await;
    assert_eq!(round(&app, &mailer).sent, 10);
    assert_eq!(sink.connections(), knocked, "the next round keeps to the sessions the relay took");
}
