//! Answers by language: each answer set records the language its last page was shown in (through the API, the
//! body's `language`); answer sets, JSON Lines and, for a survey with a translation, CSV and XLSX carry it (a
//! `language` column after `updatedAt`); results and exports take `language=` as a filter, and another value is
//! a 400 naming it.

use serde_json::{json, Value};

use super::{csv_records, export, export_survey, json_lines, record, xlsx_rows};
use crate::helpers::{item_id, page_id, spawn_app, TestApp};

/// A Swedish survey of one choice with an English translation and an active LOGIN sendout (in Swedish) with Ann
/// in English; Ann answers on her page. Returns the survey and the id of Ann's set.
async fn answered_on_a_page_in_english(app: &TestApp) -> (i64, i64) {
    let body = json!({"name": "Puls", "language": "sv", "pages": [{"items": [
        {"type": "SingleChoice", "text": "Trivs du?", "options": [{"value": "ja", "label": "Ja"}, {"value": "nej", "label": "Nej"}]}]}]});
    let ann = json!({"contactDetails": "ann", "sendMail": false, "language": "en"});
    let (survey, base, _, ann) =
        app.one_respondent_sendout(&app.key, body, json!({"name": "Vår", "type": "LOGIN"}), ann).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let english = json!({"items": {item_id(&tree, 0, 0).to_string(): {"text": "Happy here?"}}});
    app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(english)).await.expect(200);
    let link = ann["surveyLink"].as_str().unwrap().to_owned();
    let form =
        [("page".to_owned(), page_id(&tree, 0).to_string()), (format!("q{}", item_id(&tree, 0, 0)), "ja".to_owned())];
    let saved = app.client.post(&link).form(&form).send().await.unwrap();
    assert_eq!(saved.status().as_u16(), 200);
    let sets = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    (survey, sets[0]["answerSetId"].as_i64().unwrap())
}

#[tokio::test]
async fn a_page_records_the_language_it_was_shown_in_and_the_exports_carry_it() {
    let app = spawn_app().await;
    let (survey, ann) = answered_on_a_page_in_english(&app).await;
    let item = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let item = item_id(&item, 0, 0);
    let api =
        record(&app, survey, json!({"answers": [{"questionItemId": item, "value": "nej"}], "language": "sv"})).await;
    assert_eq!(api["language"], "sv");
    let unknown = record(&app, survey, json!({"answers": []})).await;
    assert_eq!(unknown["language"], Value::Null, "a body that names none records none");

    let listed = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    let languages: Vec<&Value> = listed.as_array().unwrap().iter().map(|set| &set["language"]).collect();
    assert_eq!(languages, [&json!("en"), &json!("sv"), &Value::Null]);
    assert_eq!(listed[0]["answerSetId"], ann);

    let csv = csv_records(&export(&app, survey, "format=csv&header=ids").await);
    assert_eq!(csv[0][5..7], ["updatedAt", "language"]);
    assert_eq!(csv[0][7], format!("q{item}"));
    let column: Vec<&str> = csv[1..].iter().map(|row| row[6].as_str()).collect();
    assert_eq!(column, ["en", "sv", ""]);
    let xlsx = xlsx_rows(export(&app, survey, "format=xlsx").await);
    assert_eq!(xlsx[0][6].to_string(), "language");
    assert_eq!(xlsx[1][6].to_string(), "en");
    let lines = json_lines(&export(&app, survey, "format=jsonl").await);
    assert_eq!(
        lines.iter().map(|line| line["language"].clone()).collect::<Vec<_>>(),
        [json!("en"), json!("sv"), Value::Null]
    );

    let swedish = json_lines(&export(&app, survey, "format=jsonl&language=sv").await);
    assert_eq!(swedish.len(), 1);
    assert_eq!(swedish[0]["answers"][item.to_string()], "nej");
    let results = app.get(&format!("/surveys/{survey}/results?language=en")).await.expect(200);
    assert_eq!(results["answerSets"], 1, "{results}");
    let none = app.get(&format!("/surveys/{survey}/results?language=fi")).await.expect(200);
    assert_eq!(none["answerSets"], 0);
}

#[tokio::test]
async fn a_survey_with_no_translation_exports_no_language_column_and_a_replacement_sets_the_language_anew() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let set =
        record(&app, survey, json!({"answers": [{"questionItemId": items.single, "value": "y"}], "language": "de"}))
            .await;
    let csv = csv_records(&export(&app, survey, "format=csv").await);
    assert!(!csv[0].contains(&"language".to_owned()), "{:?}", csv[0]);
    assert_eq!(json_lines(&export(&app, survey, "format=jsonl").await)[0]["language"], "de");

    let path = format!("/surveys/{survey}/answers/{}", set["answerSetId"]);
    let replaced = app.put(&path, json!({"answers": [], "language": "fi"})).await.expect(200);
    assert_eq!(replaced["language"], "fi");
    let cleared = app.put(&path, json!({"answers": []})).await.expect(200);
    assert_eq!(cleared["language"], Value::Null);
}

#[tokio::test]
async fn a_language_outside_the_twelve_is_a_400_naming_it() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let body = json!({"answers": [{"questionItemId": items.single, "value": "y"}], "language": "sv-SE"});
    let reply = app.post(&format!("/surveys/{survey}/answers"), body).await;
    assert_eq!(reply.fields(), ["language"]);
    reply.problem(400, "/validation");
    for path in
        [format!("/surveys/{survey}/results?language=xx"), format!("/surveys/{survey}/answers/export?language=SV")]
    {
        let reply = app.get(&path).await;
        assert_eq!(reply.fields(), ["language"], "{path}");
        reply.problem(400, "/validation");
    }
    assert_eq!(app.get(&format!("/surveys/{survey}/answers")).await.expect(200), json!([]), "nothing was stored");
}
