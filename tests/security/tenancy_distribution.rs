//! Account B sees none of account A's sendouts, respondents, labels, reminders, documents, blocklist or bounces.

use serde_json::json;

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn another_accounts_distribution_is_invisible() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let label = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201)
        ["labelId"]
        .as_i64()
        .unwrap();
    let respondent = app
        .post(&format!("{base}/respondents"), json!({"contactDetails": "a@example.com", "sendMail": true}))
        .await
        .expect(201)["respondentId"]
        .as_i64()
        .unwrap();
    let document = app.get("/bgdata/bgdocuments").await.expect(200)[0]["bgDocumentId"].as_i64().unwrap();
    app.post("/accounts/blocklist", json!({"contactDetails": "blocked@example.com", "type": "Blocked"}))
        .await
        .expect(201);
    let failure = json!({"failures": [{"emailAddress": "a@example.com", "sendingDomain": "d.example", "failedAt": "2020-11-20T10:00:00Z"}]});
    app.post("/email-bounces/permanent-failures", failure).await.expect(200);
    let (_, other) = app.new_account("Other", "owner@other.example");

    for path in [
        format!("/surveys/{survey}/sendouts"),
        base.clone(),
        format!("{base}/respondents"),
        format!("{base}/labels"),
        format!("{base}/reminders"),
        format!("/bgdata/bgdocuments/{document}"),
        format!("/bgdata/bgdocuments/{document}/labels"),
    ] {
        app.call_as(&other, "GET", &path, None).await.problem(404, "/not-found");
    }
    let person = json!({"contactDetails": "b@example.com", "sendMail": true});
    for (method, path, body) in [
        ("POST", format!("{base}/activate"), json!({})),
        ("POST", format!("{base}/deactivate"), json!({})),
        ("POST", format!("{base}/respondents"), person.clone()),
        ("POST", format!("{base}/respondents/batch"), json!({"surveyRespondents": [person]})),
        ("POST", format!("{base}/labels"), json!({"name": "x", "labelType": "Text"})),
        ("POST", format!("/bgdata/bgdocuments/{document}/rows/{respondent}"), json!({"labels": [label]})),
        ("PUT", format!("/bgdata/bgdocuments/{document}/rows/{respondent}"), json!({"cellData": {}})),
        (
            "POST",
            format!("/bgdata/bgdocuments/{document}/rows"),
            json!({"contactDetails": "c@example.com", "cellData": {}}),
        ),
        ("DELETE", format!("/bgdata/bgdocuments/{document}/rows/{respondent}"), json!({"labels": []})),
    ] {
        app.call_as(&other, method, &path, Some(body)).await.problem(404, "/not-found");
    }
    for list in ["/bgdata/bgdocuments", "/accounts/blocklist"] {
        assert_eq!(app.call_as(&other, "GET", list, None).await.expect(200), json!([]), "{list}");
    }
    let failures = app
        .call_as(&other, "GET", "/email-bounces/permanent-failures?pageNumber=1&pageSize=10", None)
        .await
        .expect(200);
    assert_eq!(failures["totalCount"], 0);
    app.call_as(&other, "DELETE", "/accounts/blocklist/blocked%40example.com", None).await.problem(404, "/not-found");
    let own = app.call_as(&other, "POST", "/surveys", Some(json!({"name": "B"}))).await.expect(201)["surveyId"]
        .as_i64()
        .unwrap();
    let own_sendout =
        app.call_as(&other, "POST", &format!("/surveys/{own}/sendouts"), Some(email_sendout())).await.expect(201)
            ["sendoutId"]
            .as_i64()
            .unwrap();
    let foreign_label =
        json!({"contactDetails": "z@example.com", "sendMail": true, "backgroundData": {label.to_string(): "x"}});
    let reply = app
        .call_as(&other, "POST", &format!("/surveys/{own}/sendouts/{own_sendout}/respondents"), Some(foreign_label))
        .await;
    assert_eq!(reply.fields(), [format!("backgroundData.{label}")]);
    let blocked_elsewhere = json!({"contactDetails": "blocked@example.com", "sendMail": true});
    app.call_as(&other, "POST", &format!("/surveys/{own}/sendouts/{own_sendout}/respondents"), Some(blocked_elsewhere))
        .await
        .expect(201);
    let answer = json!({"respondentId": respondent, "answers": []});
    assert_eq!(
        app.call_as(&other, "POST", &format!("/surveys/{own}/answers"), Some(answer)).await.fields(),
        ["respondentId"]
    );
    assert_eq!(app.get(&format!("{base}/respondents")).await.expect(200).as_array().unwrap().len(), 1);
}
