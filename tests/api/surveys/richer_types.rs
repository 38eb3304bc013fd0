//! Dropdown, Date, Matrix and Ranking end to end over HTTP: created with their rows and bounds, answered through
//! the API (and refused when the value does not fit), read back, counted in the results (per-row distributions,
//! mean places and first places, date ranges), exported (a column per Matrix row, a Ranking joined with `; `, a
//! Date as a date cell), copied; TWOWAY refuses a survey that requires one of the three it cannot ask.

use calamine::Data;
use serde_json::{json, Value};

use crate::api::exports::{export_as, json_lines, xlsx_rows};
use crate::helpers::{item_id, TestApp};

/// One page: a Dropdown of three cities, a Date in 2040, a required Matrix of two statements on a three-point
/// scale, and a Ranking of three features.
fn survey_body() -> Value {
    json!({"name": "Richer", "pages": [{"title": "All", "items": [
        {"type": "Dropdown", "text": "City?", "options": [{"value": "osl", "label": "Oslo"},
            {"value": "sto", "label": "Stockholm"}, {"value": "hel", "label": "Helsinki"}]},
        {"type": "Date", "text": "Start date?", "minDate": "2040-01-01", "maxDate": "2040-12-31"},
        {"type": "Matrix", "text": "How do you agree?", "required": true,
            "rows": [{"value": "pay", "label": "Pay is fair"}, {"value": "team", "label": "My team helps"}],
            "options": [{"value": "1", "label": "Disagree"}, {"value": "2", "label": "Neutral"},
                {"value": "3", "label": "Agree"}]},
        {"type": "Ranking", "text": "Rank these", "options": [{"value": "price", "label": "Price"},
            {"value": "speed", "label": "Speed"}, {"value": "support", "label": "Support"}]}
    ]}]})
}

async fn created(app: &TestApp) -> (i64, Value) {
    let survey = app.post("/surveys", survey_body()).await.expect(201)["surveyId"].as_i64().unwrap();
    (survey, app.get(&format!("/surveys/{survey}/questions")).await.expect(200))
}

fn set(tree: &Value, values: [Value; 4]) -> Value {
    let answers: Vec<Value> = values
        .into_iter()
        .enumerate()
        .map(|(index, value)| json!({"questionItemId": item_id(tree, 0, index), "value": value}))
        .collect();
    json!({"completed": true, "answers": answers})
}

#[tokio::test]
async fn the_richer_types_are_created_answered_counted_and_read_back() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = created(&app).await;
    let items = &tree["pages"][0]["items"];
    assert_eq!(items[1]["minDate"], "2040-01-01");
    assert_eq!(
        items[2]["rows"],
        json!([{"value": "pay", "label": "Pay is fair"}, {"value": "team", "label": "My team helps"}])
    );
    let path = format!("/surveys/{survey}/answers");
    let first = set(
        &tree,
        [json!("sto"), json!("2040-03-01"), json!({"pay": "3", "team": "2"}), json!(["speed", "price", "support"])],
    );
    let stored = app.post(&path, first).await.expect(201);
    assert_eq!(stored["answers"][2]["value"], json!({"pay": "3", "team": "2"}));
    assert_eq!(stored["answers"][3]["value"], json!(["speed", "price", "support"]));
    let second = set(
        &tree,
        [json!("sto"), json!("2040-09-15"), json!({"pay": "1", "team": "2"}), json!(["price", "speed", "support"])],
    );
    app.post(&path, second).await.expect(201);

    let bad = set(&tree, [json!("rome"), json!("2041-01-01"), json!({"pay": "3"}), json!(["price", "speed"])]);
    let refused = app.post(&path, bad).await.problem(400, "/problems/validation");
    let messages: Vec<&str> =
        refused["errors"].as_array().unwrap().iter().map(|e| e["message"].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "is not an option value of the item",
            "must be on or before 2040-12-31",
            "must answer every row of a required Matrix",
            "must rank every option value of the item, each once"
        ]
    );

    let results = app.get(&format!("/surveys/{survey}/results")).await.expect(200);
    let result = &results["items"];
    assert_eq!((result[0]["type"].clone(), result[0]["options"][1]["count"].clone()), (json!("Dropdown"), json!(2)));
    assert_eq!(
        (result[1]["count"].clone(), result[1]["min"].clone(), result[1]["max"].clone()),
        (json!(2), json!("2040-03-01"), json!("2040-09-15"))
    );
    let pay: Vec<i64> =
        result[2]["rows"][0]["options"].as_array().unwrap().iter().map(|o| o["count"].as_i64().unwrap()).collect();
    assert_eq!(pay, [1, 0, 1], "pay: one disagree, one agree");
    assert_eq!(result[2]["rows"][1]["options"][1]["count"], 2, "team: two neutral");
    let price = &result[3]["options"][0];
    assert_eq!((price["meanPosition"].clone(), price["firstPlaces"].clone()), (json!(1.5), json!(1)));
    assert_eq!(result[3]["options"][2]["meanPosition"], 3.0);
}

