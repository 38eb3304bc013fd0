//! Answer sets: per-type validation, the five reads, filters and paging.

use serde_json::{json, Value};

use crate::helpers::{item_id, spawn_app, TestApp};

/// A complete, valid answer set for the sample survey.
fn full_answers(tree: &Value) -> Value {
    json!([
        {"questionItemId": item_id(tree, 0, 0), "value": "yes"},
        {"questionItemId": item_id(tree, 0, 1), "value": ["team", "pay"]},
        {"questionItemId": item_id(tree, 1, 0), "value": 37.5},
        {"questionItemId": item_id(tree, 1, 1), "value": 8},
        {"questionItemId": item_id(tree, 2, 0), "value": "fine"}
    ])
}

async fn record(app: &TestApp, survey: i64, body: Value) -> Value {
    app.post(&format!("/surveys/{survey}/answers"), body).await.expect(201)
}

#[tokio::test]
async fn an_answer_set_is_recorded_and_read_five_ways() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let set = record(&app, id, json!({"completed": true, "answers": full_answers(&tree)})).await;
    assert_eq!(set["surveyId"], id);
    assert_eq!(set["completed"], true);
    assert_eq!(set["respondentId"], Value::Null);
    assert_eq!(set["sendoutId"], Value::Null);
    assert_eq!(set["answers"], full_answers(&tree));
    let set_id = set["answerSetId"].as_i64().unwrap();

    let one = app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200);
    assert_eq!(one, set);
    let list = app.get(&format!("/surveys/{id}/answers")).await.expect(200);
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert!(list[0].get("answers").is_none(), "the list carries no answers");
    let page = app.get(&format!("/surveys/{id}/answersWithData")).await.expect(200);
    assert_eq!((page["pageNumber"].clone(), page["pageSize"].clone()), (json!(1), json!(100)));
    assert_eq!((page["pageCount"].clone(), page["totalCount"].clone()), (json!(1), json!(1)));
    assert_eq!(page["answerSets"][0], set);
    let item =
        app.get(&format!("/surveys/{id}/answers/{set_id}/questionitem/{}", item_id(&tree, 0, 1))).await.expect(200);
    assert_eq!(item, json!({"questionItemId": item_id(&tree, 0, 1), "value": ["team", "pay"]}));
    let info = item_id(&tree, 0, 2);
    app.get(&format!("/surveys/{id}/answers/{set_id}/questionitem/{info}")).await.problem(404, "/not-found");
    app.get(&format!("/surveys/{id}/answers/respondent/12345")).await.problem(404, "/not-found");
    app.get(&format!("/surveys/{id}/answers/9999999")).await.problem(404, "/not-found");
}

#[tokio::test]
async fn answers_that_do_not_fit_their_item_are_refused() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let (_, other_tree) = app.sample_survey().await;
    let cases = [
        (json!({"questionItemId": item_id(&tree, 0, 0), "value": "maybe"}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 0, 0), "value": ["yes"]}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 0, 1), "value": "pay"}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 0, 1), "value": ["pay", 3]}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 0, 2), "value": "hello"}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 1, 0), "value": "12"}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 1, 1), "value": 11}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 1, 1), "value": 2.5}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 2, 0), "value": null}), "answers[0].value"),
        (json!({"questionItemId": item_id(&tree, 2, 0), "value": {"a": 1}}), "answers[0].value"),
        (json!({"questionItemId": item_id(&other_tree, 0, 0), "value": "yes"}), "answers[0].questionItemId"),
        (json!({"questionItemId": "x", "value": "yes"}), "answers[0].questionItemId"),
    ];
    for (answer, field) in cases {
        let reply = app.post(&format!("/surveys/{id}/answers"), json!({"answers": [answer]})).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert_eq!(fields, [field], "{answer}");
    }
    let twice = json!({"answers": [
        {"questionItemId": item_id(&tree, 2, 0), "value": "a"}, {"questionItemId": item_id(&tree, 2, 0), "value": "b"}]});
    app.post(&format!("/surveys/{id}/answers"), twice).await.problem(400, "/validation");
    let incomplete = json!({"completed": true, "answers": [{"questionItemId": item_id(&tree, 0, 0), "value": "yes"}]});
    let reply = app.post(&format!("/surveys/{id}/answers"), incomplete).await;
    assert_eq!(reply.fields(), ["answers"]);
    let unknown_respondent = json!({"respondentId": 5, "answers": []});
    let reply = app.post(&format!("/surveys/{id}/answers"), unknown_respondent).await;
    assert_eq!(reply.fields(), ["respondentId"]);
    assert_eq!(app.get(&format!("/surveys/{id}/answers")).await.expect(200), json!([]));
}

