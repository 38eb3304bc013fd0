//! Timelines: each respondent's events, written with the changes that cause them (added from a list, released,
//! sent with the relay's reply, a page's first view, a page saved, completed; a bounce with the relay's code and reason; a deferral with
//! its reply), read in order per respondent and joined per contact; another account's answer 404, and an erasure
//! takes a person's events with it. A system test: a round runs to an SMTP sink.

use canvass_sinks::{postfix_dsn, SmsSink, SmtpSink};
use serde_json::{json, Value};
use time::{Duration, OffsetDateTime};

use crate::helpers::{
    deliver_on, email_sendout, header, item_id, page_id, post_dsn, spawn_app, TestApp, DSN_SECRET, USER_UNKNOWN,
};
use crate::system::invitation_languages::round_to;
use crate::system::sendout_counts::run_retention;

fn types(events: &Value) -> Vec<&str> {
    events.as_array().unwrap().iter().map(|event| event["type"].as_str().unwrap()).collect()
}

async fn respondents(app: &TestApp, base: &str) -> Vec<Value> {
    app.get(&format!("{base}/respondents")).await.expect(200).as_array().unwrap().clone()
}

#[tokio::test]
async fn each_respondent_has_its_events_in_order_and_a_contact_joins_its_respondents() {
    let app = spawn_app().await;
    let body = json!({"name": "Pulse", "pages": [{"items": [{"type": "OpenText", "text": "Anything?"}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let sendout = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
        "sender": "hr@acme.example", "subject": "Hi", "message": "{{surveyLink}}"});
    let id = app.post(&format!("/surveys/{survey}/sendouts"), sendout.clone()).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{id}");
    let anna = app.post("/contacts", json!({"email": "anna@example.com"})).await.expect(201)["contactId"].clone();
    let list = app.post("/contact-lists", json!({"name": "All"})).await.expect(201)["listId"].clone();
    app.post(&format!("/contact-lists/{list}/members"), json!({"contactIds": [anna]})).await.expect(200);
    app.post(&format!("{base}/respondents/from-list"), json!({"listId": list})).await.expect(200);
    for contact in ["gone@example.com", "later@example.com"] {
        app.post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true}))
            .await
            .expect(201);
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let sink = SmtpSink::start("gone@", "later@");
    assert_eq!(round_to(&app, &sink), 1);

    let people = respondents(&app, &base).await;
    let events = |respondent: &Value| format!("{base}/respondents/{}/events", respondent["respondentId"]);
    let link = people[0]["surveyLink"].as_str().unwrap().replace(&app.address, "");
    for _ in 0..2 {
        app.client.get(format!("{}{link}", app.address)).send().await.unwrap();
    }
    let form =
        [("page".to_owned(), page_id(&tree, 0).to_string()), (format!("q{}", item_id(&tree, 0, 0)), "No".into())];
    let answered = app.client.post(format!("{}{link}", app.address)).form(&form).send().await.unwrap();
    assert_eq!(answered.status(), 200);

    let timeline = app.get(&events(&people[0])).await.expect(200);
    assert_eq!(types(&timeline), ["added", "released", "sent", "pageViewed", "pageSaved", "completed"]);
    assert_eq!(timeline[3]["detail"], json!({"pageId": page_id(&tree, 0)}), "one first view of two");
    assert_eq!(timeline[2]["detail"]["channel"], "EMAIL");
    assert!(timeline[2]["detail"]["reply"].as_str().unwrap().starts_with("250 "), "the relay's reply: {timeline}");
    assert_eq!(timeline[0]["detail"], Value::Null);
    let bounced = app.get(&events(&people[1])).await.expect(200);
    assert_eq!(types(&bounced), ["added", "released", "bounced"]);
    assert_eq!(bounced[2]["detail"]["code"], "550");
    assert!(bounced[2]["detail"]["reason"].as_str().unwrap().starts_with("550"), "{bounced}");
    let deferred = app.get(&events(&people[2])).await.expect(200);
    assert_eq!(types(&deferred), ["added", "released", "deferred"]);
    assert!(deferred[2]["detail"]["reply"].as_str().unwrap().starts_with("4"), "{deferred}");
    assert!(deferred[2]["detail"]["nextAttemptAt"].is_string());

    // A second sendout of the same list: the contact's timeline joins both respondents, in time order.
    let second = app.post(&format!("/surveys/{survey}/sendouts"), sendout).await.expect(201)["sendoutId"].clone();
    let second_base = format!("/surveys/{survey}/sendouts/{second}");
    app.post(&format!("{second_base}/respondents/from-list"), json!({"listId": list})).await.expect(200);
    let joined = app.get(&format!("/contacts/{anna}/events")).await.expect(200);
    assert_eq!(types(&joined), ["added", "released", "sent", "pageViewed", "pageSaved", "completed", "added"]);
    assert_eq!((&joined[6]["sendoutId"], &joined[0]["respondentId"]), (&second, &people[0]["respondentId"]));
    let ats: Vec<&str> = joined.as_array().unwrap().iter().map(|e| e["at"].as_str().unwrap()).collect();
    assert!(ats.windows(2).all(|pair| pair[0] <= pair[1]), "in time order: {ats:?}");

    let (_, other) = app.new_account("Other", "owner@other.example");
    app.call_as(&other, "GET", &events(&people[0]), None).await.problem(404, "/not-found");
    app.call_as(&other, "GET", &format!("/contacts/{anna}/events"), None).await.problem(404, "/not-found");
    let wrong_sendout = format!("{second_base}/respondents/{}/events", people[0]["respondentId"]);
    app.get(&wrong_sendout).await.problem(404, "/not-found");

    app.post("/accounts/erasure", json!({"contactDetails": "gone@example.com"})).await.expect(200);
    app.get(&events(&people[1])).await.problem(404, "/not-found");
    let gone = people[1]["respondentId"].as_i64().unwrap();
    assert_eq!(events_stored(&app, &[gone]), 0, "the erased person's events are gone");
}

#[tokio::test]
async fn a_text_message_sent_keeps_the_providers_answer() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].clone();
    let body = json!({"name": "Text", "type": "SMS", "sendDate": "2020-01-01", "sender": "Acme",
        "message": "Answer: {{surveyLink}}"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people = json!({"surveyRespondents": [{"contactDetails": "+4791234567", "sendMail": true}]});
    app.post(&format!("{base}/respondents/batch"), people).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let report = deliver_on(&app, &SmtpSink::start("", "").url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!(report.sent, 1);

    let respondent = &respondents(&app, &base).await[0];
    let timeline = app.get(&format!("{base}/respondents/{}/events", respondent["respondentId"])).await.expect(200);
    assert_eq!(types(&timeline), ["added", "released", "sent"]);
    assert_eq!(timeline[2]["detail"]["channel"], "SMS");
    assert!(timeline[2]["detail"]["reply"].as_str().unwrap().starts_with("SMS endpoint answered 2"), "{timeline}");
}

#[tokio::test]
async fn a_sent_message_is_its_own_event_through_reminders_a_late_bounce_and_erasure() {
    let app = spawn_app().await;
    let end = OffsetDateTime::now_utc() + Duration::days(1);
    let survey = crate::helpers::survey_ending(&app, end).await;
    let mut sendout = email_sendout();
    sendout["sendDate"] = json!("2020-01-01T08:00:00Z");
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), sendout).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people = json!({"surveyRespondents": [{"contactDetails": "kept@example.com", "sendMail": true},
        {"contactDetails": "gone@example.com", "sendMail": true}]});
    app.post(&format!("{base}/respondents/batch"), people).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let sink = SmtpSink::start("", "");
    let deliver = || deliver_on(&app, &sink.url, &SmsSink::start("", "").url, OffsetDateTime::now_utc());
    assert_eq!(deliver().sent, 2);
    let invitation_to_gone = sink
        .messages()
        .iter()
        .find(|message| header(message, "To:").contains("gone@"))
        .map(|message| header(message, "Message-ID:").to_owned())
        .unwrap();
    let reminder = json!({"sendoutLogic": "NotCompleted", "sendDate": "2020-02-01", "sender": "hr@acme.example",
        "subject": "Reminder", "message": "Please: {{surveyLink}}"});
    app.post(&format!("{base}/reminders"), reminder).await.expect(201);
    assert_eq!(deliver().sent, 2, "the reminders");
    let failed = postfix_dsn(&invitation_to_gone, "gone@example.com", "failed", "5.1.1", USER_UNKNOWN);
    assert_eq!(post_dsn(&app, Some(DSN_SECRET), failed).await.0, 200);

    let people = respondents(&app, &base).await;
    let events = |respondent: &Value| format!("{base}/respondents/{}/events", respondent["respondentId"]);
    let kept = app.get(&events(&people[0])).await.expect(200);
    assert_eq!(types(&kept), ["added", "released", "sent", "reminderSent"]);
    assert_eq!(kept[3]["detail"]["channel"], "EMAIL");
    assert!(kept[3]["detail"]["reply"].as_str().unwrap().starts_with("250 "), "the relay's reply: {kept}");
    assert!(kept[2]["at"].as_str() < kept[3]["at"].as_str(), "{kept}");
    let gone = app.get(&events(&people[1])).await.expect(200);
    assert_eq!(types(&gone), ["added", "released", "sent", "reminderSent", "bounced"], "a late bounce keeps its send");
    let ids: Vec<i64> = people.iter().map(|person| person["respondentId"].as_i64().unwrap()).collect();
    assert_eq!(events_stored(&app, &ids), 5, "two added, two released and a bounce: a sent message is no row");
    let held = app.get("/accounts/persons?contactDetails=kept%40example.com").await.expect(200);
    assert_eq!(types(&held["respondents"][0]["events"]), ["added", "released", "sent", "reminderSent"], "{held}");

    // Retention erases the respondents' contact details, and their timelines with them, sent messages included.
    app.post("/data-retention/account", json!({"partialDeleteAfterDays": 1, "completeDeleteAfterDays": 100}))
        .await
        .expect(200);
    let erased = run_retention(&app, end + Duration::days(2));
    assert_eq!(erased.respondents_erased, 2);
    assert_eq!(app.get(&events(&people[0])).await.expect(200), json!([]));
    assert_eq!(app.get(&events(&people[1])).await.expect(200), json!([]));
}

/// How many timeline events are stored for the respondents, read with SQL: a respondent removed has no events left.
pub(crate) fn events_stored(app: &TestApp, respondents: &[i64]) -> i64 {
    let query = diesel::sql_query("SELECT count(*) AS count FROM respondent_events WHERE respondent_id = ANY ($1)")
        .bind::<diesel::sql_types::Array<diesel::sql_types::BigInt>, _>(respondents);
    diesel::RunQueryDsl::get_result::<Count>(query, &mut app.db.connect()).unwrap().count
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    count: i64,
}