#[tokio::test]
async fn exports_give_a_matrix_a_column_per_row_a_ranking_its_order_and_a_date_a_date() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = created(&app).await;
    let answers = set(
        &tree,
        [json!("hel"), json!("2040-03-01"), json!({"pay": "3", "team": "1"}), json!(["support", "price", "speed"])],
    );
    app.post(&format!("/surveys/{survey}/answers"), answers).await.expect(201);

    let csv = export_as(&app, &app.key, survey, "format=csv").await;
    let text = String::from_utf8(csv.body).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.ends_with(
            ",City?,Start date?,How do you agree? - Pay is fair,How do you agree? - My team helps,Rank these"
        ),
        "{header}"
    );
    assert!(lines.next().unwrap().ends_with(",Helsinki,2040-03-01,Agree,Disagree,Support; Price; Speed"), "{text}");
    let ids = String::from_utf8(export_as(&app, &app.key, survey, "format=csv&header=ids").await.body).unwrap();
    let matrix = item_id(&tree, 0, 2);
    assert!(ids.lines().next().unwrap().contains(&format!(",q{matrix}_pay,q{matrix}_team,")), "{ids}");

    let rows = xlsx_rows(export_as(&app, &app.key, survey, "format=xlsx").await.body);
    let column = rows[0].iter().position(|cell| *cell == Data::String("Start date?".into())).unwrap();
    let serial = match &rows[1][column] {
        Data::DateTime(serial) => serial.as_f64(),
        other => panic!("not a date cell: {other:?}"),
    };
    // Excel counts days from 1899-12-30: 2040-03-01 is day 51,196, with no time of day.
    assert_eq!(serial, 51_196.0);
    assert!(rows[1].contains(&Data::String("Support; Price; Speed".into())), "{:?}", rows[1]);

    let lines = json_lines(&export_as(&app, &app.key, survey, "format=jsonl").await.body);
    let answers = &lines[0]["answers"];
    assert_eq!(answers[matrix.to_string()], json!({"pay": "3", "team": "1"}));
    assert_eq!(answers[item_id(&tree, 0, 3).to_string()], json!(["support", "price", "speed"]));
}

#[tokio::test]
async fn a_copy_keeps_rows_and_bounds_and_twoway_refuses_what_it_cannot_ask() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = created(&app).await;
    let copy = app.get(&format!("/surveys/{survey}/copy?surveyname=Again")).await.expect(200)["surveyId"].clone();
    let copied = app.get(&format!("/surveys/{copy}/questions")).await.expect(200);
    let strip = |tree: &Value| -> Vec<Value> {
        tree["pages"][0]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                let mut item = item.clone();
                item.as_object_mut().unwrap().remove("questionItemId");
                item
            })
            .collect()
    };
    assert_eq!(strip(&copied), strip(&tree));

    let mut sendout = crate::helpers::email_sendout();
    sendout["type"] = json!("TWOWAY");
    sendout["sender"] = json!("+4790000001");
    let refused =
        app.post(&format!("/surveys/{survey}/sendouts"), sendout.clone()).await.problem(400, "/problems/validation");
    assert_eq!(refused["errors"][0]["field"], "type");
    assert!(refused["errors"][0]["message"].as_str().unwrap().contains("(Matrix)"), "{refused}");
    let matrix = item_id(&tree, 0, 2);
    app.call("PATCH", &format!("/surveys/{survey}/questions/{matrix}"), Some(json!({"required": false})))
        .await
        .expect(200);
    app.post(&format!("/surveys/{survey}/sendouts"), sendout).await.expect(201);
}
