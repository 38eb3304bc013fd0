//! A choice item holds at most 1,000 options (issue 37, finding 5): one more is a 400 naming the item's options and
//! stores nothing; the limit itself is created and read back whole; the OpenAPI document states it as `maxItems`
//! (a Matrix's 11 and a Ranking's 20 on their own shapes).

use serde_json::{json, Value};

use crate::helpers::spawn_app;

/// A survey whose second item is a choice item of `kind` with `count` options.
fn survey_with_options(kind: &str, count: usize) -> Value {
    let options: Vec<Value> =
        (1..=count).map(|n| json!({"value": format!("o{n}"), "label": format!("Option {n}")})).collect();
    json!({"name": "Many", "pages": [{"items": [
        {"type": "OpenText", "text": "Name?"},
        {"type": kind, "text": "Which?", "options": options}]}]})
}

#[tokio::test]
async fn a_choice_item_of_more_than_1000_options_is_refused_and_1000_are_kept() {
    let app = spawn_app().await;
    for kind in ["SingleChoice", "MultipleChoice"] {
        let reply = app.post("/surveys", survey_with_options(kind, 1_001)).await;
        assert_eq!(reply.fields(), ["pages[0].items[1].options"], "{kind}: one error, naming the list");
        reply.problem(400, "/validation");
    }
    assert_eq!(app.get("/surveys").await.expect(200), json!([]), "nothing stored");

    for kind in ["SingleChoice", "MultipleChoice"] {
        let survey = app.post("/surveys", survey_with_options(kind, 1_000)).await.expect(201);
        let tree = app.get(&format!("/surveys/{}/questions", survey["surveyId"])).await.expect(200);
        let options = tree["pages"][0]["items"][1]["options"].as_array().unwrap();
        assert_eq!(options.len(), 1_000, "{kind}");
        assert_eq!(options[999], json!({"value": "o1000", "label": "Option 1000"}), "{kind}");
    }
}

#[tokio::test]
async fn the_openapi_document_states_the_option_limit() {
    let app = spawn_app().await;
    let document: Value =
        app.client.get(format!("{}/api/openapi.json", app.address)).send().await.unwrap().json().await.unwrap();
    let schemas = &document["components"]["schemas"];
    for (shape, most) in
        [("SingleChoiceItemBody", 1000), ("DropdownItemBody", 1000), ("MatrixItemBody", 11), ("RankingItemBody", 20)]
    {
        let options = &schemas[shape]["properties"]["options"];
        assert_eq!(options["maxItems"], most, "{shape}: {options}");
    }
    assert_eq!(schemas["MatrixItemBody"]["properties"]["rows"]["maxItems"], 50);
}
