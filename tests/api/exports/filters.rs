//! The filters of an export (`completed`, `from`, `to`, `updated`, `sendoutId`) in every format, and what is refused
//! before the file starts: bad parameters (400 naming them, with the names an enum takes), a sendout that is not
//! the survey's (400 on `sendoutId`), a survey of another account or none (404).

use serde_json::{json, Value};

use super::{csv_records, export, export_as, export_survey, json_lines, listed_ids, record, xlsx_rows};
use crate::helpers::{email_sendout, spawn_app, TestApp};

/// A sendout of the survey with one respondent, in the account of `key`; returns `(sendoutId, respondentId)`.
async fn sendout_with_respondent(app: &TestApp, key: &str, survey: i64) -> (i64, i64) {
    let path = format!("/surveys/{survey}/sendouts");
    let sendout = app.call_as(key, "POST", &path, Some(email_sendout())).await.expect(201)["sendoutId"].as_i64();
    let sendout = sendout.unwrap();
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents");
    let respondent = app.call_as(key, "POST", &path, Some(person)).await.expect(201)["respondentId"].as_i64();
    (sendout, respondent.unwrap())
}

/// The set ids an export of each format holds, which must agree; returns them.
async fn exported_ids(app: &TestApp, survey: i64, filters: &str) -> Vec<i64> {
    let csv = csv_records(&export(app, survey, filters).await);
    let from_csv: Vec<i64> = csv[1..].iter().map(|record| record[0].parse().unwrap()).collect();
    let lines = json_lines(&export(app, survey, &format!("format=jsonl&{filters}")).await);
    let from_lines: Vec<i64> = lines.iter().map(|line| line["answerSetId"].as_i64().unwrap()).collect();
    let xlsx = export(app, survey, &format!("format=xlsx&{filters}")).await;
    let from_xlsx: Vec<i64> = xlsx_rows(xlsx)
        .iter()
        .skip(1)
        .map(|row| match &row[0] {
            calamine::Data::Float(id) => *id as i64,
            calamine::Data::Int(id) => *id,
            other => panic!("not an id: {other:?}"),
        })
        .collect();
    assert_eq!((&from_lines, &from_xlsx), (&from_csv, &from_csv), "{filters}");
    from_csv
}

fn id(set: &Value) -> i64 {
    set["answerSetId"].as_i64().unwrap()
}

/// A time of a set as a query parameter.
fn at(set: &Value, field: &str) -> String {
    set[field].as_str().unwrap().replace(':', "%3A").replace('+', "%2B")
}

#[tokio::test]
async fn the_filters_narrow_every_format_alike() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let (sendout, respondent) = sendout_with_respondent(&app, &app.key, survey).await;
    let answer = json!([{"questionItemId": items.rating, "value": 5}]);
    let first = record(&app, survey, json!({"completed": true, "answers": answer})).await;
    let second = record(&app, survey, json!({"respondentId": respondent, "answers": answer})).await;
    let third = record(&app, survey, json!({"respondentId": respondent, "completed": true, "answers": answer})).await;
    let (first, second, third) = (id(&first), &second, &third);
    let (second_id, third_id) = (id(second), id(third));

    assert_eq!(exported_ids(&app, survey, "").await, [first, second_id, third_id]);
    assert_eq!(exported_ids(&app, survey, "completed=true").await, [first, third_id]);
    assert_eq!(exported_ids(&app, survey, "completed=false").await, [first, second_id, third_id]);
    assert_eq!(exported_ids(&app, survey, &format!("sendoutId={sendout}")).await, [second_id, third_id]);
    assert_eq!(exported_ids(&app, survey, &format!("sendoutId={sendout}&completed=true")).await, [third_id]);
    for filter in [
        format!("from={}", at(second, "createdAt")),
        format!("to={}", at(second, "createdAt")),
        format!("from={}&to={}", at(second, "createdAt"), at(third, "createdAt")),
        format!("updated={}", at(third, "updatedAt")),
        "from=2000-01-01&to=2000-12-31".to_owned(),
    ] {
        let listed = listed_ids(&app, survey, &filter).await;
        assert_eq!(exported_ids(&app, survey, &filter).await, listed, "as the answer list filters: {filter}");
    }
    assert_eq!(exported_ids(&app, survey, &format!("from={}", at(second, "createdAt"))).await, [second_id, third_id]);
    assert_eq!(exported_ids(&app, survey, "from=2000-01-01&to=2000-12-31").await, Vec::<i64>::new());
}

