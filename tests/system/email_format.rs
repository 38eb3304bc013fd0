//! What an invitation looks like on the wire: `multipart/alternative` with the user's text escaped in the HTML
//! part, RFC 8058 one-click unsubscribe headers whose POST opts the contact out with no cookie and no Origin, and
//! a Message-ID with no ids in it that stays the same across retries.
//! A system test: rounds run here at a chosen `now` (`tests/helpers/worker.rs`), and the Message-ID checked against
//! the outbox row with SQL.

use diesel::prelude::*;
use diesel::sql_types::Text;
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;

use crate::helpers::{header, html_part, spawn_app, text_part, TestApp, PUBLIC};

fn round_to(app: &TestApp, sink: &SmtpSink, now: OffsetDateTime) -> usize {
    let (mailer, sms) = (SmtpMailer::from_url(&sink.url).unwrap(), HttpSmsSender::new(&SmsSink::start("", "").url));
    app.deliver_round(Transports { email: &mailer, sms: &sms }, now, PUBLIC, 100).sent
}

/// An activated EMAIL sendout with `message` to `contact`; returns the sendout's path and the respondent.
async fn invitation(app: &TestApp, message: &str, contact: &str) -> (String, Value) {
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Your view", "message": message});
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let person = app.post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true})).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    (base, person.expect(201))
}

#[tokio::test]
async fn an_invitation_is_text_and_escaped_html_with_one_click_unsubscribe() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let message = "Dear <b>team</b> & friends,\nanswer here: {{surveyLink}}\nStop: {{optOutLink}}";
    let (_, person) = invitation(&app, message, "ann@example.com").await;
    assert_eq!(round_to(&app, &sink, OffsetDateTime::now_utc()), 1);
    let raw = &sink.messages()[0];
    let link = format!("{PUBLIC}/r/{}", person["surveyLink"].as_str().unwrap().rsplit('/').next().unwrap());
    let opt_out = format!("{link}/opt-out");

    assert!(header(raw, "Content-Type:").starts_with("multipart/alternative"), "{raw}");
    let (text, html) = (text_part(raw), html_part(raw));
    assert!(text.contains("Dear <b>team</b> & friends,") && text.contains(&link) && text.contains(&opt_out), "{text}");
    assert!(html.contains("Dear &lt;b&gt;team&lt;/b&gt; &amp; friends,"), "user text is escaped: {html}");
    assert!(!html.contains("<b>"), "{html}");
    assert!(html.contains(&format!("<a href=\"{link}\">")) && html.contains(&format!("<a href=\"{opt_out}\">")));
    assert_eq!(header(raw, "List-Unsubscribe:"), format!("<{opt_out}>"));
    assert_eq!(header(raw, "List-Unsubscribe-Post:"), "List-Unsubscribe=One-Click");
}

#[tokio::test]
async fn the_one_click_post_opts_the_contact_out_without_cookie_or_origin() {
    let app = spawn_app().await;
    let (_, person) = invitation(&app, "Answer: {{surveyLink}}", "Bob@Example.com").await;
    let token = person["surveyLink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    // What a mailbox provider's server sends: the form body and nothing else.
    let response = reqwest::Client::new()
        .post(format!("{}/r/{token}/opt-out", app.address))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let blocklist = app.get("/accounts/blocklist").await.expect(200);
    let entries = blocklist.as_array().unwrap();
    assert_eq!(entries.len(), 1, "{blocklist}");
    assert_eq!(entries[0]["type"], "OptedOut");
    assert_eq!(entries[0]["contactDetails"].as_str().map(str::to_lowercase).as_deref(), Some("bob@example.com"));
}

#[derive(QueryableByName)]
struct Token {
    #[diesel(sql_type = Text)]
    message_token: String,
}

fn token_of(app: &TestApp, contact: &str) -> String {
    diesel::sql_query(
        "SELECT o.message_token FROM outbox o JOIN respondents r ON r.account_id = o.account_id \
         AND r.id = o.respondent_id WHERE r.contact_details = $1",
    )
    .bind::<Text, _>(contact)
    .get_result::<Token>(&mut app.db.connect())
    .unwrap()
    .message_token
}

#[tokio::test]
async fn the_message_id_names_no_ids_and_survives_a_retry() {
    let app = spawn_app().await;
    let (_, person) = invitation(&app, "Answer: {{surveyLink}}", "later@example.com").await;
    let token = || token_of(&app, "later@example.com");
    let before = token();
    let now = OffsetDateTime::now_utc();
    assert_eq!(round_to(&app, &SmtpSink::start("", "later@"), now), 0, "a 4xx puts it off");
    let sink = SmtpSink::start("", "");
    assert_eq!(round_to(&app, &sink, now + Duration::hours(1)), 1);
    let message_id = header(&sink.messages()[0], "Message-ID:").to_owned();
    assert_eq!(before, token(), "the token is kept across attempts");
    assert_eq!(message_id, format!("<{before}@survey.example>"));
    assert!(before.len() == 32 && before.bytes().all(|b| b.is_ascii_hexdigit()), "random, no ids: {before}");
    let (_, other) = invitation(&app, "Answer: {{surveyLink}}", "other@example.com").await;
    assert_ne!(other["respondentId"], person["respondentId"]);
    assert_ne!(token_of(&app, "other@example.com"), before, "each message has its own");
}
