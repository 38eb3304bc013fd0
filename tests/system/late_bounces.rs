//! Late bounces: delivery status notifications written the way Postfix writes them, handed to `POST /inbound/dsn`
//! and matched by the original Message-ID. `canvass dsn`, the pipe transport's way in, is tested on the binary in
//! `crates/canvass-server/tests/binary/dsn.rs`.
//! A system test: the invitations are sent by a round run here (`tests/helpers/worker.rs`).

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{postfix_dsn, SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;
use serde_json::json;
use time::OffsetDateTime;

use crate::helpers::{
    activated, header, post_dsn, spawn_app, spawn_app_with, TestApp, DSN_SECRET, PUBLIC, USER_UNKNOWN,
};

/// Sends the invitations of a new sendout to these contacts; returns the sendout's path and each Message-ID.
pub(crate) async fn sent(app: &TestApp, contacts: &[&str]) -> (String, Vec<String>) {
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