#[tokio::test]
async fn bad_parameters_and_foreign_surveys_and_sendouts_are_refused_before_the_file_starts() {
    let app = spawn_app().await;
    let (survey, _) = export_survey(&app, &app.key).await;
    let (other_survey, _) = export_survey(&app, &app.key).await;
    let (sendout_of_other_survey, _) = sendout_with_respondent(&app, &app.key, other_survey).await;
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let (foreign_survey, _) = export_survey(&app, &other_key).await;
    let (foreign_sendout, _) = sendout_with_respondent(&app, &other_key, foreign_survey).await;
    let get = |key: String, survey: i64, query: String| {
        let app = &app;
        async move { app.call_as(&key, "GET", &format!("/surveys/{survey}/answers/export?{query}"), None).await }
    };
    let key = || app.key.clone();

    for (query, field, supported) in [
        ("format=pdf", "format", json!(["csv", "xlsx", "jsonl"])),
        ("format=CSV", "format", json!(["csv", "xlsx", "jsonl"])),
        ("header=names", "header", json!(["text", "ids"])),
        ("values=raw", "values", json!(["labels", "codes"])),
    ] {
        let problem = get(key(), survey, query.into()).await.problem(400, "/validation");
        assert_eq!((problem["errors"][0]["field"].as_str(), &problem["supportedValues"]), (Some(field), &supported));
    }
    for (query, field) in [
        ("bom=maybe", "bom"),
        ("completed=2", "completed"),
        ("from=soon", "from"),
        ("updated=2020-01-01&from=2020-01-01", "updated"),
        ("sendoutId=abc", "sendoutId"),
    ] {
        let reply = get(key(), survey, query.into()).await;
        assert_eq!(reply.fields(), [field], "{query}");
        reply.problem(400, "/validation");
    }
    for sendout in [sendout_of_other_survey, foreign_sendout, 987_654_321] {
        let reply = get(key(), survey, format!("sendoutId={sendout}")).await;
        assert_eq!(reply.fields(), ["sendoutId"]);
        reply.problem(400, "/validation");
    }
    for (key, survey) in [(key(), foreign_survey), (key(), 987_654_321), (other_key.clone(), survey)] {
        get(key.clone(), survey, String::new()).await.problem(404, "/not-found");
        get(key, survey, format!("format=xlsx&sendoutId={foreign_sendout}")).await.problem(404, "/not-found");
    }
    // A refusal is a problem, never the start of a file.
    let refused = export_as(&app, &app.key, survey, "format=pdf").await;
    assert_eq!((refused.content_type.as_str(), refused.disposition.as_str()), ("application/problem+json", ""));
    let theirs = export_as(&app, &other_key, foreign_survey, &format!("sendoutId={foreign_sendout}")).await;
    assert_eq!(theirs.status, 200, "the sendout is the other account's own");
}

#[tokio::test]
async fn answer_conditions_narrow_every_format_and_every_list_alike() {
    let app = spawn_app().await;
    let (survey, items) = export_survey(&app, &app.key).await;
    let rated =
        |rating: i64| json!({"completed": true, "answers": [{"questionItemId": items.rating, "value": rating}]});
    let low = id(&record(&app, survey, rated(3)).await);
    let high = id(&record(&app, survey, rated(9)).await);
    let none = id(&record(&app, survey, json!({"completed": true, "answers": []})).await);
    let rating = items.rating;
    assert_eq!(exported_ids(&app, survey, &format!("where={rating}:gt:5")).await, [high]);
    assert_eq!(exported_ids(&app, survey, &format!("where={rating}:ne:9")).await, [low, none], "ne holds on no answer");
    assert_eq!(exported_ids(&app, survey, &format!("where={rating}:in:3%7C9&where={rating}:lt:9")).await, [low]);
    let listed = app.get(&format!("/surveys/{survey}/answers?where={rating}:eq:9")).await.expect(200);
    assert_eq!(listed.as_array().unwrap().iter().map(id).collect::<Vec<_>>(), [high]);
    let page = app.get(&format!("/surveys/{survey}/answersWithData?where={rating}:lt:9")).await.expect(200);
    assert_eq!((page["totalCount"].as_i64(), id(&page["answerSets"][0])), (Some(1), low));
    for wrong in
        [format!("where={rating}:gt:high"), format!("where={}:eq:1", items.open + 1_000), "where=1:like:2".into()]
    {
        let problem = app.get(&format!("/surveys/{survey}/answers/export?{wrong}")).await.problem(400, "/validation");
        assert_eq!(problem["errors"][0]["field"], "where", "{wrong}");
        app.get(&format!("/surveys/{survey}/answers?{wrong}")).await.problem(400, "/validation");
    }
}
