//! The insight endpoints before the store aggregates anything: their queries and paths read and refused with the
//! field named, another survey's or account's ids answered as missing ones, and the document's exact shapes.

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_domain::distribution::RespondentStatus;
use canvass_domain::survey::QuestionType;
use canvass_http::problem::ProblemKind;
use serde_json::{json, Value};
use strum::VariantArray;

use super::support::TestApp;

/// A survey of the seeded account with one EMAIL sendout; returns their ids.
async fn survey_with_sendout(app: &TestApp) -> (i64, i64) {
    let survey = app.post("/surveys", &json!({"name": "Pulse"})).await.expect(201)["surveyId"].as_i64().unwrap_or(0);
    let sendout = json!({"name": "Wave", "type": "EMAIL", "sendDate": "2099-12-01", "sender": "hr@acme.example",
        "subject": "Your view", "message": "Answer: {{surveyLink}}"});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), &sendout).await.expect(201);
    (survey, sendout["sendoutId"].as_i64().unwrap_or(0))
}

#[actix_web::test]
async fn the_results_query_is_read_with_its_fields_named() {
    let app = TestApp::new().await;
    let (survey, _) = survey_with_sendout(&app).await;
    for (query, field) in [
        ("from=yesterday", "from"),
        ("to=2099-13-01", "to"),
        ("from=2020-11-02&to=2020-11-01", "from"),
        ("updated=2020-11-01&from=2020-10-01", "updated"),
        ("completed=maybe", "completed"),
        ("sendoutId=abc", "sendoutId"),
        ("sendoutId=999", "sendoutId"),
    ] {
        let reply = app.get(&format!("/surveys/{survey}/results?{query}")).await;
        assert_eq!(reply.invalid_field(), field, "{query}");
    }
    app.get("/surveys/999/results?sendoutId=999").await.problem(ProblemKind::NotFound);
}

#[actix_web::test]
async fn statistics_answer_404_for_a_sendout_that_is_not_one_of_the_surveys() {
    let app = TestApp::new().await;
    let (survey, sendout) = survey_with_sendout(&app).await;
    let (second, _) = survey_with_sendout(&app).await;
    let other = app.other_account("Other", "owner@other.example");
    let request = |key: &str, path: String| {
        TestRequest::default().method(Method::GET).uri(&format!("/api/v1{path}")).insert_header(("X-API-KEY", key))
    };
    for path in [
        format!("/surveys/999/sendouts/{sendout}/statistics"),
        format!("/surveys/{second}/sendouts/{sendout}/statistics"),
        format!("/surveys/{survey}/sendouts/999/statistics"),
    ] {
        app.get(&path).await.problem(ProblemKind::NotFound);
    }
    let theirs = request(&other, format!("/surveys/{survey}/sendouts/{sendout}/statistics"));
    app.call(theirs).await.problem(ProblemKind::NotFound);
    let theirs = request(&other, format!("/surveys/{survey}/results"));
    app.call(theirs).await.problem(ProblemKind::NotFound);
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts/x/statistics")).await.invalid_field(), "path");
}

async fn document(app: &TestApp) -> Value {
    app.call(TestRequest::default().method(Method::GET).uri("/api/openapi.json")).await.expect(200)
}

fn names(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|names| names.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

#[actix_web::test]
async fn the_document_states_every_status_every_item_type_and_the_nulls() {
    let app = TestApp::new().await;
    let document = document(&app).await;
    let schemas = &document["components"]["schemas"];
    let paths = &document["paths"];
    let ok =
        |path: &str| paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].clone();
    assert_eq!(
        ok("/api/v1/surveys/{surveyId}/sendouts/{sendoutId}/statistics"),
        "#/components/schemas/SendoutStatisticsResponse"
    );
    assert_eq!(ok("/api/v1/surveys/{surveyId}/results"), "#/components/schemas/SurveyResultsResponse");
    let results = &paths["/api/v1/surveys/{surveyId}/results"]["get"];
    let parameters: Vec<String> = results["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        parameters,
        [
            "surveyId",
            "from",
            "to",
            "updated",
            "completed",
            "sendoutId",
            "language",
            "where",
            "breakdownBy",
            "minGroupSize"
        ]
    );
    let conditions = &results["parameters"][7];
    assert_eq!((&conditions["style"], &conditions["explode"]), (&json!("form"), &json!(true)), "`where` repeats");
    assert_eq!(conditions["schema"]["maxItems"], 20);
    assert!(results["responses"]["400"].is_object());

    let statuses: Vec<&str> = RespondentStatus::VARIANTS.iter().map(|s| s.as_str()).collect();
    assert_eq!(names(&schemas["ByStatusBody"]["required"]), statuses, "every status is a required count");
    let statistics = &schemas["SendoutStatisticsResponse"];
    assert_eq!(statistics["required"].as_array().map(Vec::len), Some(11), "every field, the nullable ones too");
    assert_eq!(statistics["properties"]["responseRate"]["type"], json!(["number", "null"]));
    assert_eq!(schemas["DailyActivityBody"]["properties"]["date"]["format"], "date");

    let item = &schemas["ItemResultBody"];
    let variants = item["oneOf"].as_array().cloned().unwrap_or_default();
    let named: Vec<&str> =
        variants.iter().filter_map(|v| v["$ref"].as_str()?.strip_prefix("#/components/schemas/")).collect();
    let types: Vec<Value> =
        named.iter().map(|name| schemas[*name]["allOf"][1]["properties"]["type"]["enum"][0].clone()).collect();
    let kinds: Vec<&str> = QuestionType::VARIANTS.iter().map(|k| k.as_str()).collect();
    assert_eq!(types, kinds, "one named shape per item type, told apart by `type`");
    assert_eq!(item["discriminator"]["propertyName"], "type");
    for (kind, name) in kinds.iter().zip(&named) {
        assert_eq!(item["discriminator"]["mapping"][kind], format!("#/components/schemas/{name}"), "{kind}");
    }
    assert!(!names(&schemas["InfoItemResult"]["required"]).contains(&"answered".to_owned()));
    let rating = &schemas["RatingItemResult"]["properties"];
    assert_eq!((&rating["distribution"]["minItems"], &rating["distribution"]["maxItems"]), (&json!(11), &json!(11)));
    assert_eq!(schemas["NpsBody"]["properties"]["score"]["type"], json!(["integer", "null"]));
    assert!(names(&schemas["NumericItemResult"]["required"]).contains(&"median".to_owned()));
}
