//! Personal invitations: `{{firstName|default}}`, `{{lastName}}`, `{{contact.<attribute>}}` and
//! `{{bg.<label name>}}` in a sendout's subject and message are filled from the respondent's contact and background
//! data (defaults where a value is missing), escaped in the HTML part, one line in the subject; `preview` shows
//! the same text before anything is sent; a placeholder that is none of these is a 400 at creation listing it.
//! A system test: a round runs to an SMTP sink.

use canvass_sinks::SmtpSink;
use serde_json::{json, Value};

use crate::helpers::{html_part, recipient, spawn_app, subject, text_part, TestApp};
use crate::system::invitation_languages::round_to;

const MESSAGE: &str = "Dear {{firstName|there}} {{lastName}} ({{bg.region}}, {{contact.tier|no tier}}): {{surveyLink}}";

async fn contact(app: &TestApp, body: Value) -> i64 {
    app.post("/contacts", body).await.expect(201)["contactId"].as_i64().unwrap()
}

#[tokio::test]
async fn each_invitation_is_filled_from_its_contact_and_previewed_as_sent() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
        "sender": "hr@acme.example", "subject": "Hi {{firstName|there}}", "message": MESSAGE});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    app.post(&format!("{base}/labels"), json!({"name": "region", "labelType": "Text"})).await.expect(201);
    let anna = contact(
        &app,
        json!({"email": "anna@example.com", "firstName": "Anna", "lastName": "<b>Berg</b>",
        "attributes": {"tier": "gold", "region": "North"}}),
    )
    .await;
    let eve = contact(&app, json!({"email": "eve@example.com", "firstName": "Eve\r\nBcc: all@example.com"})).await;
    let bo = contact(&app, json!({"email": "bo@example.com"})).await;
    let list = app.post("/contact-lists", json!({"name": "All"})).await.expect(201)["listId"].clone();
    app.post(&format!("/contact-lists/{list}/members"), json!({"contactIds": [anna, eve, bo]})).await.expect(200);
    app.post(&format!("{base}/respondents/from-list"), json!({"listId": list})).await.expect(200);
    let respondents = app.get(&format!("{base}/respondents")).await.expect(200);
    let respondent_of = |email: &str| {
        let found = respondents.as_array().unwrap().iter().find(|r| r["contactDetails"] == email).unwrap();
        (found["respondentId"].clone(), found["surveyLink"].as_str().unwrap().to_owned())
    };

    let (anna_id, anna_link) = respondent_of("anna@example.com");
    let preview = app.post(&format!("{base}/preview"), json!({"respondentId": anna_id})).await.expect(200);
    assert_eq!(preview["subject"], "Hi Anna");
    assert_eq!(preview["text"], format!("Dear Anna <b>Berg</b> (North, gold): {anna_link}"));
    let (bo_id, bo_link) = respondent_of("bo@example.com");
    let preview = app.post(&format!("{base}/preview"), json!({"respondentId": bo_id})).await.expect(200);
    assert_eq!(
        (&preview["subject"], &preview["text"]),
        (&json!("Hi there"), &json!(format!("Dear there  (, no tier): {bo_link}")))
    );
    app.post(&format!("{base}/preview"), json!({"respondentId": 999_999})).await.problem(404, "/not-found");

    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let sink = SmtpSink::start("", "");
    assert_eq!(round_to(&app, &sink), 3);
    let messages = sink.messages();
    let to = |who: &str| messages.iter().find(|raw| recipient(raw).starts_with(who)).unwrap().clone();
    let anna_mail = to("anna@");
    assert_eq!(subject(&anna_mail), "Hi Anna");
    assert!(text_part(&anna_mail).contains("Dear Anna <b>Berg</b> (North, gold)"), "the text part as written");
    assert!(html_part(&anna_mail).contains("Dear Anna &lt;b&gt;Berg&lt;/b&gt; (North, gold)"), "the HTML part escaped");
    let eve_mail = to("eve@");
    assert_eq!(subject(&eve_mail), "Hi Eve  Bcc: all@example.com", "a value cannot add a header line");
    assert!(!eve_mail.lines().any(|line| line.starts_with("Bcc:")));
}

#[tokio::test]
async fn a_placeholder_that_is_none_of_them_is_a_400_listing_it() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let body = json!({"name": "Invite", "type": "SMS", "sendDate": "2020-01-01T08:00:00Z", "sender": "Acme",
        "message": "Hi {{fristName}} {{contact.tier}} {{bg.Office|-}}: {{surveyLink}} {{optout}}"});
    let refused = app.post(&format!("/surveys/{survey}/sendouts"), body).await.problem(400, "/validation");
    assert_eq!(refused["errors"][0]["field"], "message");
    assert!(refused["errors"][0]["message"].as_str().unwrap().ends_with(": {{fristName}}, {{optout}}"));
    let login = json!({"name": "Staff", "type": "LOGIN"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), login).await.expect(201)["sendoutId"].clone();
    let preview = format!("/surveys/{survey}/sendouts/{sendout}/preview");
    app.post(&preview, json!({"respondentId": 1})).await.problem(409, "/no-invitation");
}