#[tokio::test]
async fn a_multiple_choice_answer_chooses_each_option_at_most_once() {
    let app = spawn_app().await;
    let options: Vec<Value> = (0..1_000).map(|i| json!({"value": format!("o{i}")})).collect();
    let body = json!({"name": "Many", "pages": [{"items": [{"type": "MultipleChoice", "text": "Which?", "options": options}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let answer =
        |choices: Vec<String>| json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": choices}]});
    let path = format!("/surveys/{survey}/answers");

    let too_many: Vec<String> = (0..50_000).map(|i| format!("o{i}")).collect();
    let reply = app.post(&path, answer(too_many)).await;
    assert_eq!(reply.fields(), ["answers[0].value"]);
    let detail = reply.problem(400, "/validation")["errors"][0]["message"].clone();
    assert_eq!(detail, "chooses 50000 values; the item has 1000 options, each of which can be chosen once");
    let mut every: Vec<String> = (0..1_000).map(|i| format!("o{i}")).collect();
    app.post(&path, answer(every.clone())).await.expect(201);
    every[999] = "o0".into();
    let reply = app.post(&path, answer(every.clone())).await;
    assert_eq!(reply.fields(), ["answers[0].value"]);
    let unknown = app.post("/surveys/999999/answers", answer(every)).await;
    assert_eq!(unknown.fields(), ["answers[0].value"], "refused before the survey is looked up");
}

#[tokio::test]
async fn replacing_answers_moves_updated_at_and_keeps_created_at() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let first = json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": "no"}]});
    let set = record(&app, id, first).await;
    let set_id = set["answerSetId"].as_i64().unwrap();
    let replaced = app
        .put(&format!("/surveys/{id}/answers/{set_id}"), json!({"completed": true, "answers": full_answers(&tree)}))
        .await
        .expect(200);
    assert_eq!(replaced["createdAt"], set["createdAt"]);
    assert_ne!(replaced["updatedAt"], set["updatedAt"]);
    assert_eq!(replaced["completed"], true);
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200)["answers"], full_answers(&tree));
    let bad = json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": 1}]});
    app.put(&format!("/surveys/{id}/answers/{set_id}"), bad).await.problem(400, "/validation");
    app.put(&format!("/surveys/{id}/answers/999999"), json!({"answers": []})).await.problem(404, "/not-found");
}

#[tokio::test]
async fn date_filters_follow_the_interface_rules() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let partial = record(&app, id, json!({"answers": []})).await;
    let complete = record(&app, id, json!({"completed": true, "answers": full_answers(&tree)})).await;
    let created = complete["createdAt"].as_str().unwrap().to_owned();
    let query = |q: &str| format!("/surveys/{id}/answers?{q}");

    assert_eq!(app.get(&query("completed=true")).await.expect(200).as_array().unwrap().len(), 1);
    assert_eq!(app.get(&query("completed=false")).await.expect(200).as_array().unwrap().len(), 2);
    let since = app.get(&query(&format!("from={}", urlencode(&created)))).await.expect(200);
    assert_eq!(
        since.as_array().unwrap().iter().map(|s| s["answerSetId"].clone()).collect::<Vec<_>>(),
        [complete["answerSetId"].clone()]
    );
    let until = app.get(&query(&format!("to={}", urlencode(partial["createdAt"].as_str().unwrap())))).await.expect(200);
    assert_eq!(until.as_array().unwrap().len(), 1);
    assert_eq!(app.get(&query("from=2000-01-01&to=2999-01-01")).await.expect(200).as_array().unwrap().len(), 2);
    assert_eq!(app.get(&query("updated=2999-01-01")).await.expect(200), json!([]));
    let today = &created[..10];
    assert_eq!(
        app.get(&query(&format!("to={today}"))).await.expect(200).as_array().unwrap().len(),
        2,
        "a date-only `to` includes that day"
    );

    let reply = app.get(&query("updated=2020-01-01&from=2020-01-01")).await;
    assert_eq!(reply.fields(), ["updated"]);
    let reply = app.get(&query("from=2021-01-02&to=2021-01-01")).await;
    assert_eq!(reply.fields(), ["from"]);
    let reply = app.get(&query("from=yesterday")).await;
    assert_eq!(reply.fields(), ["from"]);
    let reply = app.get(&query("completed=maybe")).await;
    assert_eq!(reply.fields(), ["completed"]);
    for q in ["updated=2020-01-01&to=2020-01-01", "to=13/01/2020"] {
        app.get(&query(q)).await.problem(400, "/validation");
        app.get(&format!("/surveys/{id}/answersWithData?{q}")).await.problem(400, "/validation");
    }
}

#[tokio::test]
async fn answers_with_data_pages_through_every_set() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(
            record(&app, id, json!({"completed": true, "answers": full_answers(&tree)})).await["answerSetId"].clone(),
        );
    }
    let page = |q: &str| format!("/surveys/{id}/answersWithData?{q}");
    let second = app.get(&page("page=2&pagesize=2")).await.expect(200);
    assert_eq!((second["pageNumber"].clone(), second["pageSize"].clone()), (json!(2), json!(2)));
    assert_eq!((second["pageCount"].clone(), second["totalCount"].clone()), (json!(3), json!(5)));
    let got: Vec<_> = second["answerSets"].as_array().unwrap().iter().map(|s| s["answerSetId"].clone()).collect();
    assert_eq!(got, ids[2..4]);
    assert_eq!(second["answerSets"][0]["answers"], full_answers(&tree));
    let past = app.get(&page("page=9&pagesize=2")).await.expect(200);
    assert_eq!(past["answerSets"], json!([]));
    assert_eq!(past["totalCount"], 5);
    app.get(&page("pagesize=1000")).await.expect(200);
    for (q, field) in
        [("page=0", "page"), ("pagesize=0", "pagesize"), ("pagesize=1001", "pagesize"), ("page=x", "page")]
    {
        let reply = app.get(&page(q)).await;
        assert_eq!(reply.fields(), [field], "{q}");
        reply.problem(400, "/validation");
    }
}

fn urlencode(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}
