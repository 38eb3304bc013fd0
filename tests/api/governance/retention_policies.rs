//! Retention policies of the account and of surveys.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn the_account_policy_starts_empty_and_null_clears_only_its_field() {
    let app = spawn_app().await;
    let empty = json!({"partialDeleteAfterDays": null, "completeDeleteAfterDays": null, "includeOpenTextInPartialDelete": false});
    assert_eq!(app.get("/data-retention/account").await.expect(200), empty);
    let body =
        json!({"partialDeleteAfterDays": 30, "completeDeleteAfterDays": 365, "includeOpenTextInPartialDelete": true});
    assert_eq!(app.post("/data-retention/account", body.clone()).await.expect(200), body);
    let cleared = app.post("/data-retention/account", json!({"partialDeleteAfterDays": null})).await.expect(200);
    assert_eq!(
        cleared,
        json!({"partialDeleteAfterDays": null, "completeDeleteAfterDays": 365, "includeOpenTextInPartialDelete": true})
    );
    assert_eq!(app.get("/data-retention/account").await.expect(200), cleared);
    for (bad, field) in [
        (json!({"partialDeleteAfterDays": 0}), "partialDeleteAfterDays"),
        (json!({"completeDeleteAfterDays": -3}), "completeDeleteAfterDays"),
        (json!({"completeDeleteAfterDays": "ten"}), "completeDeleteAfterDays"),
    ] {
        assert_eq!(app.post("/data-retention/account", bad).await.fields(), [field]);
    }
    assert_eq!(app.get("/data-retention/account").await.expect(200), cleared, "refused changes store nothing");
}

#[tokio::test]
async fn a_survey_policy_checks_dates_days_and_labels() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let label = app
        .post(&format!("/surveys/{survey}/sendouts/{sendout}/labels"), json!({"name": "City", "labelType": "Text"}))
        .await
        .expect(201)["labelId"]
        .clone();
    let end = app.get(&format!("/surveys/{survey}")).await.expect(200)["endDate"].as_str().unwrap()[..10].to_owned();
    let path = format!("/data-retention/surveys/{survey}");
    let empty = app.get(&path).await.expect(200);
    assert_eq!(empty["surveyPolicy"], json!({"partialDeleteDate": null, "completeDeleteDate": null}));
    assert_eq!(empty["respondentPolicy"], json!({"partialDeleteAfterDays": null, "completeDeleteAfterDays": null}));
    assert_eq!(
        (empty["excludeFromRetentionPolicies"].clone(), empty["excludedBgDataLabelIds"].clone()),
        (json!(false), json!([]))
    );

    let body = json!({
        "surveyPolicy": {"partialDeleteDate": "2099-01-01", "completeDeleteDate": "2099-06-01"},
        "respondentPolicy": {"partialDeleteAfterDays": 10, "completeDeleteAfterDays": 20},
        "excludeFromRetentionPolicies": true,
        "excludedBgDataLabelIds": [label, label]
    });
    let stored = app.post(&path, body).await.expect(200);
    assert_eq!(stored["surveyPolicy"], json!({"partialDeleteDate": "2099-01-01", "completeDeleteDate": "2099-06-01"}));
    assert_eq!(stored["respondentPolicy"], json!({"partialDeleteAfterDays": 10, "completeDeleteAfterDays": 20}));
    assert_eq!(stored["excludedBgDataLabelIds"], json!([label]));
    assert_eq!(app.get(&path).await.expect(200), stored);
    let as_instant = json!({"surveyPolicy": {"completeDeleteDate": "2099-07-01T23:30:00+02:00"}});
    let instant_stored = app.post(&path, as_instant).await.expect(200);
    assert_eq!(instant_stored["surveyPolicy"]["completeDeleteDate"], "2099-07-01", "the day as written");
    let stored = app.post(&path, json!({"surveyPolicy": {"completeDeleteDate": "2099-06-01"}})).await.expect(200);
    let cleared = app.post(&path, json!({"respondentPolicy": {"partialDeleteAfterDays": null}})).await.expect(200);
    assert_eq!(cleared["respondentPolicy"], json!({"partialDeleteAfterDays": null, "completeDeleteAfterDays": 20}));
    assert_eq!(cleared["surveyPolicy"], stored["surveyPolicy"]);

    for (bad, field) in [
        (json!({"surveyPolicy": {"partialDeleteDate": end}}), "surveyPolicy.partialDeleteDate"),
        (json!({"surveyPolicy": {"completeDeleteDate": "2020-01-01"}}), "surveyPolicy.completeDeleteDate"),
        (json!({"surveyPolicy": {"completeDeleteDate": "soon"}}), "surveyPolicy.completeDeleteDate"),
        (json!({"surveyPolicy": {"completeDeleteDate": "10000-01-01"}}), "surveyPolicy.completeDeleteDate"),
        (json!({"respondentPolicy": {"completeDeleteAfterDays": 0}}), "respondentPolicy.completeDeleteAfterDays"),
        (json!({"excludedBgDataLabelIds": [424242]}), "excludedBgDataLabelIds[0]"),
    ] {
        let reply = app.post(&path, bad.clone()).await;
        assert_eq!(reply.fields(), [field], "{bad}");
    }
    assert_eq!(app.get(&path).await.expect(200), cleared);
    app.get("/data-retention/surveys/999999").await.problem(404, "/not-found");
    let (_, other) = app.new_account("Other", "o@other.example");
    app.call_as(&other, "GET", &path, None).await.problem(404, "/not-found");
    let foreign = json!({"excludedBgDataLabelIds": [label]});
    let own = app.call_as(&other, "POST", "/surveys", Some(json!({"name": "x"}))).await.expect(201)["surveyId"].clone();
    let reply = app.call_as(&other, "POST", &format!("/data-retention/surveys/{own}"), Some(foreign)).await;
    assert_eq!(reply.fields(), ["excludedBgDataLabelIds[0]"]);
    let _: Value = cleared;
}
