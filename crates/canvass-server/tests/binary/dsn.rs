//! `canvass dsn`: a delivery status notification piped in by the mail system, matched by the original Message-ID,
//! with the exit statuses a pipe transport acts on.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_sinks::{postfix_dsn, SmtpSink};
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::harness::{canvass_binary, header, spawn_app, RunsBinary, TestApp, DSN_SECRET, PUBLIC};

const USER_UNKNOWN: &str = "smtp; 550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown";

/// Sends the invitations of a new sendout to these contacts with `canvass worker`; returns the sendout's path and
/// each Message-ID.
async fn sent(app: &TestApp, contacts: &[&str]) -> (String, Vec<String>) {
    let owned: Vec<String> = contacts.iter().map(|c| (*c).to_owned()).collect();
    let base = app.activated(&owned).await;
    let sink = SmtpSink::start("", "");
    let mut worker = app.worker(&["--public-url", PUBLIC], &[("SMTP_URL", &sink.url)]);
    app.all_sent(&base, Duration::from_secs(60)).await;
    worker.kill().unwrap();
    worker.wait().unwrap();
    assert_eq!(sink.count(), contacts.len());
    let mut ids: Vec<(String, String)> =
        sink.messages().iter().map(|m| (header(m, "To:").to_owned(), header(m, "Message-ID:").to_owned())).collect();
    ids.sort_by_key(|(to, _)| contacts.iter().position(|c| to.contains(c)));
    (base, ids.into_iter().map(|(_, id)| id).collect())
}

/// Runs `canvass dsn` with `report` on stdin; returns its exit status, its JSON output and its stderr.
fn run_status(app: &TestApp, report: String) -> (Option<i32>, Value, String) {
    let mut child = Command::new(canvass_binary())
        .arg("dsn")
        .env("DATABASE_URL", app.db.url())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(report.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let printed = serde_json::from_slice::<Value>(&output.stdout).unwrap_or(Value::Null);
    (output.status.code(), printed, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[tokio::test]
async fn canvass_dsn_reads_a_report_from_stdin_for_a_pipe_transport() {
    let app = spawn_app().await;
    let (base, ids) = sent(&app, &["piped@example.com"]).await;
    let bounce = postfix_dsn(&ids[0], "piped@example.com", "failed", "5.2.2", "smtp; 552 mailbox full");
    let (status, printed, stderr) = run_status(&app, bounce);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(printed, json!({"permanentFailures": 1, "ignored": 0}));
    assert_eq!(app.statuses(&base).await, ["Bounced"]);
    let (status, _, stderr) = run_status(&app, "not a report at all".into());
    assert_eq!(status, Some(65), "EX_DATAERR: a pipe transport gives up: {stderr}");
    assert!(stderr.contains("not a delivery status notification"), "{stderr}");
}

#[tokio::test]
async fn a_report_of_a_message_still_being_sent_is_handed_over_again_later() {
    let app = spawn_app().await;
    let base = app.activated(&["inflight@example.com".to_owned()]).await;
    let now = OffsetDateTime::now_utc();
    let claim = |uow: &mut dyn UnitOfWork| Ok(uow.claim_due(now, now + time::Duration::minutes(5), 10)?);
    let claimed = app.db.store().with_uow(claim).unwrap();
    let message_id = format!("<{}@survey.example>", claimed[0].message_token);
    let report = postfix_dsn(&message_id, "inflight@example.com", "failed", "5.1.1", USER_UNKNOWN);

    let response = app
        .client
        .post(format!("{}/inbound/dsn", app.address))
        .header("X-Canvass-Inbound-Secret", DSN_SECRET)
        .body(report.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 503);
    assert_eq!(response.headers()["retry-after"], "60");
    let problem: Value = response.json().await.unwrap();
    assert!(problem["type"].as_str().unwrap().ends_with("/message-in-flight"), "{problem}");
    let (status, _, stderr) = run_status(&app, report);
    assert_eq!(status, Some(75), "EX_TEMPFAIL: a pipe transport tries again later: {stderr}");
    assert_eq!(app.statuses(&base).await, ["Scheduled"], "nothing changed");
}
