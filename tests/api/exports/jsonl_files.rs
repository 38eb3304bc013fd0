//! JSON Lines exports: one object per set, its answers by item id in tree order with values typed as the answer
//! list has them, texts as given (JSON is no spreadsheet), the layout parameters of CSV and XLSX ignored.

use serde_json::{json, Map, Value};

use super::{export, export_as, export_survey, json_lines, record};
use crate::helpers::{email_sendout, spawn_app};

/// What a set's line holds: the set as recorded, without `surveyId`, its answers as an object.
fn expected_line(set: &Value) -> Value {
    let mut line = set.as_object().unwrap().clone();
    line.remove("surveyId");
    let answers: Map<String, Value> = set["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|answer| (answer["questionItemId"].to_string(), answer["value"].clone()))
        .collect();
    line.insert("answers".into(), Value::Object(answers));
    Value::Object(line)
}

/// The answers of a set as its line writes them, in order: `"<id>":<value>,...`.
fn answers_text(set: &Value) -> String {
    let pairs: Vec<String> = set["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|answer| format!("\"{}\":{}", answer["questionItemId"], answer["value"]))
        .collect();
    format!("\"answers\":{{{}}}", pairs.join(","))
}

#[tokio::test]
async fn each_set_is_one_json_line_with_answers_typed_as_in_the_answer_list() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201)["sendoutId"]
        .as_i64()
        .unwrap();
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let respondent = app.post(&format!("/surveys/{survey}/sendouts/{sendout}/respondents"), person).await.expect(201);
    let through = record(
        &app,
        survey,
        json!({"respondentId": respondent["respondentId"], "completed": true, "answers": [
        {"questionItemId": items.open, "value": "=1+1 \"quoted\"\nåäö 🎉"},
        {"questionItemId": items.rating, "value": 7},
        {"questionItemId": items.numeric, "value": 0.5},
        {"questionItemId": items.multiple, "value": ["desk", "pay"]},
        {"questionItemId": items.single, "value": "n"}]}),
    )
    .await;
    let anonymous = record(&app, survey, json!({"answers": []})).await;
    assert_eq!(through["sendoutId"], sendout);

    let file = export_as(&app, &app.key, survey, "format=jsonl").await;
    assert_eq!(file.status, 200);
    assert_eq!(file.content_type, "application/jsonl");
    assert_eq!(file.disposition, format!("attachment; filename=\"survey-{survey}-answers.jsonl\""));
    let lines = json_lines(&file.body);
    assert_eq!(lines, [expected_line(&through), expected_line(&anonymous)]);
    assert_eq!(lines[1]["answers"], json!({}));
    assert_eq!((lines[1]["respondentId"].clone(), lines[1]["sendoutId"].clone()), (Value::Null, Value::Null));
    let text = String::from_utf8(file.body.clone()).unwrap();
    assert!(text.contains(&answers_text(&through)), "answers in tree order: {text}");
    assert!(text.contains(r#""=1+1 \"quoted\"\nåäö 🎉""#), "the text as given, unguarded");
    assert_eq!(text.lines().count(), 2);

    let ignored = export(&app, survey, "format=jsonl&header=ids&values=codes&bom=true").await;
    assert_eq!(ignored, file.body, "header, values and bom are for CSV and XLSX");
}
