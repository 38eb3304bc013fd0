//! The export endpoint's reading of its query and path, without a database: bad parameters answer 400 naming them
//! (an enum's with its names) before the store is asked, `/answers/export` is never taken for an answer set id, and
//! the document states the three media types and the parameters' names.

use actix_web::http::Method;
use canvass_http::problem::ProblemKind;
use serde_json::{json, Value};

use crate::support::TestApp;

#[actix_web::test]
async fn bad_parameters_are_refused_before_the_survey_is_looked_up() {
    let app = TestApp::new().await;
    for (query, field, supported) in [
        ("format=ods", "format", json!(["csv", "xlsx", "jsonl"])),
        ("header=both", "header", json!(["text", "ids"])),
        ("values=all", "values", json!(["labels", "codes"])),
        ("bom=yes", "bom", Value::Null),
        ("sendoutId=1.5", "sendoutId", Value::Null),
        ("from=2020-02-30", "from", Value::Null),
    ] {
        let reply = app.get(&format!("/surveys/987654321/answers/export?{query}")).await;
        let problem = reply.problem(ProblemKind::Validation);
        assert_eq!(
            (&problem["errors"][0]["field"], &problem["supportedValues"]),
            (&json!(field), &supported),
            "{query}"
        );
    }
}

#[actix_web::test]
async fn the_export_path_is_the_export_of_a_survey_never_an_answer_set() {
    let app = TestApp::new().await;
    app.get("/surveys/987654321/answers/export").await.problem(ProblemKind::NotFound);
    app.get("/surveys/987654321/answers/export?format=xlsx&header=ids&values=codes&bom=true&completed=true")
        .await
        .problem(ProblemKind::NotFound);
    for method in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
        let reply = app.call(app.api(method.clone(), "/surveys/987654321/answers/export")).await;
        assert_eq!(reply.header("allow"), "GET", "{method} is a 405 of the export, not a request about a set");
        reply.problem(ProblemKind::MethodNotAllowed);
    }
}

#[actix_web::test]
async fn the_document_states_the_three_files_and_the_parameters() {
    let app = TestApp::new().await;
    let reply = app.call(actix_web::test::TestRequest::get().uri(canvass_http::OPENAPI_PATH)).await;
    let document = reply.expect(200);
    let operation = &document["paths"]["/api/v1/surveys/{surveyId}/answers/export"]["get"];
    let content = operation["responses"]["200"]["content"].as_object().unwrap();
    let mut types: Vec<&str> = content.keys().map(String::as_str).collect();
    types.sort_unstable();
    assert_eq!(
        types,
        ["application/jsonl", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "text/csv"]
    );
    assert!(operation["responses"]["200"]["headers"]["Content-Disposition"].is_object());
    for status in ["400", "401", "404", "429", "503"] {
        assert!(operation["responses"][status].is_object(), "{status}");
    }
    let parameters = operation["parameters"].as_array().unwrap();
    let names: Vec<&str> = parameters.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "surveyId",
            "format",
            "header",
            "values",
            "bom",
            "backgroundData",
            "from",
            "to",
            "updated",
            "completed",
            "sendoutId",
            "language",
            "where"
        ]
    );
    let language = parameters.iter().find(|p| p["name"] == "language").unwrap();
    assert!(language.to_string().contains("LanguageBody"), "the twelve codes: {language}");
    let background = parameters.iter().find(|p| p["name"] == "backgroundData").unwrap();
    assert_eq!((&background["in"], &background["schema"]["type"]), (&json!("query"), &json!("boolean")));
    let format = parameters.iter().find(|p| p["name"] == "format").unwrap();
    assert!(format.to_string().contains(r#"["csv","xlsx","jsonl"]"#), "{format}");
}
