//! Delivery through relays like commercial ones: STARTTLS with AUTH, TLS from the first byte, sessions reused
//! across messages and rounds, each message's commands pipelined with the previous message's content, an untrusted certificate that gets nothing, and a relay with fewer sessions than
//! lanes. `canvass worker` processes with relays (a private CA from `SMTP_CA_FILE`, credentials refused without
//! TLS, two workers side by side) are tested on the binary in `crates/canvass-server/tests/binary/workers.rs`.
//! A system test: rounds run here through mailers built for each relay (`tests/helpers/worker.rs`), and the
//! outbox made due again with SQL.

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink, TestCa};
use canvass_sms::HttpSmsSender;
use time::OffsetDateTime;

use crate::helpers::{activated, spawn_app, TestApp, PUBLIC};

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
async fn a_pipelining_relay_gets_each_message_s_commands_with_the_previous_message() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let mailer = SmtpMailer::from_url(&sink.url).unwrap();
    let invited = activated_for(&app, &contacts("chained", 5)).await;
    assert_eq!(round(&app, &mailer).sent, 5);
    assert_eq!(app.statuses(&invited).await, ["Sent"; 5]);
    let mut received = sink.received();
    received.sort_by_key(|received| received.at);
    let chained: Vec<bool> = received.iter().map(|received| received.came_with_previous).collect();
    // One session: the first message opens it; each later one's MAIL FROM, RCPT TO and DATA left with the content
    // of the one before, so a message costs one exchange with the relay.
    assert_eq!(chained, [false, true, true, true, true]);
    assert_eq!(sink.connections(), 1);
}

#[tokio::test]
async fn a_relay_that_closes_the_session_after_a_message_gets_the_next_one_on_a_new_session() {
    let app = spawn_app().await;
    // The next message's commands went with the content; the relay answered the content and closed: they were
    // never answered, so that message is not the relay's refusal, and goes again on a fresh session.
    let sink = SmtpSink::builder().messages_per_session(2).start();
    let mailer = SmtpMailer::from_url(&sink.url).unwrap();
    let invited = activated_for(&app, &contacts("limited", 5)).await;
    let report = round(&app, &mailer);
    assert_eq!((report.sent, report.retried), (5, 0), "{report:?}");
    assert_eq!(app.statuses(&invited).await, ["Sent"; 5]);
    assert_eq!((sink.count(), sink.connections()), (5, 3));
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
