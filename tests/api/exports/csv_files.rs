//! CSV exports, parsed back with the `csv` crate: the columns, typed and guarded cells, quoting, non-ASCII text,
//! `header=ids`, `values=codes`, `bom=true`, the headers of the response, and the export path beside the answer
//! set path.

use serde_json::{json, Value};

use super::{csv_records, export, export_as, export_survey, record, Items};
use crate::helpers::{spawn_app, TestApp};

/// Open text with quotes, a comma, a line break, Swedish letters and an emoji.
const AWKWARD: &str = "Fine, \"mostly\"\nthanks; åäö ÅÄÖ, 🎉";

/// Five sets: one answering every item, then four whose open text a spreadsheet would run. Returns them as
/// recorded.
async fn five_sets(app: &TestApp, survey: i64, items: &Items) -> Vec<Value> {
    let open = |text: &str| json!({"questionItemId": items.open, "value": text});
    let bodies = [
        json!({"completed": true, "answers": [
            {"questionItemId": items.single, "value": "y"},
            {"questionItemId": items.multiple, "value": ["team", "pay"]},
            {"questionItemId": items.numeric, "value": 37.5},
            {"questionItemId": items.rating, "value": 9},
            open(AWKWARD)]}),
        json!({"answers": [open("=1+1"), {"questionItemId": items.numeric, "value": -2}]}),
        json!({"answers": [open("-2")]}),
        json!({"answers": [open("@x")]}),
        json!({"answers": [open("\tcalc"), {"questionItemId": items.multiple, "value": []}]}),
    ];
    let mut sets = Vec::new();
    for body in bodies {
        sets.push(record(app, survey, body).await);
    }
    sets
}

/// The six fixed cells of a recorded set, as CSV writes them.
fn fixed(set: &Value) -> Vec<String> {
    vec![
        set["answerSetId"].to_string(),
        String::new(),
        String::new(),
        set["completed"].to_string(),
        set["createdAt"].as_str().unwrap().to_owned(),
        set["updatedAt"].as_str().unwrap().to_owned(),
    ]
}

fn row(set: &Value, items: [&str; 5]) -> Vec<String> {
    fixed(set).into_iter().chain(items.iter().map(|cell| (*cell).to_owned())).collect()
}

#[tokio::test]
async fn a_csv_export_is_one_record_per_set_with_typed_and_guarded_cells() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let sets = five_sets(&app, survey, &items).await;

    let export = export_as(&app, &app.key, survey, "format=csv").await;
    assert_eq!(export.status, 200);
    assert_eq!(export.content_type, "text/csv; charset=utf-8");
    assert_eq!(export.disposition, format!("attachment; filename=\"survey-{survey}-answers.csv\""));
    let records = csv_records(&export.body);
    let heading = [
        "answerSetId",
        "respondentId",
        "sendoutId",
        "completed",
        "createdAt",
        "updatedAt",
        "Happy?",
        "Why, \"really\"?",
        "Hours?",
        "Rate us",
        "Anything else?",
    ];
    assert_eq!(records[0], heading, "the Info item has no column");
    assert_eq!(records[1], row(&sets[0], ["Yes", "'=Team; Pay", "37.5", "9", AWKWARD]));
    assert_eq!(records[2], row(&sets[1], ["", "", "-2", "", "'=1+1"]));
    assert_eq!(records[3], row(&sets[2], ["", "", "", "", "'-2"]));
    assert_eq!(records[4], row(&sets[3], ["", "", "", "", "'@x"]));
    assert_eq!(records[5], row(&sets[4], ["", "", "", "", "'\tcalc"]));
    assert_eq!(records.len(), 6);

    // As written: no byte-order mark, CRLF after every record, numbers bare, the awkward text quoted with its
    // quotes doubled and its line break kept.
    let text = String::from_utf8(export.body).unwrap();
    assert!(text.starts_with("answerSetId,respondentId,"));
    assert_eq!(text.matches("\r\n").count(), 6);
    assert!(text.ends_with("\r\n"));
    assert!(text.contains(",\"Why, \"\"really\"\"?\","));
    assert!(text.contains(",Yes,'=Team; Pay,37.5,9,\"Fine, \"\"mostly\"\"\nthanks; åäö ÅÄÖ, 🎉\"\r\n"));
    assert!(text.contains(",,,-2,,'=1+1\r\n"));
}

#[tokio::test]
async fn columns_by_ids_options_by_codes_and_a_byte_order_mark_on_request() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let sets = five_sets(&app, survey, &items).await;

    let records = csv_records(&export(&app, survey, "header=ids&values=codes").await);
    let Items { single, multiple, numeric, rating, open } = items;
    let by_ids: Vec<String> = [single, multiple, numeric, rating, open].iter().map(|id| format!("q{id}")).collect();
    assert_eq!(records[0][6..], by_ids);
    assert_eq!(records[1], row(&sets[0], ["y", "team; pay", "37.5", "9", AWKWARD]), "in the order chosen");
    assert_eq!(records[5][7], "", "nothing chosen");

    let plain = export(&app, survey, "").await;
    assert_eq!(csv_records(&plain)[1][6..8], ["Yes", "'=Team; Pay"], "csv, text headings and labels by default");
    let marked = export(&app, survey, "bom=true").await;
    assert_eq!(marked[..3], [0xEF, 0xBB, 0xBF]);
    assert_eq!(marked[3..], plain[..]);
    assert_eq!(export(&app, survey, "bom=false").await, plain);
}

#[tokio::test]
async fn the_export_path_is_never_read_as_an_answer_set_id() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let empty = export(&app, survey, "").await;
    assert_eq!(csv_records(&empty).len(), 1, "a survey without answers exports its heading only");
    let set = record(&app, survey, json!({"answers": [{"questionItemId": items.rating, "value": 3}]})).await;
    let id = set["answerSetId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{survey}/answers/{id}")).await.expect(200), set);
    assert_eq!(csv_records(&export(&app, survey, "").await)[1][0], id.to_string());
    let unknown = app.get(&format!("/surveys/{survey}/answers/exports")).await;
    assert_eq!((unknown.status.as_u16(), unknown.fields()), (400, vec!["path".to_owned()]));
}

#[tokio::test]
async fn every_semicolon_separated_part_of_a_cell_is_guarded() {
    let app = spawn_app().await;
    let body = json!({"name": "Separators", "pages": [{"items": [
        {"type": "MultipleChoice", "text": "Pick", "options": [
            {"value": "a", "label": "x;=1+1"}, {"value": "b", "label": "-2+3;@SUM(1)"}, {"value": "c", "label": "+c"}]},
        {"type": "OpenText", "text": "Say"}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let (pick, say) = (crate::helpers::item_id(&tree, 0, 0), crate::helpers::item_id(&tree, 0, 1));
    record(
        &app,
        survey,
        json!({"answers": [
        {"questionItemId": pick, "value": ["a", "b", "c"]}, {"questionItemId": say, "value": "ok; @x;\t=y"}]}),
    )
    .await;

    let labels = csv_records(&export(&app, survey, "format=csv").await);
    assert_eq!(labels[1][6..], ["x;'=1+1; '-2+3;'@SUM(1); '+c", "ok; '@x;'\t=y"]);
    let codes = csv_records(&export(&app, survey, "format=csv&values=codes").await);
    assert_eq!(codes[1][6], "a; b; c", "harmless parts stay as they are");
}
