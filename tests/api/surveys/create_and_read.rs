//! Surveys: create with defaults and rules, list, read.

use serde_json::json;

use crate::helpers::{sample_survey_body, spawn_app};

#[tokio::test]
async fn a_survey_is_created_with_the_contract_defaults() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Pulse"})).await.expect(201);
    assert_eq!(survey["name"], "Pulse");
    assert_eq!(survey["description"], "");
    assert_eq!(survey["active"], true);
    assert_eq!(survey["categoryId"], serde_json::Value::Null);
    let start = time::OffsetDateTime::parse(
        survey["startDate"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let end = time::OffsetDateTime::parse(
        survey["endDate"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert_eq!(end - start, time::Duration::days(14));
    assert!((time::OffsetDateTime::now_utc() - start).abs() < time::Duration::minutes(1));

    let id = survey["surveyId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{id}")).await.expect(200), survey);
    let list = app.get("/surveys").await.expect(200);
    assert_eq!(list, json!([survey]));
}

#[tokio::test]
async fn given_fields_are_stored_and_ignored_fields_are_not_assigned() {
    let app = spawn_app().await;
    let category = app.post("/accounts/categories", json!({"name": "HR"})).await.expect(201);
    let body = json!({
        "name": "Onboarding", "description": "new staff", "startDate": "2100-01-01", "endDate": "2100-02-01T12:00:00+01:00",
        "categoryId": category["categoryId"], "active": false, "surveyId": 999, "createdAt": "2000-01-01T00:00:00Z"
    });
    let survey = app.post("/surveys", body).await.expect(201);
    assert_eq!(survey["startDate"], "2100-01-01T00:00:00Z");
    assert_eq!(survey["endDate"], "2100-02-01T11:00:00Z");
    assert_eq!(survey["categoryId"], category["categoryId"]);
    assert_eq!(survey["active"], false);
    assert_ne!(survey["surveyId"], 999);
    assert_ne!(survey["createdAt"], "2000-01-01T00:00:00Z");
}

#[tokio::test]
async fn minus_999_leaves_a_survey_uncategorized() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "x", "categoryId": -999})).await.expect(201);
    assert_eq!(survey["categoryId"], serde_json::Value::Null);
}

#[tokio::test]
async fn each_broken_rule_is_a_400_naming_its_field_and_stores_nothing() {
    let app = spawn_app().await;
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"description": "no name"}), "name"),
        (json!({"name": 5}), "name"),
        (json!({"name": "x", "startDate": "2100-01-02", "endDate": "2100-01-01"}), "endDate"),
        (json!({"name": "x", "startDate": "soon"}), "startDate"),
        (json!({"name": "x", "categoryId": 424242}), "categoryId"),
        (json!({"name": "x", "pages": [{"items": [{"type": "Slider", "text": "q"}]}]}), "pages[0].items[0].type"),
        (
            json!({"name": "x", "pages": [{"items": [{"type": "SingleChoice", "text": "q"}]}]}),
            "pages[0].items[0].options",
        ),
        (json!({"name": "x", "pages": [{"items": [{"type": "OpenText", "text": " "}]}]}), "pages[0].items[0].text"),
        (
            json!({"name": "x", "pages": [{"items": [{"type": "Rating", "text": "q", "options": [{"value": "1"}]}]}]}),
            "pages[0].items[0].options",
        ),
        (
            json!({"name": "x", "pages": [{"items": [{"type": "Info", "text": "q", "required": true}]}]}),
            "pages[0].items[0].required",
        ),
        (json!({"name": "x", "pages": [{"items": [{"text": "q"}]}]}), "pages[0].items[0].type"),
    ];
    for (body, field) in cases {
        let reply = app.post("/surveys", body.clone()).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert!(fields.contains(&field.to_owned()), "{body}: {fields:?}");
    }
    assert_eq!(app.get("/surveys").await.expect(200), json!([]));
}

#[tokio::test]
async fn the_question_tree_keeps_the_given_order() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    assert_eq!(tree["surveyId"], id);
    let titles: Vec<_> = tree["pages"].as_array().unwrap().iter().map(|p| p["title"].clone()).collect();
    assert_eq!(titles, [json!("One"), json!("Two"), json!("Three")]);
    let types: Vec<_> =
        tree["pages"][0]["items"].as_array().unwrap().iter().map(|i| i["type"].as_str().unwrap().to_owned()).collect();
    assert_eq!(types, ["SingleChoice", "MultipleChoice", "Info"]);
    assert_eq!(
        tree["pages"][0]["items"][1]["options"],
        json!([{"value": "pay", "label": "pay"}, {"value": "team", "label": "team"}])
    );
    assert_eq!(tree["pages"][1]["items"][1]["required"], true);
    assert_eq!(tree["logic"], json!([]));
    let expected = sample_survey_body();
    assert_eq!(tree["pages"][2]["items"][0]["text"], expected["pages"][2]["items"][0]["text"]);
}

#[tokio::test]
async fn unknown_surveys_answer_404() {
    let app = spawn_app().await;
    app.get("/surveys/987654").await.problem(404, "/not-found");
    app.get("/surveys/987654/questions").await.problem(404, "/not-found");
}

#[tokio::test]
async fn dates_outside_the_years_1_to_9999_are_refused() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({"name": "Old", "startDate": "-0001-01-01"}), "startDate"),
        (json!({"name": "Old", "startDate": "0000-06-01T00:00:00Z"}), "startDate"),
        (json!({"name": "Late", "endDate": "9999-12-31T23:00:00-05:00"}), "endDate"),
        (json!({"name": "Late", "startDate": "9999-12-30"}), "endDate"),
    ] {
        assert_eq!(app.post("/surveys", body.clone()).await.fields(), [field], "{body}");
    }
    assert_eq!(app.get("/surveys").await.expect(200), json!([]), "nothing stored");
    let last = app.post("/surveys", json!({"name": "Forever", "endDate": "9999-12-31"})).await.expect(201);
    assert_eq!(last["endDate"], "9999-12-31T00:00:00Z");
}
