//! `backgroundData=true` on exports: one column per distinct label name of the exported sets' sendouts (an EMAIL
//! sendout's labels and an open link's hidden fields side by side, same-named labels sharing a column), headed by
//! the name or `bg.<name>`, a Number label's values as numbers and the others guarded as text, in CSV, XLSX and
//! JSON Lines; the filter's sendout narrows the columns, and without the flag nothing changes.

use calamine::Data;
use reqwest::header::LOCATION;
use serde_json::{json, Value};

use super::{csv_records, export, json_lines, record, xlsx_rows};
use crate::helpers::{spawn_app, TestApp};

/// Adds labels `(name, type)` to the sendout at `base`; returns their ids by name.
async fn labels(app: &TestApp, base: &str, labels: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut ids = Vec::new();
    for (name, kind) in labels {
        let label = app.post(&format!("{base}/labels"), json!({"name": name, "labelType": kind})).await.expect(201);
        ids.push(((*name).to_owned(), label["labelId"].to_string()));
    }
    ids
}

fn id_of(ids: &[(String, String)], name: &str) -> String {
    ids.iter().find(|(n, _)| n == name).unwrap().1.clone()
}

/// A survey of one open question, answered three ways: by Ann of an EMAIL sendout (labels dept and age), by a
/// visitor of an open link that carried `?dept=Sales&src=poster` (labels dept and src), and by no respondent.
/// Returns the survey, the two sendouts, and the three answer sets in that order.
async fn answered_three_ways(app: &TestApp) -> (i64, i64, i64, [i64; 3]) {
    let body = json!({"name": "Canteen", "pages": [{"items": [{"type": "OpenText", "text": "What to change?"}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let item = tree["pages"][0]["items"][0]["questionItemId"].as_i64().unwrap();
    let answer = |respondent: Value, text: &str| json!({"respondentId": respondent, "completed": true, "answers": [{"questionItemId": item, "value": text}]});

    let email = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let email = email["sendoutId"].as_i64().unwrap();
    let email_base = format!("/surveys/{survey}/sendouts/{email}");
    let email_labels = labels(app, &email_base, &[("dept", "Text"), ("age", "Number")]).await;
    let data = json!({id_of(&email_labels, "dept"): "=Finance", id_of(&email_labels, "age"): "-3"});
    let ann = json!({"contactDetails": "ann@example.com", "sendMail": true, "backgroundData": data});
    let ann = app.post(&format!("{email_base}/respondents"), ann).await.expect(201)["respondentId"].clone();
    let by_ann = record(app, survey, answer(ann, "More salad")).await["answerSetId"].as_i64().unwrap();

    let link = app.post(&format!("/surveys/{survey}/sendouts"), json!({"name": "Poster", "type": "LINK"})).await;
    let link = link.expect(201);
    let link_id = link["sendoutId"].as_i64().unwrap();
    let link_base = format!("/surveys/{survey}/sendouts/{link_id}");
    labels(app, &link_base, &[("dept", "Text"), ("src", "Text")]).await;
    app.post(&format!("{link_base}/activate"), json!({})).await.expect(200);
    let start = link["openLink"].as_str().unwrap().to_owned();
    let page = app.client.get(format!("{start}?dept=Sales&src=poster&other=x")).send().await.unwrap();
    assert!(page.text().await.unwrap().contains(r#"name="src" value="poster""#));
    let form = [("dept", "Sales"), ("src", "poster")];
    let started = TestApp::client_without_redirects().post(&start).form(&form).send().await.unwrap();
    assert_eq!(started.status(), 303);
    assert!(started.headers()[LOCATION].to_str().unwrap().starts_with("/r/"));
    let visitors = app.get(&format!("{link_base}/respondents")).await.expect(200);
    let visitor = visitors[0]["respondentId"].clone();
    let by_visitor = record(app, survey, answer(visitor, "Less noise")).await["answerSetId"].as_i64().unwrap();

    let body = json!({"completed": true, "answers": [{"questionItemId": item, "value": "Nothing"}]});
    let by_nobody = record(app, survey, body).await["answerSetId"].as_i64().unwrap();
    (survey, email, link_id, [by_ann, by_visitor, by_nobody])
}

/// A CSV body's records with the five time and id cells of each row left out: the id, the answer and the rest.
fn trimmed(records: Vec<Vec<String>>) -> Vec<Vec<String>> {
    records.into_iter().map(|record| [&record[..1], &record[6..]].concat()).collect()
}

fn strings(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|cell| (*cell).to_owned()).collect()
}

#[tokio::test]
async fn background_data_comes_out_beside_the_answers_in_every_format() {
    let app = spawn_app().await;
    let (survey, _, _, [ann, visitor, nobody]) = answered_three_ways(&app).await;
    let (ann, visitor, nobody) = (ann.to_string(), visitor.to_string(), nobody.to_string());

    let csv = trimmed(csv_records(&export(&app, survey, "format=csv&backgroundData=true").await));
    assert_eq!(
        csv,
        [
            strings(&["answerSetId", "What to change?", "dept", "age", "src"]),
            strings(&[&ann, "More salad", "'=Finance", "-3", ""]),
            strings(&[&visitor, "Less noise", "Sales", "", "poster"]),
            strings(&[&nobody, "Nothing", "", "", ""]),
        ],
        "one dept column for both sendouts; a Number label's -3 is a number, a text's =Finance is guarded"
    );
    let by_ids = csv_records(&export(&app, survey, "backgroundData=true&header=ids").await);
    assert_eq!(by_ids[0][7..], strings(&["bg.dept", "bg.age", "bg.src"]));

    let rows = xlsx_rows(export(&app, survey, "format=xlsx&backgroundData=true").await);
    let heading: Vec<Data> = rows[0][7..].to_vec();
    assert_eq!(heading, ["dept", "age", "src"].map(|name| Data::String(name.into())));
    assert_eq!(rows[1][7..], [Data::String("'=Finance".into()), Data::Float(-3.0), Data::Empty]);
    assert_eq!(rows[2][7..], [Data::String("Sales".into()), Data::Empty, Data::String("poster".into())]);

    let lines = json_lines(&export(&app, survey, "format=jsonl&backgroundData=true").await);
    let background: Vec<&Value> = lines.iter().map(|line| &line["backgroundData"]).collect();
    assert_eq!(
        background,
        [&json!({"dept": "=Finance", "age": "-3"}), &json!({"dept": "Sales", "src": "poster"}), &json!({})],
        "values as stored, unguarded, keyed by label name"
    );
}

#[tokio::test]
async fn the_filters_sendout_narrows_the_columns_and_without_the_flag_nothing_changes() {
    let app = spawn_app().await;
    let (survey, email, link, _) = answered_three_ways(&app).await;

    let of_link = csv_records(&export(&app, survey, &format!("backgroundData=true&sendoutId={link}")).await);
    assert_eq!(of_link[0][6..], strings(&["What to change?", "dept", "src"]));
    assert_eq!((of_link.len(), &of_link[1][7..]), (2, &strings(&["Sales", "poster"])[..]));
    let of_email = csv_records(&export(&app, survey, &format!("backgroundData=true&sendoutId={email}")).await);
    assert_eq!(of_email[0][7..], strings(&["dept", "age"]));

    let plain = csv_records(&export(&app, survey, "format=csv").await);
    assert_eq!(plain[0].len(), 7, "no background columns unless asked for");
    let off = csv_records(&export(&app, survey, "format=csv&backgroundData=false").await);
    assert_eq!(off, plain);
    let lines = json_lines(&export(&app, survey, "format=jsonl").await);
    assert!(lines.iter().all(|line| line.get("backgroundData").is_none()), "{lines:?}");

    let bad = app.get(&format!("/surveys/{survey}/answers/export?backgroundData=yes")).await;
    assert_eq!(bad.fields(), ["backgroundData"]);
}

#[tokio::test]
async fn another_accounts_export_shows_none_of_the_labels_or_values() {
    let app = spawn_app().await;
    let (survey, ..) = answered_three_ways(&app).await;
    let (_, other_key) = app.new_account("Other", "other@example.com");
    let path = format!("/surveys/{survey}/answers/export?backgroundData=true");
    app.call_as(&other_key, "GET", &path, None).await.problem(404, "/problems/not-found");
    let (theirs, items) = super::export_survey(&app, &other_key).await;
    let set = json!({"answers": [{"questionItemId": items.open, "value": "Fine"}]});
    app.call_as(&other_key, "POST", &format!("/surveys/{theirs}/answers"), Some(set)).await.expect(201);
    let export = super::export_as(&app, &other_key, theirs, "backgroundData=true").await;
    let records = csv_records(&export.body);
    assert_eq!((records.len(), records[0].len()), (2, 11), "their set of no respondent: no background columns");
}
