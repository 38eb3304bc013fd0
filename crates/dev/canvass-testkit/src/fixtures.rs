//! What both suites build over HTTP: the sample survey, a sendout with one respondent, an activated LOGIN or EMAIL
//! sendout; and the small readers of what the server gives back (question ids, a raw message's headers).

use serde_json::{json, Value};

use crate::TestApp;

impl TestApp {
    /// Adds a user of this app's account with `role` (by `email`) and returns a key of its own.
    pub async fn key_with_role(&self, email: &str, role: &str) -> String {
        let user = self.post("/accounts/users", json!({"name": "A member", "email": email, "role": role})).await;
        let id = user.expect(201)["userId"].as_i64().expect("userId");
        let made = self.post(&format!("/accounts/users/{id}/keys"), json!({"name": role})).await.expect(201);
        made["apiKey"].as_str().expect("apiKey").to_owned()
    }

    /// Creates the sample survey of the tests and returns `(surveyId, tree)`.
    pub async fn sample_survey(&self) -> (i64, Value) {
        let survey = self.post("/surveys", sample_survey_body()).await.expect(201);
        let id = survey["surveyId"].as_i64().expect("surveyId");
        let tree = self.get(&format!("/surveys/{id}/questions")).await.expect(200);
        (id, tree)
    }

    /// In the account behind `key`: a survey made of `survey`, a sendout made of `sendout` and one respondent
    /// made of `person`; returns `(surveyId, sendout base path, sendoutId, respondent)`.
    pub async fn one_respondent_sendout(
        &self,
        key: &str,
        survey: Value,
        sendout: Value,
        person: Value,
    ) -> (i64, String, i64, Value) {
        let survey = self.call_as(key, "POST", "/surveys", Some(survey)).await.expect(201)["surveyId"].as_i64();
        let survey = survey.expect("surveyId");
        let path = format!("/surveys/{survey}/sendouts");
        let sendout = self.call_as(key, "POST", &path, Some(sendout)).await.expect(201)["sendoutId"].as_i64();
        let sendout = sendout.expect("sendoutId");
        let base = format!("{path}/{sendout}");
        let respondent = self.call_as(key, "POST", &format!("{base}/respondents"), Some(person)).await.expect(201);
        (survey, base, sendout, respondent)
    }

    /// An active LOGIN sendout of a one-question survey whose one respondent logs in with `identifier`; returns
    /// the sendout's id.
    pub async fn active_login_sendout(&self, identifier: &str) -> i64 {
        let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
        let person = json!({"contactDetails": identifier, "sendMail": false});
        let login = json!({"name": "Login", "type": "LOGIN"});
        let (_, base, sendout, _) = self.one_respondent_sendout(&self.key, survey, login, person).await;
        self.post(&format!("{base}/activate"), json!({})).await.expect(200);
        sendout
    }

    /// An EMAIL sendout (sent from 2020-01-01, in the past) of a survey without required items, with these
    /// respondents, activated; returns the sendout's base path.
    pub async fn activated(&self, contacts: &[String]) -> String {
        let survey = self.post("/surveys", json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap();
        let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
            "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}\nStop: {{optOutLink}}"});
        let sendout = self.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].as_i64();
        let base = format!("/surveys/{survey}/sendouts/{}", sendout.unwrap());
        // A batch holds at most 1,000 respondents.
        for batch in contacts.chunks(1_000) {
            let people: Vec<Value> = batch.iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
            self.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await.expect(200);
        }
        self.post(&format!("{base}/activate"), json!({})).await.expect(200);
        base
    }

    /// The contacts of a sendout's respondents, and its `respondentCount`.
    pub async fn sendout_contacts(&self, survey: i64, sendout: i64) -> (Vec<String>, Value) {
        let listed = self.get(&format!("/surveys/{survey}/sendouts/{sendout}/respondents")).await.expect(200);
        let contacts = listed.as_array().unwrap().iter().map(|r| r["contactDetails"].as_str().unwrap().to_owned());
        let sendout = self.get(&format!("/surveys/{survey}/sendouts/{sendout}")).await.expect(200);
        (contacts.collect(), sendout["respondentCount"].clone())
    }
}

/// A survey of three pages with every question type.
pub fn sample_survey_body() -> Value {
    json!({
        "name": "Pulse",
        "description": "weekly",
        "pages": [
            {"title": "One", "items": [
                {"type": "SingleChoice", "text": "Happy?", "required": true,
                 "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]},
                {"type": "MultipleChoice", "text": "Why?", "options": [{"value": "pay"}, {"value": "team"}]},
                {"type": "Info", "text": "Next, numbers."}
            ]},
            {"title": "Two", "items": [
                {"type": "Numeric", "text": "Hours?"},
                {"type": "Rating", "text": "Rate us", "required": true}
            ]},
            {"title": "Three", "items": [
                {"type": "OpenText", "text": "Anything else?"}
            ]}
        ]
    })
}

/// The id of item `index` of page `page` in a question tree.
pub fn item_id(tree: &Value, page: usize, index: usize) -> i64 {
    tree["pages"][page]["items"][index]["questionItemId"].as_i64().expect("questionItemId")
}

/// The id of page `page` in a question tree.
pub fn page_id(tree: &Value, page: usize) -> i64 {
    tree["pages"][page]["pageId"].as_i64().expect("pageId")
}

/// `count` email addresses starting with `prefix`.
pub fn contacts(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|n| format!("{prefix}{n}@example.com")).collect()
}

/// The `name:` header value of a raw message.
pub fn header<'m>(message: &'m str, name: &str) -> &'m str {
    message.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default()
}
