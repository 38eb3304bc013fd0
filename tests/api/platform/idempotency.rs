//! `Idempotency-Key` on POSTs under `/api`: replays, concurrent repeats, another body, other accounts, invalid
//! keys, kept client errors, unkeyed POSTs. The store's expiry and purge with a fixed clock are the adapter's tests
//! (crates/canvass-postgres/tests/adapter/idempotency.rs).

use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{email_sendout, sample_survey_body, spawn_app, survey_with_sendout, TestApp};

/// A raw answer: status, headers and body bytes.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn replayed(&self) -> bool {
        self.headers.get("idempotent-replayed").is_some_and(|v| v == "true")
    }

    fn content_type(&self) -> &str {
        self.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default()
    }

    #[track_caller]
    fn problem(&self, status: u16, type_ending: &str) -> Value {
        assert_eq!(self.status.as_u16(), status, "{}", String::from_utf8_lossy(&self.body));
        assert_eq!(self.content_type(), "application/problem+json");
        let body = self.json();
        assert!(body["type"].as_str().unwrap_or_default().ends_with(type_ending), "{body}");
        body
    }
}

/// POSTs `body` to `/api/v1{path}` as the holder of `api_key`, with `key` as the Idempotency-Key (raw bytes).
async fn post(app: &TestApp, api_key: &str, path: &str, key: Option<&[u8]>, body: &Value) -> Answer {
    let mut request = app.client.post(format!("{}/api/v1{path}", app.address)).header("X-API-KEY", api_key).json(body);
    if let Some(key) = key {
        request = request.header("Idempotency-Key", HeaderValue::from_bytes(key).unwrap());
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    Answer { status, headers, body: response.bytes().await.unwrap().to_vec() }
}

async fn survey_count(app: &TestApp) -> usize {
    app.get("/surveys").await.expect(200).as_array().unwrap().len()
}

#[tokio::test]
async fn a_batch_posted_twice_with_one_key_adds_its_respondents_once() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}/respondents");
    let batch = json!({"surveyRespondents": [
        {"contactDetails": "a@example.com", "sendMail": true},
        {"contactDetails": "b@example.com", "sendMail": true}
    ]});
    let first = post(&app, &app.key, &format!("{base}/batch"), Some(b"batch-1"), &batch).await;
    assert_eq!(first.status, 200);
    assert!(!first.replayed());
    assert_eq!(first.json()["added"].as_array().unwrap().len(), 2);
    let second = post(&app, &app.key, &format!("{base}/batch"), Some(b"batch-1"), &batch).await;
    assert_eq!(second.status, first.status);
    assert_eq!(second.body, first.body, "the same body, byte for byte");
    assert_eq!(second.content_type(), first.content_type());
    assert!(second.replayed());
    assert_eq!(app.get(&base).await.expect(200).as_array().unwrap().len(), 2, "added once");
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts/{id}")).await.expect(200)["respondentCount"], 2);
}

#[tokio::test]
async fn concurrent_requests_with_one_key_leave_one_effect() {
    let app = spawn_app().await;
    let body = sample_survey_body();
    let answers =
        futures::future::join_all((0..6).map(|_| post(&app, &app.key, "/surveys", Some(b"create-once"), &body))).await;
    let created: Vec<&Answer> = answers.iter().filter(|a| a.status == 201 && !a.replayed()).collect();
    assert_eq!(created.len(), 1, "exactly one ran");
    for answer in &answers {
        match answer.status.as_u16() {
            201 => assert_eq!(answer.body, created[0].body),
            409 => {
                answer.problem(409, "/idempotency-key-in-use");
            }
            other => panic!("unexpected {other}: {}", String::from_utf8_lossy(&answer.body)),
        }
    }
    assert_eq!(survey_count(&app).await, 1);
    let after = post(&app, &app.key, "/surveys", Some(b"create-once"), &body).await;
    assert!(after.replayed() && after.body == created[0].body, "once done, every repeat is a replay");
    assert_eq!(survey_count(&app).await, 1);
}

