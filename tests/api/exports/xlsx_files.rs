//! XLSX exports, opened with `calamine`: one sheet named "Answers", ids and numbers as numbers, `completed` as a
//! boolean, times as date-times, texts guarded as in CSV, non-ASCII text kept.

use calamine::Data;
use serde_json::{json, Value};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::{export_as, export_survey, record, xlsx_rows};
use crate::helpers::spawn_app;

fn text(value: &str) -> Data {
    Data::String(value.to_owned())
}

/// A number cell's value (calamine reads whole numbers as floats or integers).
fn number(cell: &Data) -> f64 {
    match cell {
        Data::Float(number) => *number,
        Data::Int(number) => *number as f64,
        other => panic!("not a number: {other:?}"),
    }
}

/// Checks that the cell is a date-time at the instant of an RFC 3339 time: Excel counts days from 1899-12-30,
/// so 1970-01-01 is day 25,569.
fn assert_time(cell: &Data, rfc3339: &Value) {
    let at = OffsetDateTime::parse(rfc3339.as_str().unwrap(), &Rfc3339).unwrap();
    let expected = 25_569.0 + at.unix_timestamp_nanos() as f64 / 86_400e9;
    match cell {
        Data::DateTime(serial) => {
            assert!((serial.as_f64() - expected).abs() < 1e-8, "{} is not {rfc3339}", serial.as_f64());
        }
        other => panic!("not a date-time: {other:?}"),
    }
}

#[tokio::test]
async fn an_xlsx_export_is_one_sheet_of_typed_cells() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let awkward = "Fine, \"mostly\"\nthanks; åäö 🎉";
    let full = record(
        &app,
        survey,
        json!({"completed": true, "answers": [
        {"questionItemId": items.single, "value": "n"},
        {"questionItemId": items.multiple, "value": ["desk", "team"]},
        {"questionItemId": items.numeric, "value": -12.25},
        {"questionItemId": items.rating, "value": 10},
        {"questionItemId": items.open, "value": awkward}]}),
    )
    .await;
    let formula = record(&app, survey, json!({"answers": [{"questionItemId": items.open, "value": "=1+1"}]})).await;

    let export = export_as(&app, &app.key, survey, "format=xlsx").await;
    assert_eq!(export.status, 200);
    assert_eq!(export.content_type, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    assert_eq!(export.disposition, format!("attachment; filename=\"survey-{survey}-answers.xlsx\""));
    assert_eq!(export.body[..4], *b"PK\x03\x04", "an Office Open XML package is a zip");
    let rows = xlsx_rows(export.body);
    assert_eq!(rows.len(), 3);
    let heading: Vec<Data> = ["answerSetId", "respondentId", "sendoutId", "completed", "createdAt", "updatedAt"]
        .into_iter()
        .chain(["Happy?", "Why, \"really\"?", "Hours?", "Rate us", "Anything else?"])
        .map(text)
        .collect();
    assert_eq!(rows[0], heading);

    let first = &rows[1];
    assert_eq!(number(&first[0]), full["answerSetId"].as_f64().unwrap());
    assert_eq!((&first[1], &first[2], &first[3]), (&Data::Empty, &Data::Empty, &Data::Bool(true)));
    assert_time(&first[4], &full["createdAt"]);
    assert_time(&first[5], &full["updatedAt"]);
    assert_eq!(first[6], text("No"));
    assert_eq!(first[7], text("Desk; '=Team"), "each `; `-joined part is guarded as a cell");
    assert_eq!((number(&first[8]), number(&first[9])), (-12.25, 10.0));
    assert_eq!(first[10], text(awkward));

    let second = &rows[2];
    assert_eq!(number(&second[0]), formula["answerSetId"].as_f64().unwrap());
    assert_eq!(second[3], Data::Bool(false));
    assert_eq!(second[6..10], [Data::Empty, Data::Empty, Data::Empty, Data::Empty]);
    assert_eq!(second[10], text("'=1+1"));
}

#[tokio::test]
async fn an_xlsx_export_takes_the_layout_parameters_and_of_no_sets_is_its_heading() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let heading_only = xlsx_rows(export_as(&app, &app.key, survey, "format=xlsx&header=ids").await.body);
    assert_eq!(heading_only.len(), 1);
    assert_eq!(heading_only[0][6], text(&format!("q{}", items.single)));
    assert_eq!(heading_only[0][10], text(&format!("q{}", items.open)));

    record(&app, survey, json!({"answers": [{"questionItemId": items.multiple, "value": ["team", "pay"]}]})).await;
    let codes = xlsx_rows(export_as(&app, &app.key, survey, "format=xlsx&values=codes").await.body);
    assert_eq!((&codes[0][7], &codes[1][7]), (&text("Why, \"really\"?"), &text("team; pay")));
    let labels = xlsx_rows(export_as(&app, &app.key, survey, "format=xlsx&bom=true").await.body);
    assert_eq!(labels[1][7], text("'=Team; Pay"), "bom is for CSV; a workbook is the same with it");
}

#[tokio::test]
async fn a_survey_wider_than_a_sheet_is_refused_as_xlsx_before_the_file_starts() {
    let app = spawn_app().await;
    // Six fixed columns and 16,379 items: one column more than a sheet's 16,384.
    let items: Vec<Value> = (0..16_379).map(|n| json!({"type": "Numeric", "text": format!("q{n}")})).collect();
    let body = json!({"name": "Wide", "pages": [{"items": items}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let reply = app.get(&format!("/surveys/{survey}/answers/export?format=xlsx")).await;
    assert_eq!(reply.fields(), ["format"]);
    reply.problem(400, "/validation");
    let csv = export_as(&app, &app.key, survey, "format=csv").await;
    assert_eq!(csv.status, 200);
    assert_eq!(super::csv_records(&csv.body)[0].len(), 16_385, "CSV has no such limit");
}
