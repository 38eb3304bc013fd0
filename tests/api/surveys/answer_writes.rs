//! Answer sets written in one statement whatever their size, and question trees read in one: empty and large
//! sets, replacing some answers, surveys without pages, and what another account sees.

use serde_json::{json, Value};

use crate::helpers::{item_id, spawn_app, TestApp};

/// A survey of four pages of 50 OpenText items each (200 in all); returns `(surveyId, tree)`.
async fn survey_of_200_items(app: &TestApp) -> (i64, Value) {
    let pages: Vec<Value> = (0..4)
        .map(|p| {
            let items: Vec<Value> =
                (0..50).map(|i| json!({"type": "OpenText", "text": format!("Question {p}.{i}")})).collect();
            json!({"title": format!("Page {p}"), "items": items})
        })
        .collect();
    let survey = app.post("/surveys", json!({"name": "Long", "pages": pages})).await.expect(201);
    let id = survey["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

/// Every item of the tree, page by page.
fn all_items(tree: &Value) -> Vec<i64> {
    let pages = tree["pages"].as_array().unwrap();
    pages
        .iter()
        .flat_map(|p| p["items"].as_array().unwrap().iter().map(|i| i["questionItemId"].as_i64().unwrap()))
        .collect()
}

#[tokio::test]
async fn an_answer_set_without_answers_is_recorded_and_reads_back() {
    let app = spawn_app().await;
    let (id, _) = app.sample_survey().await;
    let set = app.post(&format!("/surveys/{id}/answers"), json!({"answers": []})).await.expect(201);
    assert_eq!(set["answers"], json!([]));
    assert_eq!(set["completed"], false);
    let set_id = set["answerSetId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200), set);

    let replaced = app.put(&format!("/surveys/{id}/answers/{set_id}"), json!({"answers": []})).await.expect(200);
    assert_eq!(replaced["answers"], json!([]));
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200), replaced);
}

#[tokio::test]
async fn two_hundred_answers_are_recorded_in_tree_order_and_replaced_in_part() {
    let app = spawn_app().await;
    let (id, tree) = survey_of_200_items(&app).await;
    let items = all_items(&tree);
    assert_eq!(items.len(), 200);
    // Sent in reverse: the set answers them in the order of the tree.
    let answers: Vec<Value> =
        items.iter().rev().map(|item| json!({"questionItemId": item, "value": format!("answer {item}")})).collect();
    let set = app.post(&format!("/surveys/{id}/answers"), json!({"completed": true, "answers": answers})).await;
    let set = set.expect(201);
    let expected: Vec<Value> =
        items.iter().map(|item| json!({"questionItemId": item, "value": format!("answer {item}")})).collect();
    assert_eq!(set["answers"], json!(expected));
    let set_id = set["answerSetId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200), set);

    // Every other item keeps an answer, changed; the rest lose theirs.
    let kept: Vec<Value> =
        items.iter().step_by(2).map(|item| json!({"questionItemId": item, "value": format!("new {item}")})).collect();
    let replaced = app.put(&format!("/surveys/{id}/answers/{set_id}"), json!({"answers": kept})).await.expect(200);
    assert_eq!(replaced["answers"], json!(kept));
    assert_eq!(replaced["completed"], false);
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200), replaced);
    let dropped = items[1];
    let path = format!("/surveys/{id}/answers/{set_id}/questionitem/{dropped}");
    app.get(&path).await.problem(404, "/not-found");
}

#[tokio::test]
async fn a_survey_without_pages_has_an_empty_tree_and_takes_empty_answer_sets() {
    let app = spawn_app().await;
    let survey = app.post("/surveys", json!({"name": "Empty"})).await.expect(201);
    let id = survey["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{id}/questions")).await.expect(200);
    assert_eq!(tree["pages"], json!([]));
    assert_eq!(tree["logic"], json!([]));
    assert_eq!(tree["surveyId"], id);
    let set = app.post(&format!("/surveys/{id}/answers"), json!({"completed": true, "answers": []})).await.expect(201);
    assert_eq!(set["completed"], true);
    assert_eq!(set["answers"], json!([]));
}

#[tokio::test]
async fn another_accounts_survey_is_not_found_for_its_tree_and_answers() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let item = item_id(&tree, 2, 0);
    let first = json!({"answers": [{"questionItemId": item, "value": "a"}]});
    let set_id = app.post(&format!("/surveys/{id}/answers"), first).await.expect(201)["answerSetId"].as_i64().unwrap();
    let (_, other) = app.new_account("Other", "owner@other.example");
    app.call_as(&other, "GET", &format!("/surveys/{id}/questions"), None).await.problem(404, "/not-found");
    // Not found comes before the answers are looked at, even when they are wrong.
    for answers in [json!([]), json!([{"questionItemId": item, "value": 5}])] {
        let body = json!({"answers": answers});
        let post = app.call_as(&other, "POST", &format!("/surveys/{id}/answers"), Some(body.clone())).await;
        post.problem(404, "/not-found");
        let put = app.call_as(&other, "PUT", &format!("/surveys/{id}/answers/{set_id}"), Some(body)).await;
        put.problem(404, "/not-found");
    }
    let own = app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200);
    assert_eq!(own["answers"], json!([{"questionItemId": item, "value": "a"}]), "the owner's set is unchanged");
}

#[tokio::test]
async fn replacing_an_unknown_set_is_not_found_even_with_wrong_answers() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let (other_survey, _) = app.sample_survey().await;
    let set = app.post(&format!("/surveys/{other_survey}/answers"), json!({"answers": []})).await.expect(201);
    let set_of_other_survey = set["answerSetId"].as_i64().unwrap();
    let wrong = json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": "maybe"}]});
    let right = json!({"answers": [{"questionItemId": item_id(&tree, 0, 0), "value": "yes"}]});
    for set in [987_654, set_of_other_survey] {
        for body in [&wrong, &right] {
            let reply = app.put(&format!("/surveys/{id}/answers/{set}"), body.clone()).await;
            reply.problem(404, "/not-found");
        }
    }
    let own = app.post(&format!("/surveys/{id}/answers"), right.clone()).await.expect(201);
    let own_id = own["answerSetId"].as_i64().unwrap();
    let reply = app.put(&format!("/surveys/{id}/answers/{own_id}"), wrong).await;
    assert_eq!(reply.fields(), ["answers[0].value"]);
    reply.problem(400, "/validation");
    let untouched = app.get(&format!("/surveys/{other_survey}/answers/{set_of_other_survey}")).await.expect(200);
    assert_eq!(untouched, set, "a set of another survey is not changed through this one");
}
