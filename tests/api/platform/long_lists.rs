//! The unpaged lists (answer sets, respondents, the blocklist) stream their array in chunks of 1,000 rows: a list
//! longer than a chunk comes back whole, in order, as valid JSON; filters apply across chunks; what the path names
//! is still checked before the response starts. Lists filled through the store, and a chunk made unreadable, are in
//! `system/long_lists.rs`.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

/// More rows than one chunk (1,000) holds, and not a multiple of it.
pub(crate) const LONG: usize = 2_200;

/// A survey with one optional item, so that an empty answer set may be complete.
pub(crate) async fn survey(app: &TestApp, key: &str) -> i64 {
    let body = json!({"name": "Long", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let created = app.call_as(key, "POST", "/surveys", Some(body)).await.expect(201);
    created["surveyId"].as_i64().unwrap()
}

/// GET under `/api/v1` with the app's key; returns the status, the content type and the raw body.
pub(crate) async fn raw_get(app: &TestApp, path: &str) -> (u16, String, Vec<u8>) {
    let response =
        app.client.get(format!("{}/api/v1{path}", app.address)).header("X-API-KEY", &app.key).send().await.unwrap();
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    (status, content_type, response.bytes().await.unwrap().to_vec())
}

/// A list read raw: 200, `application/json`, and a body that parses as a JSON array written compactly.
pub(crate) async fn list(app: &TestApp, path: &str) -> Vec<Value> {
    let (status, content_type, body) = raw_get(app, path).await;
    assert_eq!((status, content_type.as_str()), (200, "application/json"), "{path}");
    assert!(body.starts_with(b"[") && body.ends_with(b"]"), "{path}");
    assert!(!body.contains(&b'\n'), "compact, as serde_json writes a list whole");
    match serde_json::from_slice(&body) {
        Ok(Value::Array(items)) => items,
        other => panic!("{path}: not a JSON array: {other:?}"),
    }
}

pub(crate) fn ids(items: &[Value], field: &str) -> Vec<i64> {
    items.iter().map(|item| item[field].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn answer_lists_check_the_survey_and_the_filter_before_they_start() {
    let app = spawn_app().await;
    let id = survey(&app, &app.key).await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let foreign = survey(&app, &other_key).await;

    let (status, content_type, body) = raw_get(&app, &format!("/surveys/{id}/answers")).await;
    assert_eq!((status, content_type.as_str(), body.as_slice()), (200, "application/json", b"[]".as_slice()));
    assert_eq!(list(&app, &format!("/surveys/{id}/answers?completed=true")).await, Vec::<Value>::new());
    app.get(&format!("/surveys/{foreign}/answers")).await.problem(404, "/not-found");
    app.get("/surveys/987654321/answers").await.problem(404, "/not-found");
    app.get(&format!("/surveys/{id}/answers?from=soon")).await.problem(400, "/validation");
    app.get("/surveys/987654321/answers?completed=maybe").await.problem(400, "/validation");
}

#[tokio::test]
async fn respondents_longer_than_a_chunk_come_back_whole_and_in_order() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    assert_eq!(list(&app, &format!("{base}/respondents")).await, Vec::<Value>::new());
    let mut added = Vec::new();
    for batch in 0..3 {
        let people: Vec<Value> = (0..LONG / 3)
            .map(|n| json!({"contactDetails": format!("p{batch}-{n}@example.com"), "sendMail": n % 2 == 0}))
            .collect();
        let reply = app.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people})).await;
        added.extend(reply.expect(200)["added"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(added.len(), LONG - LONG % 3);

    let all = list(&app, &format!("{base}/respondents")).await;
    assert_eq!(all, added, "every respondent once, as it was added, in the order it was added");
    let ids = ids(&all, "respondentId");
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
}

#[tokio::test]
async fn respondent_lists_of_unknown_and_foreign_sendouts_are_not_found() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let (other_survey, _) = survey_with_sendout(&app, email_sendout()).await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let other = app.call_as(&other_key, "POST", "/surveys", Some(crate::helpers::sample_survey_body())).await;
    let other_survey_of_other = other.expect(201)["surveyId"].as_i64().unwrap();
    let path = format!("/surveys/{other_survey_of_other}/sendouts");
    let foreign = app.call_as(&other_key, "POST", &path, Some(email_sendout())).await.expect(201);
    let foreign = foreign["sendoutId"].as_i64().unwrap();

    for path in [
        format!("/surveys/{survey}/sendouts/987654321/respondents"),
        format!("/surveys/{other_survey}/sendouts/{sendout}/respondents"),
        format!("/surveys/987654321/sendouts/{sendout}/respondents"),
        format!("/surveys/{other_survey_of_other}/sendouts/{foreign}/respondents"),
        format!("/surveys/{survey}/sendouts/{foreign}/respondents"),
    ] {
        app.get(&path).await.problem(404, "/not-found");
    }
}
