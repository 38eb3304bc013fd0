//! Benchmark: invitations per second through the outbox (claim, render, send over SMTP, record) to a local SMTP
//! sink, against a bare loop that sends the same messages with lettre to the same sink. Run with `just bench`;
//! `BENCH_MESSAGES` sets the count (default 1000).

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::time::Instant;

use canvass_domain::clock::SystemClock;
use canvass_domain::delivery::{Mailer, OutgoingMessage, Transports};
use canvass_domain::distribution::{DispatchType, MessageInput, RespondentInput, SendoutInput};
use canvass_domain::survey::SurveyInput;
use canvass_domain::use_cases::delivery::{deliver_due, LEASE};
use canvass_domain::use_cases::{accounts, respondents, sendouts, surveys};
use canvass_mail::SmtpMailer;
use canvass_postgres::PgUnitOfWork;
use canvass_sinks::SmtpSink;
use canvass_sms::FileSmsSender;
use canvass_testdb::TestDatabase;
use time::OffsetDateTime;

fn main() {
    let count: usize = std::env::var("BENCH_MESSAGES").ok().and_then(|n| n.parse().ok()).unwrap_or(1000);
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let clock = SystemClock;
    let mut uow = PgUnitOfWork::new(&mut conn);
    let account = accounts::create_account(&mut uow, &clock, "Bench", "b@bench.example").unwrap().account_id;
    let survey =
        surveys::create(&mut uow, &clock, account, SurveyInput { name: "Bench".into(), ..Default::default() }).unwrap();
    let message = MessageInput {
        send_date: Some(OffsetDateTime::now_utc()),
        sender: Some("hr@bench.example".into()),
        subject: Some("Your view".into()),
        message: Some("Hello, answer here: {{surveyLink}}\nOpt out: {{optOutLink}}".into()),
    };
    let input = SendoutInput { name: "Bench".into(), kind: DispatchType::Email, message, expiry_date: None };
    let sendout = sendouts::create(&mut uow, &clock, account, survey.id, input).unwrap();
    for chunk in (0..count).collect::<Vec<_>>().chunks(1000) {
        let people = chunk
            .iter()
            .map(|n| RespondentInput {
                contact_details: format!("person{n}@bench.example"),
                send_mail: true,
                background_data: Default::default(),
            })
            .collect();
        respondents::add_batch(&mut uow, &clock, account, survey.id, sendout.id, people).unwrap();
    }
    sendouts::activate(&mut uow, &clock, account, survey.id, sendout.id).unwrap();

    let sink = SmtpSink::start("", "");
    let mailer = SmtpMailer::from_url(&sink.url).unwrap();
    let sms = FileSmsSender::new(std::env::temp_dir().join("canvass-bench-sms")).unwrap();
    let transports = Transports { email: &mailer, sms: &sms };
    let started = Instant::now();
    loop {
        let now = OffsetDateTime::now_utc();
        let report = deliver_due(&mut uow, transports, now, "https://bench.example", 100, LEASE).unwrap();
        if report.claimed == 0 {
            break;
        }
    }
    let outbox = started.elapsed();
    assert_eq!(sink.count(), count);

    let bare_sink = SmtpSink::start("", "");
    let bare_mailer = SmtpMailer::from_url(&bare_sink.url).unwrap();
    let started = Instant::now();
    for n in 0..count {
        let message = OutgoingMessage {
            idempotency_key: format!("bare-{n}"),
            to: format!("person{n}@bench.example"),
            from: "hr@bench.example".into(),
            subject: Some("Your view".into()),
            body: format!(
                "Hello, answer here: https://bench.example/r/{n}\nOpt out: https://bench.example/r/{n}/opt-out"
            ),
        };
        bare_mailer.send(&message).unwrap();
    }
    let bare = started.elapsed();
    assert_eq!(bare_sink.count(), count);

    println!("delivery of {count} invitations to a local SMTP sink:");
    println!(
        "  through the outbox: {:8.2} s  ({:.0} messages/s)",
        outbox.as_secs_f64(),
        count as f64 / outbox.as_secs_f64()
    );
    println!(
        "  bare lettre loop:   {:8.2} s  ({:.0} messages/s)",
        bare.as_secs_f64(),
        count as f64 / bare.as_secs_f64()
    );
    println!("  ratio outbox / bare: {:7.2}", outbox.as_secs_f64() / bare.as_secs_f64());
}
