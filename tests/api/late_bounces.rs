//! Late bounces: delivery status notifications written the way Postfix writes them, handed to `POST /inbound/dsn`
//! or piped into `canvass dsn`, matched by the original Message-ID.

use std::io::Write;
use std::process::{Command, Stdio};

use canvass_domain::delivery::Transports;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_mail::SmtpMailer;
use canvass_sinks::{postfix_dsn, SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::cli::canvass_binary;
use crate::delivery::{activated, header, PUBLIC};
use crate::helpers::{spawn_app, spawn_app_with, TestApp, DSN_SECRET};

const USER_UNKNOWN: &str = "smtp; 550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown";

/// Sends the invitations of a new sendout to these contacts; returns the sendout's path and each Message-ID.
async fn sent(app: &TestApp, contacts: &[&str]) -> (String, Vec<String>) {
    let (_, base, _) = activated(app, contacts, None).await;
    let sink = SmtpSink::start("", "");
    let (mailer, sms) = (SmtpMailer::from_url(&sink.url).unwrap(), HttpSmsSender::new(&SmsSink::start("", "").url));
    let report = app.deliver_round(Transports { email: &mailer, sms: &sms }, OffsetDateTime::now_utc(), PUBLIC, 100);
    assert_eq!(report.sent, contacts.len());
    let mut ids: Vec<(String, String)> =
        sink.messages().iter().map(|m| (header(m, "To:").to_owned(), header(m, "Message-ID:").to_owned())).collect();
    ids.sort_by_key(|(to, _)| contacts.iter().position(|c| to.contains(c)));
    (base, ids.into_iter().map(|(_, id)| id).collect())
}

async fn post_dsn(app: &TestApp, secret: Option<&str>, body: String) -> (u16, Value) {
    let mut request =
        app.client.post(format!("{}/inbound/dsn", app.address)).header("Content-Type", "message/rfc822").body(body);
    if let Some(secret) = secret {
        request = request.header("X-Canvass-Inbound-Secret", secret);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_failed_5_1_1_report_bounces_the_respondent_and_a_delayed_one_changes_nothing() {
    let app = spawn_app().await;
    let (base, ids) = sent(&app, &["gone@example.com", "slow@example.com"]).await;

    let delayed = postfix_dsn(&ids[1], "slow@example.com", "delayed", "4.4.1", "X-Postfix; connect to mx: timed out");
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), delayed).await, (200, json!({"permanentFailures": 0, "ignored": 1})));
    let failed = postfix_dsn(&ids[0], "gone@example.com", "failed", "5.1.1", USER_UNKNOWN);
    let once = json!({"permanentFailures": 1, "ignored": 0});
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), failed.clone()).await, (200, once));
    let again = json!({"permanentFailures": 0, "ignored": 1});
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), failed).await, (200, again), "a repeated report records nothing");

    assert_eq!(app.statuses(&base).await, ["Bounced", "Sent"]);
    let failures = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(failures["totalCount"], 1, "{failures}");
    let failure = &failures["failures"][0];
    assert_eq!(failure["emailAddress"], "gone@example.com");
    assert!(failure["reason"].as_str().unwrap().contains("5.1.1"), "{failure}");
    let respondents = app.get(&format!("{base}/respondents")).await.expect(200);
    assert_eq!(failure["respondentId"], respondents[0]["respondentId"]);
    assert_eq!(failure["sendoutId"], respondents[0]["sendoutId"]);
}

#[tokio::test]
async fn the_endpoint_refuses_wrong_secrets_and_messages_that_are_not_reports() {
    let app = spawn_app().await;
    let (base, ids) = sent(&app, &["kept@example.com"]).await;
    let report = postfix_dsn(&ids[0], "kept@example.com", "failed", "5.1.1", USER_UNKNOWN);
    assert_eq!(post_dsn(&app, Some("wrong"), report.clone()).await.0, 401);
    assert_eq!(post_dsn(&app, None, report).await.0, 401);
    let letter = "From: ann@example.com\r\nTo: hr@acme.example\r\nSubject: Re: Your view\r\n\r\nThanks!\r\n".to_owned();
    let (status, problem) = post_dsn(&app, Some(DSN_SECRET), letter).await;
    assert_eq!(status, 400, "{problem}");
    assert!(problem["type"].as_str().unwrap().ends_with("/validation"), "{problem}");
    let stranger =
        postfix_dsn("<0123456789abcdef0123456789abcdef@survey.example>", "x@example.com", "failed", "5.1.1", "");
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), stranger).await, (200, json!({"permanentFailures": 0, "ignored": 1})));
    assert_eq!(app.statuses(&base).await, ["Sent"], "nothing changed");

    let too_large = "x".repeat(2 * 1024 * 1024);
    assert_eq!(post_dsn(&app, None, too_large.clone()).await.0, 401, "the secret comes before the body");
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), too_large).await.0, 413);

    let closed = spawn_app_with(|settings| settings.inbound_secret = None).await;
    assert_eq!(post_dsn(&closed, Some(DSN_SECRET), String::new()).await.0, 404);
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
async fn a_report_of_a_message_still_being_sent_is_handed_over_again_later() {
    let app = spawn_app().await;
    let (_, base, _) = activated(&app, &["inflight@example.com"], None).await;
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
