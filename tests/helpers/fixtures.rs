//! Fixtures over HTTP that tests in several folders share: sendouts, answered respondents, activated sendouts,
//! replies to the SMS inbound endpoint and delivery status notifications.

use serde_json::{json, Value};

use super::{item_id, TestApp};

/// Creates the sample survey with its end date at `end`; returns its id (retention's deadlines count from it).
pub async fn survey_ending(app: &TestApp, end: time::OffsetDateTime) -> i64 {
    let mut body = super::sample_survey_body();
    body["endDate"] = json!(end.format(&time::format_description::well_known::Rfc3339).unwrap());
    app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap()
}

/// A valid EMAIL sendout body.
pub fn email_sendout() -> Value {
    json!({"name": "Invite", "type": "EMAIL", "sendDate": "2099-12-01T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Your opinion", "message": "Hello, answer here: {{surveyLink}} (opt out: {{optOutLink}})",
        "expiryDate": "2099-12-15"})
}

/// Creates a survey and a sendout of it; returns `(surveyId, sendoutId)`.
pub async fn survey_with_sendout(app: &TestApp, body: Value) -> (i64, i64) {
    let (survey, _) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201);
    (survey, sendout["sendoutId"].as_i64().unwrap())
}

/// A sendout of `survey` with one respondent who answered; returns `(sendout, respondent, answer set)`.
pub async fn answered(app: &TestApp, survey: i64, tree: &Value, contact: &str) -> (i64, i64, i64) {
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201)["sendoutId"]
        .as_i64()
        .unwrap();
    let respondent = app
        .post(
            &format!("/surveys/{survey}/sendouts/{sendout}/respondents"),
            json!({"contactDetails": contact, "sendMail": true}),
        )
        .await
        .expect(201)["respondentId"]
        .as_i64()
        .unwrap();
    let answers =
        json!({"respondentId": respondent, "answers": [{"questionItemId": item_id(tree, 0, 0), "value": "yes"}]});
    let set =
        app.post(&format!("/surveys/{survey}/answers"), answers).await.expect(201)["answerSetId"].as_i64().unwrap();
    (sendout, respondent, set)
}

/// An EMAIL sendout (sent from 2020-01-01) of a survey without required items, with these respondents,
/// activated; returns `(survey, sendout base path, respondents by contact)`.
pub async fn activated(app: &TestApp, contacts: &[&str], expiry: Option<&str>) -> (i64, String, Vec<Value>) {
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let mut body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z", "sender": "hr@acme.example",
        "subject": "Your view", "message": "Answer: {{surveyLink}}\nStop: {{optOutLink}}"});
    if let Some(expiry) = expiry {
        body["expiryDate"] = json!(expiry);
    }
    let sendout =
        app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let people: Vec<Value> = contacts.iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
    let added = app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    (survey, base, added["added"].as_array().unwrap().clone())
}

/// A reply to `POST /sms/inbound` with this secret; returns the status and the JSON body.
pub async fn inbound(app: &TestApp, secret: &str, body: Value) -> (u16, Value) {
    let response = app
        .client
        .post(format!("{}/sms/inbound", app.address))
        .header("X-Canvass-Sms-Secret", secret)
        .json(&body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// A key of the right shape that no account has.
pub fn unknown_key() -> String {
    format!("cvs_{:064x}", std::time::Instant::now().elapsed().as_nanos() ^ 0x5eed_5eed_5eed)
}

/// The diagnostic a relay gives for an unknown mailbox.
pub const USER_UNKNOWN: &str = "smtp; 550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown";

/// A delivery status notification to `POST /inbound/dsn`, with this secret if any; returns the status and the JSON
/// body.
pub async fn post_dsn(app: &TestApp, secret: Option<&str>, body: String) -> (u16, Value) {
    let mut request =
        app.client.post(format!("{}/inbound/dsn", app.address)).header("Content-Type", "message/rfc822").body(body);
    if let Some(secret) = secret {
        request = request.header("X-Canvass-Inbound-Secret", secret);
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// An erasure's answer without its `receiptId` (which every erasure has, a number): its counts only.
pub fn erased_counts(erased: Value) -> Value {
    let mut counts = erased;
    let receipt = counts.as_object_mut().and_then(|fields| fields.remove("receiptId"));
    assert!(receipt.as_ref().is_some_and(Value::is_i64), "an erasure answers its receipt: {receipt:?}");
    counts
}
