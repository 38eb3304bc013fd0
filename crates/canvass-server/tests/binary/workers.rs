//! `canvass worker` processes: one killed in the middle of a sendout, one whose database restarts under it, two
//! side by side, one given a relay with a private CA, one facing a relay it must not trust, and relay URLs refused
//! at start.

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use canvass_sinks::{SmtpSink, TestCa};

use canvass_testdb::TestDatabase;

use crate::harness::{canvass_binary, contacts, header, spawn_app, spawn_app_on, RunsBinary, PUBLIC};
use crate::private_cluster::PrivateCluster;

const USER: &str = "canvass";
const PASSWORD: &str = "hunter2-relay";

#[tokio::test]
async fn a_worker_killed_mid_sendout_loses_nothing_and_repeats_only_in_flight_messages() {
    let app = spawn_app().await;
    let sink = SmtpSink::with_delay("", "", Duration::from_millis(3));
    let base = app.activated(&contacts("person", 1000)).await;
    let worker = || {
        Command::new(canvass_binary())
            .args(["worker", "--lease-seconds", "2", "--public-url", PUBLIC])
            .env("DATABASE_URL", app.db.url())
            .env("SMTP_URL", &sink.url)
            .env("DELIVERY_CONCURRENCY", "4")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let waited = Instant::now();
    let mut first = worker();
    while sink.count() < 150 {
        assert!(waited.elapsed() < Duration::from_secs(120), "the first worker sends nothing");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let mut second = worker();
    loop {
        let statuses = app.statuses(&base).await;
        if statuses.iter().all(|s| s == "Sent") {
            break;
        }
        assert!(waited.elapsed() < Duration::from_secs(240), "not every invitation was sent");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    second.kill().unwrap();
    second.wait().unwrap();

    let mut by_recipient: HashMap<String, Vec<String>> = HashMap::new();
    for message in sink.messages() {
        by_recipient
            .entry(header(&message, "To:").to_owned())
            .or_default()
            .push(header(&message, "Message-ID:").to_owned());
    }
    assert_eq!(by_recipient.len(), 1000, "every respondent received the invitation");
    let repeated: Vec<_> = by_recipient.values().filter(|ids| ids.len() > 1).collect();
    assert!(repeated.iter().all(|ids| ids.iter().all(|id| *id == ids[0])), "a repeat carries the same Message-ID");
    let in_flight = 2 * canvass_server::jobs::delivery::ROUND as usize;
    assert!(repeated.len() <= in_flight, "only the killed worker's two rounds repeat: {}", repeated.len());
}

#[tokio::test]
async fn a_database_restart_in_the_middle_of_a_round_sends_no_one_twice() {
    let cluster = PrivateCluster::start();
    let (app, _serving) = spawn_app_on(TestDatabase::on(&cluster.url, None), |_| {}).await;
    let sink = SmtpSink::with_delay("", "", Duration::from_millis(3));
    let base = app.activated(&contacts("person", 1000)).await;
    // The default lease (5 minutes): a round whose record were given up would wait that long to be sent again.
    let smtp = [("SMTP_URL", sink.url.as_str()), ("DELIVERY_CONCURRENCY", "4")];
    let mut worker = app.worker(&["--public-url", PUBLIC], &smtp);
    let waited = Instant::now();
    while sink.count() < 100 {
        assert!(waited.elapsed() < Duration::from_secs(120), "the worker sends nothing");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cluster.restart();
    let restarted_after = sink.count();
    loop {
        // The API answers 503 while its pool finds its connections gone; the statuses are read once it answers.
        let reply = app.call_as(&app.key, "GET", &format!("{base}/respondents"), None).await;
        let (status, list) = (reply.status.as_u16(), reply.body);
        let sent = list.as_array().map_or(0, |all| all.iter().filter(|r| r["status"] == "Sent").count());
        if status == 200 && sent == 1000 {
            break;
        }
        assert!(waited.elapsed() < Duration::from_secs(200), "not every invitation was recorded: {sent} Sent");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    worker.kill().unwrap();
    worker.wait().unwrap();

    assert!(restarted_after < 1000, "the restart came before the last round was sent");
    let mut received: HashMap<String, usize> = HashMap::new();
    for message in sink.messages() {
        *received.entry(header(&message, "To:").to_owned()).or_default() += 1;
    }
    assert_eq!(received.len(), 1000, "every respondent received the invitation");
    let twice: Vec<_> = received.iter().filter(|(_, times)| **times > 1).collect();
    assert!(twice.is_empty(), "{} received it more than once", twice.len());
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

#[tokio::test]
async fn a_worker_sends_through_a_relay_with_a_private_ca_from_smtp_ca_file() {
    let app = spawn_app().await;
    let ca = TestCa::new();
    let sink = SmtpSink::builder().starttls(&ca).require_auth(USER, PASSWORD).start();
    let ca_file = std::env::temp_dir().join(format!("canvass-ca-{}.pem", sink.port()));
    std::fs::write(&ca_file, ca.cert_pem()).unwrap();
    let base = app.activated(&contacts("private", 20)).await;
    let url = format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", sink.port());
    let ca_path = ca_file.to_string_lossy().into_owned();
    let envs = [
        ("SMTP_URL", url.as_str()),
        ("SMTP_CA_FILE", &ca_path),
        ("DELIVERY_CONCURRENCY", "4"),
        ("BOUNCE_ADDRESS", "bounces@survey.example"),
    ];
    let mut running = app.worker(&["--public-url", PUBLIC], &envs);
    app.all_sent(&base, Duration::from_secs(60)).await;
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
    let base = app.activated(&contacts("pair", 900)).await;
    let envs = [("SMTP_URL", sink.url.as_str()), ("DELIVERY_CONCURRENCY", "4")];
    let mut workers = [app.worker(&["--public-url", PUBLIC], &envs), app.worker(&["--public-url", PUBLIC], &envs)];
    app.all_sent(&base, Duration::from_secs(120)).await;
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
    let base = app.activated(&contacts("untrusted", 3)).await;
    let url = format!("smtp://{USER}:{PASSWORD}@127.0.0.1:{}?tls=required", sink.port());
    let mut running = app.worker(&["--public-url", PUBLIC], &[("SMTP_URL", &url), ("RUST_LOG", "info")]);
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
