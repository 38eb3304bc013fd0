//! Invitations per language: a sendout's and a reminder's `messages` give each respondent the text of the
//! language it is shown (its own, else the sendout's), and every other respondent the sendout's own text; what
//! LOGIN sendouts and unknown codes cannot take is a 400 naming the field. A system test: rounds run here at a
//! chosen `now` (`tests/helpers/worker.rs`) to an SMTP sink.

use serde_json::{json, Value};
use time::OffsetDateTime;

use canvass_domain::delivery::Transports;
use canvass_mail::SmtpMailer;
use canvass_sinks::{SmsSink, SmtpSink};
use canvass_sms::HttpSmsSender;

use crate::helpers::{recipient, spawn_app, subject, text_part, TestApp, PUBLIC};

pub(crate) fn round_to(app: &TestApp, sink: &SmtpSink) -> usize {
    let (mailer, sms) = (SmtpMailer::from_url(&sink.url).unwrap(), HttpSmsSender::new(&SmsSink::start("", "").url));
    app.deliver_round(Transports { email: &mailer, sms: &sms }, OffsetDateTime::now_utc(), PUBLIC, 100).sent
}

/// Each message's recipient and subject, by recipient, from message `from` on.
fn subjects(sink: &SmtpSink, from: usize) -> Vec<(String, String)> {
    let messages = sink.messages();
    let mut seen: Vec<(String, String)> = messages[from..].iter().map(|raw| (recipient(raw), subject(raw))).collect();
    seen.sort();
    seen
}

fn swedish(subject: &str, message: &str) -> Value {
    json!({"sv": {"subject": subject, "message": message}, "fi": {"subject": "Kysely", "message": "Vastaa: {{surveyLink}}"}})
}

#[tokio::test]
async fn each_respondent_gets_the_invitation_and_reminder_of_its_language_and_the_rest_the_sendouts() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
        "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}",
        "language": "en", "messages": swedish("Din åsikt", "Svara: {{surveyLink}}")});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201);
    assert_eq!(sendout["messages"]["sv"], json!({"subject": "Din åsikt", "message": "Svara: {{surveyLink}}"}));
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    assert_eq!(app.get(&base).await.expect(200)["messages"], sendout["messages"], "a read returns them");
    for (contact, language) in [("anna@example.com", json!("sv")), ("bob@example.com", Value::Null)] {
        let person = json!({"contactDetails": contact, "sendMail": true, "language": language});
        app.post(&format!("{base}/respondents"), person).await.expect(201);
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);

    let to = |who: &str, subject: &str| (format!("{who}@example.com"), subject.to_owned());
    assert_eq!(round_to(&app, &sink), 2);
    assert_eq!(subjects(&sink, 0), [to("anna", "Din åsikt"), to("bob", "Your view")]);
    let anna = sink.messages().into_iter().find(|raw| recipient(raw).contains("anna")).unwrap();
    assert!(text_part(&anna).starts_with("Svara: "), "the Swedish message: {anna}");

    // Made once the invitations are sent: a reminder goes to those sent to.
    let reminder = json!({"sendoutLogic": "All", "sendDate": "2020-01-02T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Reminder", "message": "Still time: {{surveyLink}}",
        "messages": swedish("Påminnelse", "Hinner du: {{surveyLink}}")});
    let reminder = app.post(&format!("{base}/reminders"), reminder).await.expect(201);
    assert_eq!(reminder["messages"]["sv"]["subject"], "Påminnelse");

    assert_eq!(round_to(&app, &sink), 2, "the reminders");
    assert_eq!(subjects(&sink, 2), [to("anna", "Påminnelse"), to("bob", "Reminder")]);
}

#[tokio::test]
async fn messages_follow_the_rules_of_subject_and_message_and_login_takes_none() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts");
    let email = |messages: Value| {
        json!({"name": "Invite", "type": "EMAIL", "sendDate": "2040-01-01", "sender": "hr@acme.example",
            "subject": "Your view", "message": "Answer: {{surveyLink}}", "messages": messages})
    };
    let cases = [
        (email(json!({"sv": {"message": "Svara: {{surveyLink}}"}})), "messages.sv.subject"),
        (email(json!({"sv": {"subject": "Hej", "message": "Svara"}})), "messages.sv.message"),
        (email(json!({"sv-SE": {"subject": "Hej", "message": "{{surveyLink}}"}})), "messages.sv-SE"),
        (json!({"name": "Staff", "type": "LOGIN", "messages": {"sv": {"message": "{{surveyLink}}"}}}), "messages"),
        (json!({"name": "Open", "type": "LINK", "messages": {"sv": {"message": "{{surveyLink}}"}}}), "messages"),
    ];
    for (body, field) in cases {
        let reply = app.post(&base, body.clone()).await;
        assert_eq!(reply.fields(), [field], "{body}");
        reply.problem(400, "/validation");
    }
    assert_eq!(app.get(&base).await.expect(200), json!([]), "nothing was stored");
    let login = app.post(&base, json!({"name": "Staff", "type": "LOGIN", "messages": {}})).await.expect(201);
    assert_eq!(login["messages"], json!({}), "an empty object is none");
}
