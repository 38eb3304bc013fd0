//! A survey's `thankYouMessage` (up to 2,000 characters) and a Rating item's `minLabel` / `maxLabel` (up to 60
//! each, on Rating items only): stored as given, blank as null, returned wherever the survey or its tree is read,
//! and kept by a copy.

use serde_json::{json, Value};

use crate::helpers::spawn_app;

/// A survey of one page: a Rating item with `labels` merged in, and a SingleChoice item.
fn rated(labels: Value) -> Value {
    let mut rating = json!({"type": "Rating", "text": "How likely are you to recommend us?"});
    for (key, value) in labels.as_object().unwrap() {
        rating[key] = value.clone();
    }
    json!({"name": "Pulse", "pages": [{"items": [rating,
        {"type": "SingleChoice", "text": "Again?", "options": [{"value": "yes"}]}]}]})
}

#[tokio::test]
async fn a_thank_you_message_is_returned_with_the_survey_and_null_when_none() {
    let app = spawn_app().await;
    let message = format!("Tack! 🌷 {}", "x".repeat(2_000 - 8));
    assert_eq!(message.chars().count(), 2_000);
    let survey = app.post("/surveys", json!({"name": "Pulse", "thankYouMessage": message})).await.expect(201);
    assert_eq!(survey["thankYouMessage"], message.as_str());
    let id = survey["surveyId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{id}")).await.expect(200)["thankYouMessage"], message.as_str());

    let plain = app.post("/surveys", json!({"name": "Plain"})).await.expect(201);
    assert!(plain.as_object().unwrap().contains_key("thankYouMessage"), "always present: {plain}");
    assert_eq!(plain["thankYouMessage"], Value::Null);
    let blank = app.post("/surveys", json!({"name": "Blank", "thankYouMessage": " \n\t"})).await.expect(201);
    assert_eq!(blank["thankYouMessage"], Value::Null, "blank means none");
    let listed: Vec<Value> = app
        .get("/surveys")
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["thankYouMessage"].clone())
        .collect();
    assert_eq!(listed, [json!(message), Value::Null, Value::Null]);
}

#[tokio::test]
async fn a_thank_you_message_over_2000_characters_is_a_400_naming_it() {
    let app = spawn_app().await;
    for (body, field) in [
        (json!({"name": "Pulse", "thankYouMessage": "é".repeat(2_001)}), "thankYouMessage"),
        (json!({"name": "Pulse", "thankYouMessage": 5}), "thankYouMessage"),
    ] {
        let reply = app.post("/surveys", body).await;
        assert_eq!(reply.fields(), [field]);
        reply.problem(400, "/validation");
    }
    assert_eq!(app.get("/surveys").await.expect(200), json!([]), "nothing stored");
}

#[tokio::test]
async fn rating_labels_are_returned_in_the_tree_and_null_on_every_other_item() {
    let app = spawn_app().await;
    let (min, max) = ("Not at all likely", "x".repeat(60));
    let survey = app.post("/surveys", rated(json!({"minLabel": min, "maxLabel": max}))).await.expect(201);
    let tree = app.get(&format!("/surveys/{}/questions", survey["surveyId"])).await.expect(200);
    let items = &tree["pages"][0]["items"];
    assert_eq!((&items[0]["minLabel"], &items[0]["maxLabel"]), (&json!(min), &json!(max)));
    for key in ["minLabel", "maxLabel"] {
        assert!(items[1].as_object().unwrap().contains_key(key), "always present: {}", items[1]);
        assert_eq!(items[1][key], Value::Null, "{key} of a SingleChoice item");
    }

    let one_end = app.post("/surveys", rated(json!({"maxLabel": "Extremely", "minLabel": "  "}))).await.expect(201);
    let tree = app.get(&format!("/surveys/{}/questions", one_end["surveyId"])).await.expect(200);
    let rating = &tree["pages"][0]["items"][0];
    assert_eq!((&rating["minLabel"], &rating["maxLabel"]), (&Value::Null, &json!("Extremely")), "blank means none");
}

#[tokio::test]
async fn labels_off_a_rating_item_or_over_60_characters_are_a_400_naming_the_item() {
    let app = spawn_app().await;
    let on_choice = json!({"name": "Pulse", "pages": [{"items": [{"type": "Rating", "text": "q"},
        {"type": "SingleChoice", "text": "Again?", "options": [{"value": "yes"}], "minLabel": "No"}]}]});
    let on_text =
        json!({"name": "Pulse", "pages": [{"items": [{"type": "OpenText", "text": "q", "maxLabel": "Yes"}]}]});
    let cases = [
        (on_choice, "pages[0].items[1].minLabel", "only Rating items take scale labels"),
        (on_text, "pages[0].items[0].maxLabel", "only Rating items take scale labels"),
        (rated(json!({"minLabel": "é".repeat(61)})), "pages[0].items[0].minLabel", "at most 60"),
        (rated(json!({"maxLabel": format!(" {}", "x".repeat(60))})), "pages[0].items[0].maxLabel", "at most 60"),
    ];
    for (body, field, message) in cases {
        let reply = app.post("/surveys", body.clone()).await;
        assert_eq!(reply.fields(), [field], "{body}");
        let problem = reply.problem(400, "/validation");
        assert!(problem["errors"][0]["message"].as_str().unwrap().contains(message), "{problem}");
    }
    assert_eq!(app.get("/surveys").await.expect(200), json!([]), "nothing stored");
}

#[tokio::test]
async fn a_copy_keeps_the_thank_you_message_and_the_labels() {
    let app = spawn_app().await;
    let mut body = rated(json!({"minLabel": "Never", "maxLabel": "Always"}));
    body["thankYouMessage"] = json!("Thank you, see you next week.");
    let source = app.post("/surveys", body).await.expect(201);
    let id = source["surveyId"].as_i64().unwrap();

    let copy = app.get(&format!("/surveys/{id}/copy?surveyname=Again")).await.expect(200);
    assert_ne!(copy["surveyId"], id);
    assert_eq!(copy["thankYouMessage"], "Thank you, see you next week.");
    let copied = app.get(&format!("/surveys/{}", copy["surveyId"])).await.expect(200);
    assert_eq!(copied["thankYouMessage"], source["thankYouMessage"]);
    let tree = app.get(&format!("/surveys/{}/questions", copy["surveyId"])).await.expect(200);
    let rating = &tree["pages"][0]["items"][0];
    assert_eq!((&rating["minLabel"], &rating["maxLabel"]), (&json!("Never"), &json!("Always")));
    assert_eq!(tree["pages"][0]["items"][1]["minLabel"], Value::Null);
}
