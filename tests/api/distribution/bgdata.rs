//! Background data documents: one per sendout, rows are respondents, cells their background data.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

/// A sendout with two labels and one respondent; returns `(document, sendout base path, [city, age], respondent)`.
async fn document(app: &TestApp) -> (i64, String, [i64; 2], i64) {
    let (survey, id) = survey_with_sendout(app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    let city = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201);
    let age = app.post(&format!("{base}/labels"), json!({"name": "Age", "labelType": "Number"})).await.expect(201);
    let (city, age) = (city["labelId"].as_i64().unwrap(), age["labelId"].as_i64().unwrap());
    let respondent = app
        .post(
            &format!("{base}/respondents"),
            json!({"contactDetails": "a@example.com", "sendMail": true,
            "backgroundData": {city.to_string(): "Oslo"}}),
        )
        .await
        .expect(201)["respondentId"]
        .as_i64()
        .unwrap();
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    let document = documents.as_array().unwrap().iter().find(|d| d["sendoutId"] == id).unwrap().clone();
    assert_eq!(document["surveyId"], survey);
    assert_eq!(document["name"], "Invite");
    assert_eq!(document["rowCount"], 1);
    (document["bgDocumentId"].as_i64().unwrap(), base, [city, age], respondent)
}

#[tokio::test]
async fn each_sendout_has_a_document_with_its_labels() {
    let app = spawn_app().await;
    let (doc, base, [city, age], _) = document(&app).await;
    let one = app.get(&format!("/bgdata/bgdocuments/{doc}")).await.expect(200);
    assert_eq!(one["bgDocumentId"], doc);
    let labels = app.get(&format!("/bgdata/bgdocuments/{doc}/labels")).await.expect(200);
    assert_eq!(labels, app.get(&format!("{base}/labels")).await.expect(200));
    let ids: Vec<_> = labels.as_array().unwrap().iter().map(|l| l["labelId"].clone()).collect();
    assert_eq!(ids, [json!(city), json!(age)]);
    app.get("/bgdata/bgdocuments/999999").await.problem(404, "/not-found");
    app.get("/bgdata/bgdocuments/999999/labels").await.problem(404, "/not-found");
}

#[tokio::test]
async fn cells_are_read_edited_added_and_deleted() {
    let app = spawn_app().await;
    let (doc, _, [city, age], respondent) = document(&app).await;
    let row = format!("/bgdata/bgdocuments/{doc}/rows/{respondent}");
    let read = app.post(&row, json!({"labels": [city, age]})).await.expect(200);
    assert_eq!(
        read,
        json!({"respondentId": respondent, "cells": {city.to_string(): "Oslo"}}),
        "labels without a value are left out"
    );
    let edited =
        app.put(&row, json!({"cellData": {city.to_string(): "Bergen", age.to_string(): "41"}})).await.expect(200);
    assert_eq!(edited["cells"], json!({city.to_string(): "Bergen", age.to_string(): "41"}));
    assert_eq!(app.post(&row, json!({"labels": [age]})).await.expect(200)["cells"], json!({age.to_string(): "41"}));
    let deleted = app.call("DELETE", &row, Some(json!({"labels": [city]}))).await.expect(200);
    assert_eq!(deleted["cells"], json!({age.to_string(): "41"}));

    assert_eq!(app.post(&row, json!({"labels": [city, 424242]})).await.fields(), ["labels[1]"]);
    assert_eq!(app.put(&row, json!({"cellData": {"424242": "x"}})).await.fields(), ["cellData.424242"]);
    assert_eq!(app.put(&row, json!({"cellData": {city.to_string(): ""}})).await.fields(), [format!("cellData.{city}")]);
    assert_eq!(app.call("DELETE", &row, Some(json!({"labels": [424242]}))).await.fields(), ["labels[0]"]);
    assert_eq!(app.put(&row, json!({})).await.fields(), ["cellData"]);
    app.post(&format!("/bgdata/bgdocuments/{doc}/rows/999999"), json!({"labels": [city]}))
        .await
        .problem(404, "/not-found");
    app.put(&format!("/bgdata/bgdocuments/{doc}/rows/999999"), json!({"cellData": {}}))
        .await
        .problem(404, "/not-found");
}

#[tokio::test]
async fn a_new_row_is_a_new_pending_respondent() {
    let app = spawn_app().await;
    let (doc, base, [city, _], _) = document(&app).await;
    let rows = format!("/bgdata/bgdocuments/{doc}/rows");
    let added = app
        .post(&rows, json!({"contactDetails": "b@example.com", "cellData": {city.to_string(): "Tromsø"}}))
        .await
        .expect(201);
    assert_eq!(added["cells"], json!({city.to_string(): "Tromsø"}));
    let respondents = app.get(&format!("{base}/respondents")).await.expect(200);
    let new: Vec<&Value> =
        respondents.as_array().unwrap().iter().filter(|r| r["respondentId"] == added["respondentId"]).collect();
    assert_eq!(new[0]["status"], "Pending");
    assert_eq!(app.get(&format!("/bgdata/bgdocuments/{doc}")).await.expect(200)["rowCount"], 2);
    app.post(&rows, json!({"contactDetails": "B@example.com", "cellData": {}})).await.problem(409, "/duplicate");
    assert_eq!(app.post(&rows, json!({"contactDetails": "nope", "cellData": {}})).await.fields(), ["contactDetails"]);
    assert_eq!(
        app.post(&rows, json!({"contactDetails": "c@example.com", "cellData": {"424242": "x"}})).await.fields(),
        ["cellData.424242"]
    );
}
