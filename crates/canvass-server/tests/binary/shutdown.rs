//! Stopping delivery: the server's worker thread stops with the server, and `canvass worker` on SIGTERM, each
//! after sending and recording the round it has in flight, and claiming nothing more.

use std::process::Command;
use std::time::{Duration, Instant};

use canvass_server::jobs::delivery::DeliverySettings;
use canvass_sinks::SmtpSink;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Text};
use diesel::{QueryableByName, RunQueryDsl};

use crate::harness::{contacts, spawn_app, spawn_app_on, RunsBinary, PUBLIC};

/// Messages in the one round of these tests; with one SMTP session and the sink's delay, sending them takes over
/// a second.
const MESSAGES: usize = 50;
const DELAY: Duration = Duration::from_millis(25);

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = BigInt)]
    messages: i64,
}

/// The outbox by status, with `InFlight` for unsent messages under a live lease.
fn outbox(db: &TestDatabase) -> Vec<(String, i64)> {
    let counts: Vec<Count> = diesel::sql_query(
        "SELECT CASE WHEN status = 'Pending' AND lease_until > now() THEN 'InFlight' ELSE status END AS status, \
         count(*) AS messages FROM outbox GROUP BY 1 ORDER BY 1",
    )
    .load(&mut db.connect())
    .unwrap();
    counts.into_iter().map(|c| (c.status, c.messages)).collect()
}

/// Waits until the sink has the first message of the round: the round is then on the network.
async fn first_message(sink: &SmtpSink) {
    let started = Instant::now();
    while sink.count() == 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "the worker sends nothing");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn the_servers_delivery_worker_finishes_its_round_when_the_server_stops() {
    let sink = SmtpSink::with_delay("", "", DELAY);
    let outbox_dir = std::env::temp_dir().join(format!("canvass-shutdown-{}", sink.port()));
    let (app, serving) = spawn_app_on(TestDatabase::new(), |settings| {
        settings.public_url = Some(PUBLIC.into());
        settings.delivery = Some(DeliverySettings {
            smtp_url: Some(sink.url.clone().into()),
            smtp_ca_file: None,
            bounce_address: None,
            alert_sender: None,
            concurrency: 1,
            sms_url: None,
            outbox_dir: outbox_dir.clone(),
            poll: Duration::from_millis(50),
            lease: Duration::from_secs(300),
            rate: None,
            daily_limit: None,
            max_age: Duration::from_secs(5 * 86_400),
            max_backoff: Duration::from_secs(3600),
        });
    })
    .await;
    app.activated(&contacts("stop", MESSAGES)).await;
    first_message(&sink).await;

    serving.handle.stop(true).await;
    let sent_when_asked = sink.count();
    serving.task.await.unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&outbox_dir);

    assert!(sent_when_asked < MESSAGES, "the server stopped while the round was on the network: {sent_when_asked}");
    assert_eq!(sink.count(), MESSAGES, "the round in flight was sent whole");
    assert_eq!(outbox(&app.db), [("Sent".to_owned(), MESSAGES as i64)], "and recorded: nothing is left in flight");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(sink.count(), MESSAGES, "the worker sends nothing after it stopped");
}

#[tokio::test]
async fn canvass_worker_finishes_its_round_on_sigterm_and_exits() {
    let app = spawn_app().await;
    let sink = SmtpSink::with_delay("", "", DELAY);
    let base = app.activated(&contacts("term", MESSAGES)).await;
    let worker = app.worker(&["--public-url", PUBLIC], &[("SMTP_URL", &sink.url), ("DELIVERY_CONCURRENCY", "1")]);
    first_message(&sink).await;

    let signalled = Command::new("kill").args(["-TERM", &worker.id().to_string()]).status().unwrap();
    assert!(signalled.success());
    let sent_when_asked = sink.count();
    let output = worker.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr);

    assert!(output.status.success(), "a stopped worker exits cleanly: {log}");
    assert!(log.contains("delivery worker stopped"), "{log}");
    assert!(sent_when_asked < MESSAGES, "SIGTERM came while the round was on the network: {sent_when_asked}");
    assert_eq!(sink.count(), MESSAGES, "the round in flight was sent whole");
    assert_eq!(app.statuses(&base).await, vec!["Sent"; MESSAGES], "and recorded");
    assert_eq!(outbox(&app.db), [("Sent".to_owned(), MESSAGES as i64)], "nothing is left in flight");
}
