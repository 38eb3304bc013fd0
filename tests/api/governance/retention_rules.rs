//! Retention rules: only under /api/v1.5; set, list, patch and delete at three scopes.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

const ACTION: &str = "RemoveRespondentDataWithoutAnswers";

fn rule(days: i64) -> Value {
    json!({"action": ACTION, "retentionDays": days})
}

#[tokio::test]
async fn rule_endpoints_exist_only_under_version_1_5() {
    let app = spawn_app().await;
    for version in ["v1", "v1.1", "v1.4"] {
        let reply = app.versioned(&app.key, version, "GET", "/data-retention/rules", None).await;
        assert!(reply.body["detail"].as_str().unwrap().contains("1.5"), "{}", reply.body);
        reply.problem(404, "/not-found");
        app.versioned(&app.key, version, "POST", "/data-retention/rules/account", Some(rule(5)))
            .await
            .problem(404, "/not-found");
    }
    app.v1_5("GET", "/data-retention/rules", None).await.expect(200);
}

#[tokio::test]
async fn rules_are_set_overwritten_listed_patched_and_deleted() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let scopes = [
        ("/data-retention/rules/account".to_owned(), json!({"scope": "Account"})),
        (format!("/data-retention/rules/surveys/{survey}"), json!({"scope": "Survey", "surveyId": survey})),
        (
            format!("/data-retention/rules/surveys/{survey}/sendouts/{sendout}"),
            json!({"scope": "Sendout", "surveyId": survey, "sendoutId": sendout}),
        ),
    ];
    for (path, expected) in &scopes {
        assert_eq!(app.v1_5("GET", path, None).await.expect(200), json!([]), "{path}");
        let stored = app.v1_5("POST", path, Some(rule(30))).await.expect(200);
        let mut want = expected.clone();
        want["action"] = json!(ACTION);
        want["retentionDays"] = json!(30);
        want["status"] = json!("Active");
        assert_eq!(stored, want, "{path}");
        let overwritten = app
            .v1_5("POST", path, Some(json!({"action": ACTION, "retentionDays": 60, "status": "Paused"})))
            .await
            .expect(200);
        assert_eq!((overwritten["retentionDays"].clone(), overwritten["status"].clone()), (json!(60), json!("Paused")));
        assert_eq!(
            app.v1_5("GET", path, None).await.expect(200),
            json!([overwritten]),
            "one rule per scope and action"
        );
    }
    assert_eq!(app.v1_5("GET", "/data-retention/rules", None).await.expect(200).as_array().unwrap().len(), 3);

    let account_action = "/data-retention/rules/account/actions/removerespondentdatawithoutanswers";
    let patched = app.v1_5("PATCH", account_action, Some(json!({"retentionDays": 90}))).await.expect(200);
    assert_eq!(
        (patched["retentionDays"].clone(), patched["status"].clone()),
        (json!(90), json!("Paused")),
        "days never resume a paused rule"
    );
    let resumed = app.v1_5("PATCH", account_action, Some(json!({"status": "Active"}))).await.expect(200);
    assert_eq!((resumed["retentionDays"].clone(), resumed["status"].clone()), (json!(90), json!("Active")));
    app.v1_5("PATCH", account_action, Some(json!({}))).await.problem(400, "/validation");

    for (path, _) in &scopes {
        let action = format!("{path}/actions/{ACTION}");
        let reply = app.v1_5("DELETE", &action, None).await;
        assert_eq!(reply.status.as_u16(), 204, "{action}");
        assert_eq!(reply.body, Value::Null);
        app.v1_5("DELETE", &action, None).await.problem(404, "/not-found");
        app.v1_5("PATCH", &action, Some(json!({"retentionDays": 5}))).await.problem(404, "/not-found");
    }
    assert_eq!(app.v1_5("GET", "/data-retention/rules", None).await.expect(200), json!([]));
}

#[tokio::test]
async fn rules_are_listed_in_creation_order() {
    let app = spawn_app().await;
    let (first, first_sendout) = survey_with_sendout(&app, email_sendout()).await;
    let (second, second_sendout) = survey_with_sendout(&app, email_sendout()).await;
    let paths = [
        format!("/data-retention/rules/surveys/{second}/sendouts/{second_sendout}"),
        format!("/data-retention/rules/surveys/{second}"),
        "/data-retention/rules/account".to_owned(),
        format!("/data-retention/rules/surveys/{first}/sendouts/{first_sendout}"),
        format!("/data-retention/rules/surveys/{first}"),
    ];
    for (days, path) in (1..).zip(&paths) {
        app.v1_5("POST", path, Some(rule(days))).await.expect(200);
    }
    app.v1_5("POST", &paths[2], Some(rule(99))).await.expect(200);
    let listed = app.v1_5("GET", "/data-retention/rules", None).await.expect(200);
    let days: Vec<i64> = listed.as_array().unwrap().iter().map(|r| r["retentionDays"].as_i64().unwrap()).collect();
    assert_eq!(days, [1, 2, 99, 4, 5], "creation order; a rule set again keeps its place");
}

#[tokio::test]
async fn bad_actions_days_and_scopes_are_refused() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let (other_survey, _) = app.sample_survey().await;
    for action in ["0", "1", "Remove", "DeleteEverything"] {
        let reply = app.v1_5("DELETE", &format!("/data-retention/rules/account/actions/{action}"), None).await;
        assert_eq!(reply.body["supportedValues"], json!([ACTION]), "{action}");
        reply.problem(400, "/validation");
        let reply = app
            .v1_5(
                "PATCH",
                &format!("/data-retention/rules/account/actions/{action}"),
                Some(json!({"status": "Active"})),
            )
            .await;
        assert_eq!(reply.body["supportedValues"], json!([ACTION]));
    }
    for (body, field) in [
        (json!({"action": ACTION, "retentionDays": 0}), "retentionDays"),
        (json!({"action": ACTION, "retentionDays": 3651}), "retentionDays"),
        (json!({"action": ACTION}), "retentionDays"),
        (json!({"action": "Other", "retentionDays": 5}), "action"),
        (json!({"action": 0, "retentionDays": 5}), "action"),
        (json!({"action": ACTION, "retentionDays": 5, "status": true}), "status"),
        (json!({"action": ACTION, "retentionDays": 5, "status": "Sleeping"}), "status"),
    ] {
        let reply = app.v1_5("POST", "/data-retention/rules/account", Some(body.clone())).await;
        assert_eq!(reply.fields(), [field], "{body}");
        if field != "retentionDays" {
            assert!(reply.body["supportedValues"].as_array().is_some_and(|v| !v.is_empty()), "{}", reply.body);
        }
    }
    app.v1_5("POST", "/data-retention/rules/account", Some(rule(3650))).await.expect(200);
    app.v1_5("PATCH", &format!("/data-retention/rules/account/actions/{ACTION}"), Some(json!({"retentionDays": 0})))
        .await
        .problem(400, "/validation");
    app.v1_5("POST", &format!("/data-retention/rules/surveys/{other_survey}/sendouts/{sendout}"), Some(rule(5)))
        .await
        .problem(404, "/not-found");
    app.v1_5("POST", "/data-retention/rules/surveys/999999", Some(rule(5))).await.problem(404, "/not-found");
    app.v1_5("GET", &format!("/data-retention/rules/surveys/{survey}/sendouts/999999"), None)
        .await
        .problem(404, "/not-found");
}
