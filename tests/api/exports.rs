//! Answer exports (`GET /surveys/{surveyId}/answers/export`): CSV, XLSX and JSON Lines read back with their own
//! readers (the `csv` crate, `calamine`, serde_json), the filters, what is refused before the file starts, and
//! exports longer than a chunk, read whole or left unread, and what an export may hold on the server. The set-up
//! the files share is here.

mod background_data;
mod csv_files;
mod filters;
mod held_exports;
mod jsonl_files;
mod languages;
mod long_exports;
mod xlsx_files;

use calamine::{Data, Reader, Xlsx};
use serde_json::{json, Value};

use crate::helpers::TestApp;

/// The item ids of the export survey, in tree order, without the Info item.
pub(crate) struct Items {
    pub single: i64,
    pub multiple: i64,
    pub numeric: i64,
    pub rating: i64,
    pub open: i64,
}

/// A survey of every type, whose option labels differ from their values (one label is a formula, one value a
/// code) and whose item texts need quoting, in the account of `key`; returns its id and its answering items.
pub(crate) async fn export_survey(app: &TestApp, key: &str) -> (i64, Items) {
    let body = json!({"name": "Exported", "pages": [
        {"items": [
            {"type": "SingleChoice", "text": "Happy?", "options": [{"value": "y", "label": "Yes"}, {"value": "n", "label": "No"}]},
            {"type": "MultipleChoice", "text": "Why, \"really\"?",
             "options": [{"value": "pay", "label": "Pay"}, {"value": "team", "label": "=Team"}, {"value": "desk", "label": "Desk"}]},
            {"type": "Info", "text": "Next, numbers."}
        ]},
        {"items": [
            {"type": "Numeric", "text": "Hours?"},
            {"type": "Rating", "text": "Rate us"},
            {"type": "OpenText", "text": "Anything else?"}
        ]}
    ]});
    let survey = app.call_as(key, "POST", "/surveys", Some(body)).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.call_as(key, "GET", &format!("/surveys/{survey}/questions"), None).await.expect(200);
    let id = |page: usize, item: usize| tree["pages"][page]["items"][item]["questionItemId"].as_i64().unwrap();
    let items = Items { single: id(0, 0), multiple: id(0, 1), numeric: id(1, 0), rating: id(1, 1), open: id(1, 2) };
    (survey, items)
}

/// Records an answer set; returns it as the API answered.
pub(crate) async fn record(app: &TestApp, survey: i64, body: Value) -> Value {
    app.post(&format!("/surveys/{survey}/answers"), body).await.expect(201)
}

/// An export as it came: status, media type, disposition and the raw body.
pub(crate) struct Export {
    pub status: u16,
    pub content_type: String,
    pub disposition: String,
    pub body: Vec<u8>,
}

/// `GET /surveys/{survey}/answers/export?{query}` with `key`, read whole.
pub(crate) async fn export_as(app: &TestApp, key: &str, survey: i64, query: &str) -> Export {
    let url = format!("{}/api/v1/surveys/{survey}/answers/export?{query}", app.address);
    let response = app.client.get(url).header("X-API-KEY", key).send().await.unwrap();
    let header = |name: &str| response.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let (content_type, disposition) = (header("content-type"), header("content-disposition"));
    let status = response.status().as_u16();
    Export { status, content_type, disposition, body: response.bytes().await.unwrap().to_vec() }
}

/// An export with the app's key, which must answer 200 with the format's media type.
pub(crate) async fn export(app: &TestApp, survey: i64, query: &str) -> Vec<u8> {
    let export = export_as(app, &app.key, survey, query).await;
    assert_eq!(export.status, 200, "{query}: {}", String::from_utf8_lossy(&export.body));
    export.body
}

/// A CSV body's records, the heading first, read by the `csv` crate as RFC 4180.
pub(crate) fn csv_records(body: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(body);
    reader.records().map(|record| record.unwrap().iter().map(str::to_owned).collect()).collect()
}

/// The rows of an XLSX body's one sheet, after checking that it is the only one, named "Answers", and starts at
/// A1.
pub(crate) fn xlsx_rows(body: Vec<u8>) -> Vec<Vec<Data>> {
    let mut workbook: Xlsx<_> = Xlsx::new(std::io::Cursor::new(body)).unwrap();
    assert_eq!(workbook.sheet_names(), ["Answers"]);
    let range = workbook.worksheet_range("Answers").unwrap();
    assert_eq!(range.start(), Some((0, 0)));
    range.rows().map(<[Data]>::to_vec).collect()
}

/// A JSON Lines body's objects; every line ends with `\n`.
pub(crate) fn json_lines(body: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(body).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "every line ends with a newline");
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// The answer set ids of a survey's answer list, in its order.
pub(crate) async fn listed_ids(app: &TestApp, survey: i64, query: &str) -> Vec<i64> {
    let list = app.get(&format!("/surveys/{survey}/answers?{query}")).await.expect(200);
    list.as_array().unwrap().iter().map(|set| set["answerSetId"].as_i64().unwrap()).collect()
}
