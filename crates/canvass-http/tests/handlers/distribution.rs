//! The distribution routes over the in-memory store: sendouts, their respondents and the blocklist are kept and
//! read back, each account sees only its own, and what a request leaves in the store is what it answered.

use actix_web::http::Method;
use canvass_domain::distribution::{RespondentStatus, SendoutStatus};
use canvass_domain::testing::NOW;
use canvass_http::problem::ProblemKind;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;

use super::support::{as_key, TestApp};

/// An instant relative to the application's clock, as the API writes it.
pub fn at(offset: time::Duration) -> String {
    (NOW + offset).format(&Rfc3339).unwrap_or_default()
}

/// A survey of the seeded account with one page of one required open-text item; its id.
pub async fn survey(app: &TestApp) -> i64 {
    let body = json!({"name": "Pulse", "pages": [
        {"title": "One", "items": [{"type": "OpenText", "text": "How was the week?", "required": true}]},
        {"title": "Two", "items": [{"type": "Numeric", "text": "Hours worked?"}]}
    ]});
    app.post("/surveys", &body).await.expect(201)["surveyId"].as_i64().unwrap_or(0)
}

/// An EMAIL sendout of the survey, sent at the clock's instant; its id.
pub async fn email_sendout(app: &TestApp, survey: i64) -> i64 {
    let body = json!({"name": "Wave", "type": "EMAIL", "sendDate": at(time::Duration::ZERO),
        "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}"});
    app.post(&format!("/surveys/{survey}/sendouts"), &body).await.expect(201)["sendoutId"].as_i64().unwrap_or(0)
}

/// Adds a respondent; the whole answer.
pub async fn add(app: &TestApp, survey: i64, sendout: i64, contact: &str) -> super::support::Reply {
    let body = json!({"contactDetails": contact, "sendMail": true});
    app.post(&format!("/surveys/{survey}/sendouts/{sendout}/respondents"), &body).await
}

fn statuses(app: &TestApp) -> Vec<(String, RespondentStatus)> {
    let rows = app.store.inspect(|memory| memory.respondent_rows());
    rows.into_iter().map(|row| (row.contact_details, row.status)).collect()
}

#[actix_web::test]
async fn a_sendout_keeps_its_respondents_and_activating_it_queues_their_invitations() {
    let app = TestApp::new().await;
    let survey = survey(&app).await;
    let sendout = email_sendout(&app, survey).await;

    let ann = add(&app, survey, sendout, " Ann@Example.com ").await.expect(201);
    assert_eq!((ann["contactDetails"].as_str(), ann["status"].as_str()), (Some("Ann@Example.com"), Some("Pending")));
    assert!(ann["surveyLink"].as_str().unwrap_or_default().starts_with("https://canvass.test/r/1-"), "{ann}");
    add(&app, survey, sendout, "ANN@example.com").await.problem(ProblemKind::Duplicate);
    add(&app, survey, sendout, "bob@example.com").await.expect(201);

    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let listed = app.get(&format!("{base}/respondents")).await.expect(200);
    let contacts: Vec<&str> =
        listed.as_array().into_iter().flatten().filter_map(|r| r["contactDetails"].as_str()).collect();
    assert_eq!(contacts, ["Ann@Example.com", "bob@example.com"]);
    let read = app.get(&base).await.expect(200);
    assert_eq!((read["respondentCount"].as_i64(), read["pendingCount"].as_i64()), (Some(2), Some(2)));

    let activated = app.post(&format!("{base}/activate"), &json!({})).await.expect(200);
    assert_eq!((activated["status"].as_str(), activated["pendingCount"].as_i64()), (Some("Active"), Some(0)));
    let kept = app.store.inspect(|memory| (memory.state.sendouts[0].1.status, memory.state.outbox.len()));
    assert_eq!(kept, (SendoutStatus::Active, 2), "one invitation queued for each respondent");
    assert!(statuses(&app).iter().all(|(_, status)| *status == RespondentStatus::Scheduled));
}

#[actix_web::test]
async fn a_blocklisted_contact_is_not_sent_to_and_cannot_be_added_until_it_leaves_the_list() {
    let app = TestApp::new().await;
    let survey = survey(&app).await;
    let sendout = email_sendout(&app, survey).await;
    add(&app, survey, sendout, "ann@example.com").await.expect(201);

    let entry = app.post("/accounts/blocklist", &json!({"contactDetails": "Ann@Example.com", "type": "Blocked"})).await;
    assert_eq!(entry.expect(201)["type"], "Blocked");
    app.post("/accounts/blocklist", &json!({"contactDetails": "ann@example.com", "type": "OptedOut"}))
        .await
        .problem(ProblemKind::Duplicate);
    assert_eq!(statuses(&app), [("ann@example.com".to_owned(), RespondentStatus::Blocklisted)]);
    add(&app, survey, sendout, "ANN@example.com").await.problem(ProblemKind::Blocklisted);
    let listed = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(listed.as_array().map(Vec::len), Some(1));

    let removed = app.call(app.api(Method::DELETE, "/accounts/blocklist/ann@example.com")).await;
    assert_eq!(removed.status.as_u16(), 204);
    assert!(app.store.inspect(|memory| memory.state.blocklist.is_empty()));
    app.call(app.api(Method::DELETE, "/accounts/blocklist/ann@example.com")).await.problem(ProblemKind::NotFound);
    let second = email_sendout(&app, survey).await;
    add(&app, survey, second, "ann@example.com").await.expect(201);
}

#[actix_web::test]
async fn another_accounts_sendouts_respondents_and_blocklist_answer_as_missing_ones() {
    let app = TestApp::new().await;
    let survey = survey(&app).await;
    let sendout = email_sendout(&app, survey).await;
    let ann = add(&app, survey, sendout, "ann@example.com").await.expect(201);
    app.post("/accounts/blocklist", &json!({"contactDetails": "carol@example.com", "type": "Blocked"}))
        .await
        .expect(201);
    let other = app.other_account("Other", "owner@other.example");
    let base = format!("/surveys/{survey}/sendouts/{sendout}");

    for path in [base.clone(), format!("{base}/respondents"), format!("/surveys/{survey}/sendouts")] {
        app.call(as_key(&other, Method::GET, &path)).await.problem(ProblemKind::NotFound);
    }
    let theirs = as_key(&other, Method::POST, &format!("{base}/respondents"))
        .set_json(json!({"contactDetails": "dan@example.com", "sendMail": true}));
    app.call(theirs).await.problem(ProblemKind::NotFound);
    app.call(as_key(&other, Method::POST, &format!("{base}/activate")).set_json(json!({})))
        .await
        .problem(ProblemKind::NotFound);
    let their_list = app.call(as_key(&other, Method::GET, "/accounts/blocklist")).await.expect(200);
    assert_eq!(their_list, json!([]));
    app.call(as_key(&other, Method::DELETE, "/accounts/blocklist/carol@example.com"))
        .await
        .problem(ProblemKind::NotFound);

    let kept = app.store.inspect(|memory| (memory.respondent_rows().len(), memory.state.blocklist.len()));
    assert_eq!(kept, (1, 1), "nothing of Acme's changed");
    let sendout_status = app.get(&base).await.expect(200)["status"].clone();
    assert_eq!(sendout_status, Value::from("Draft"));
    assert_eq!(ann["status"], "Pending");
}
