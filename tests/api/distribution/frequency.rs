//! Survey frequency: settings at both scopes, and the limit enforced on activation, also under concurrency.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, TestApp};

fn setting(enabled: bool, days: i64, max: i64) -> Value {
    json!({"enabled": enabled, "settings": {"numberOfDays": days, "maxNumberOfSurveys": max}})
}

#[tokio::test]
async fn settings_are_put_read_enabled_and_disabled_at_both_scopes() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    app.get("/surveys/frequency").await.problem(404, "/not-found");
    app.call("PATCH", "/surveys/frequency/enable", None).await.problem(404, "/not-found");
    app.get(&format!("/surveys/{survey}/frequency")).await.problem(404, "/not-found");
    app.call("PATCH", &format!("/surveys/{survey}/frequency/disable"), None).await.problem(404, "/not-found");

    let account = app.put("/surveys/frequency", setting(false, 30, 2)).await.expect(200);
    let customer = app.get("/accounts/users").await.expect(200)[0]["userId"].clone();
    assert_eq!(account["enabled"], false);
    assert_eq!(account["settings"], json!({"numberOfDays": 30, "maxNumberOfSurveys": 2}));
    assert!(account.get("surveyId").is_none());
    assert!(account["customerId"].is_i64() && customer.is_i64());
    assert_eq!(app.get("/surveys/frequency").await.expect(200), account);
    let enabled = app.call("PATCH", "/surveys/frequency/enable", None).await.expect(200);
    assert_eq!(enabled["enabled"], true);
    assert_eq!(enabled["settings"], account["settings"]);
    assert_eq!(
        app.call("PATCH", "/surveys/frequency/enable", None).await.expect(200),
        enabled,
        "already enabled: unchanged"
    );

    let own = app.put(&format!("/surveys/{survey}/frequency"), setting(true, 7, 1)).await.expect(200);
    assert_eq!(own["surveyId"], survey);
    let disabled = app.call("PATCH", &format!("/surveys/{survey}/frequency/disable"), None).await.expect(200);
    assert_eq!(disabled["enabled"], false);
    assert_eq!(app.get(&format!("/surveys/{survey}/frequency")).await.expect(200), disabled);
    assert_eq!(app.get("/surveys/frequency").await.expect(200)["enabled"], true, "the account's setting is apart");
    app.put("/surveys/999999/frequency", setting(true, 7, 1)).await.problem(404, "/not-found");
}

#[tokio::test]
async fn bodies_are_checked() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({"settings": {"numberOfDays": 1, "maxNumberOfSurveys": 1}}), "enabled"),
        (json!({"enabled": true}), "settings"),
        (json!({"enabled": true, "settings": {"maxNumberOfSurveys": 1}}), "settings.numberOfDays"),
        (setting(true, 0, 1), "settings.numberOfDays"),
        (setting(true, 32768, 1), "settings.numberOfDays"),
        (setting(true, 1, -1), "settings.maxNumberOfSurveys"),
        (json!({"enabled": "yes", "settings": {"numberOfDays": 1, "maxNumberOfSurveys": 1}}), "enabled"),
    ] {
        let reply = app.put("/surveys/frequency", body.clone()).await;
        assert_eq!(reply.fields(), [field], "{body}");
    }
    app.get("/surveys/frequency").await.problem(404, "/not-found");
    app.put("/surveys/frequency", setting(true, 32767, 32767)).await.expect(200);
}

/// A survey with an EMAIL sendout holding one respondent; returns `(survey, sendout base path)`.
async fn sendout_with(app: &TestApp, contact: &str) -> (i64, String) {
    let survey = app.post("/surveys", json!({"name": "s"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201)["sendoutId"]
        .as_i64()
        .unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    app.post(&format!("{base}/respondents"), json!({"contactDetails": contact, "sendMail": true})).await.expect(201);
    (survey, base)
}

async fn status_after_activation(app: &TestApp, base: &str) -> String {
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    app.get(&format!("{base}/respondents")).await.expect(200)[0]["status"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_limit_holds_back_contacts_and_the_survey_setting_overrides() {
    let app = spawn_app().await;
    app.put("/surveys/frequency", setting(true, 30, 2)).await.expect(200);
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let (_, base) = sendout_with(&app, "Ann@example.com").await;
        statuses.push(status_after_activation(&app, &base).await);
    }
    assert_eq!(statuses, ["Scheduled", "Scheduled", "FrequencyLimitReached"]);
    let (_, other_contact) = sendout_with(&app, "bob@example.com").await;
    assert_eq!(status_after_activation(&app, &other_contact).await, "Scheduled");

    let (survey, base) = sendout_with(&app, "ann@EXAMPLE.com").await;
    app.put(&format!("/surveys/{survey}/frequency"), setting(false, 30, 1)).await.expect(200);
    assert_eq!(status_after_activation(&app, &base).await, "Scheduled", "the survey's own disabled setting wins");

    app.call("PATCH", "/surveys/frequency/disable", None).await.expect(200);
    let (_, base) = sendout_with(&app, "ann@example.com").await;
    assert_eq!(status_after_activation(&app, &base).await, "Scheduled");
}

#[tokio::test]
async fn login_identifiers_are_compared_without_case() {
    let app = spawn_app().await;
    app.put("/surveys/frequency", setting(true, 30, 2)).await.expect(200);
    let mut statuses = Vec::new();
    for identifier in ["Employee-42", "employee-42", "EMPLOYEE-42"] {
        let survey = app.post("/surveys", json!({"name": "s"})).await.expect(201)["surveyId"].as_i64().unwrap();
        let login = json!({"name": "Staff", "type": "LOGIN"});
        let sendout = app.post(&format!("/surveys/{survey}/sendouts"), login).await.expect(201)["sendoutId"].clone();
        let base = format!("/surveys/{survey}/sendouts/{sendout}");
        let person = json!({"contactDetails": identifier, "sendMail": false});
        app.post(&format!("{base}/respondents"), person).await.expect(201);
        statuses.push(status_after_activation(&app, &base).await);
    }
    assert_eq!(statuses, ["Released", "Released", "FrequencyLimitReached"]);
}

#[tokio::test]
async fn concurrent_activations_release_a_contact_exactly_up_to_the_limit() {
    let app = spawn_app().await;
    app.put("/surveys/frequency", setting(true, 30, 3)).await.expect(200);
    let mut bases = Vec::new();
    for _ in 0..20 {
        bases.push(sendout_with(&app, "same@example.com").await.1);
    }
    let app = &app;
    let activations = bases.iter().map(|base| {
        let path = format!("{base}/activate");
        async move { app.post(&path, json!({})).await }
    });
    for reply in futures::future::join_all(activations).await {
        reply.expect(200);
    }
    let mut released = 0;
    for base in &bases {
        let status = app.get(&format!("{base}/respondents")).await.expect(200)[0]["status"].clone();
        if status == "Scheduled" {
            released += 1;
        } else {
            assert_eq!(status, "FrequencyLimitReached");
        }
    }
    assert_eq!(released, 3);
}