#[tokio::test]
async fn another_request_with_the_key_is_422_and_other_accounts_keys_are_their_own() {
    let app = spawn_app().await;
    let body = sample_survey_body();
    assert_eq!(post(&app, &app.key, "/surveys", Some(b"k1"), &body).await.status, 201);
    let mut other = body.clone();
    other["name"] = json!("Another");
    post(&app, &app.key, "/surveys", Some(b"k1"), &other).await.problem(422, "/idempotency-key-reused");
    // Another path (here another version prefix) is another request too.
    let v1_1 = app
        .client
        .post(format!("{}/api/v1.1/surveys", app.address))
        .header("X-API-KEY", &app.key)
        .header("Idempotency-Key", "k1")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(v1_1.status(), 422);
    assert_eq!(survey_count(&app).await, 1, "nothing created by the refused requests");

    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let theirs = post(&app, &other_key, "/surveys", Some(b"k1"), &other).await;
    assert_eq!((theirs.status.as_u16(), theirs.replayed()), (201, false), "the same key in another account runs");
    assert_eq!(theirs.json()["name"], "Another");
    assert_eq!(survey_count(&app).await, 1);
}

#[tokio::test]
async fn invalid_keys_are_400_naming_the_header_and_a_wrong_api_key_stays_401() {
    let app = spawn_app().await;
    let body = sample_survey_body();
    let long = vec![b'k'; 256];
    for key in [&b""[..], &long, b"two words", "caf\u{e9}".as_bytes()] {
        let answer = post(&app, &app.key, "/surveys", Some(key), &body).await;
        let problem = answer.problem(400, "/validation");
        assert_eq!(problem["errors"][0]["field"], "Idempotency-Key", "{problem}");
    }
    assert!(post(&app, &app.key, "/surveys", Some(&[b'k'; 255]), &body).await.status == 201, "255 is allowed");
    let unauthorized = post(&app, "cvs_wrong", "/surveys", Some(b""), &body).await;
    assert_eq!(unauthorized.status, 401);
    assert_eq!(survey_count(&app).await, 1);
}

#[tokio::test]
async fn a_client_error_is_replayed_as_it_was_and_unkeyed_posts_are_unchanged() {
    let app = spawn_app().await;
    let invalid = json!({"name": ""});
    let first = post(&app, &app.key, "/surveys", Some(b"bad-1"), &invalid).await;
    first.problem(400, "/validation");
    let again = post(&app, &app.key, "/surveys", Some(b"bad-1"), &invalid).await;
    assert_eq!((again.status, &again.body), (first.status, &first.body));
    assert_eq!(again.content_type(), "application/problem+json");
    assert!(again.replayed());

    let body = sample_survey_body();
    let one = post(&app, &app.key, "/surveys", None, &body).await;
    let two = post(&app, &app.key, "/surveys", None, &body).await;
    assert_eq!((one.status.as_u16(), two.status.as_u16()), (201, 201));
    assert!(!one.replayed() && !two.replayed());
    assert_ne!(one.json()["surveyId"], two.json()["surveyId"], "without a key each POST runs");
    assert_eq!(survey_count(&app).await, 2);
}

#[tokio::test]
async fn every_post_under_api_documents_the_key_its_statuses_and_the_replay_header() {
    let app = spawn_app().await;
    let document: Value =
        app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap();
    let mut posts = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        let Some(operation) = item.get("post").filter(|_| path.starts_with("/api/")) else { continue };
        posts += 1;
        let parameters = operation["parameters"].as_array().unwrap();
        let header = parameters.iter().find(|p| p["name"] == "Idempotency-Key").unwrap_or_else(|| panic!("{path}"));
        assert_eq!((header["in"].as_str(), header["required"].as_bool()), (Some("header"), Some(false)), "{path}");
        assert_eq!(header["schema"]["maxLength"], 255, "{path}");
        assert_eq!(header["schema"]["pattern"], "^[!-~]{1,255}$", "{path}");
        let responses = operation["responses"].as_object().unwrap();
        for status in ["409", "410", "422"] {
            let content = responses[status]["content"].as_object().unwrap_or_else(|| panic!("{path} {status}"));
            assert!(content.contains_key("application/problem+json"), "{path} {status}");
        }
        for (status, response) in responses {
            let has_header = response["headers"].get("Idempotent-Replayed").is_some();
            let expected = (status.starts_with('2') || status.starts_with('4'))
                && !["401", "408", "410", "413", "429"].contains(&status.as_str());
            assert_eq!(has_header, expected, "{path} {status}");
        }
    }
    assert!(posts >= 10, "{posts} POST operations");
}
