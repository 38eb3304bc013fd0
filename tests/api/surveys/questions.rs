//! Logic rules and deleting question items.

use serde_json::json;

use crate::helpers::{item_id, page_id, spawn_app};

#[tokio::test]
async fn logic_is_set_in_order_and_read_back() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let rules = json!([
        {"questionItemId": item_id(&tree, 0, 0), "equals": "no", "goToPageId": page_id(&tree, 2)},
        {"questionItemId": item_id(&tree, 1, 1), "equals": 3, "goToPageId": page_id(&tree, 2)}
    ]);
    let updated = app.put(&format!("/surveys/{id}/logic"), rules).await.expect(200);
    let logic = updated["logic"].as_array().unwrap();
    assert_eq!(logic.len(), 2);
    assert_eq!(logic[0]["equals"], "no");
    assert_eq!(logic[1]["equals"], "3");
    assert!(logic.iter().all(|r| r["broken"] == false && r["ruleId"].is_i64()));
    assert_eq!(app.get(&format!("/surveys/{id}/questions")).await.expect(200)["logic"], updated["logic"]);

    let replaced = app.put(&format!("/surveys/{id}/logic"), json!([])).await.expect(200);
    assert_eq!(replaced["logic"], json!([]));
}

#[tokio::test]
async fn logic_that_names_missing_or_wrong_things_is_a_400() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let (other, other_tree) = app.sample_survey().await;
    let single = item_id(&tree, 0, 0);
    let cases = [
        (json!([{"questionItemId": 999999, "equals": "no", "goToPageId": page_id(&tree, 1)}]), "[0].questionItemId"),
        (
            json!([{"questionItemId": item_id(&other_tree, 0, 0), "equals": "no", "goToPageId": page_id(&tree, 1)}]),
            "[0].questionItemId",
        ),
        (json!([{"questionItemId": single, "equals": "no", "goToPageId": page_id(&other_tree, 1)}]), "[0].goToPageId"),
        (json!([{"questionItemId": single, "equals": "maybe", "goToPageId": page_id(&tree, 1)}]), "[0].equals"),
        (
            json!([{"questionItemId": item_id(&tree, 1, 0), "equals": "1", "goToPageId": page_id(&tree, 0)}]),
            "[0].goToPageId",
        ),
        (json!([{"questionItemId": single, "goToPageId": page_id(&tree, 1)}]), "[0].equals"),
        (json!({"questionItemId": single}), "body"),
    ];
    for (body, field) in cases {
        let reply = app.put(&format!("/surveys/{id}/logic"), body.clone()).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert_eq!(fields, [field], "{body}");
    }
    assert_eq!(app.get(&format!("/surveys/{id}/questions")).await.expect(200)["logic"], json!([]));
    app.put(&format!("/surveys/{other}/logic"), json!([])).await.expect(200);
    app.put("/surveys/999999/logic", json!([])).await.problem(404, "/not-found");
}

#[tokio::test]
async fn deleting_an_item_leaves_its_rules_broken_and_removes_its_answers() {
    let app = spawn_app().await;
    let (id, tree) = app.sample_survey().await;
    let single = item_id(&tree, 0, 0);
    let rules = json!([{"questionItemId": single, "equals": "no", "goToPageId": page_id(&tree, 2)}]);
    app.put(&format!("/surveys/{id}/logic"), rules).await.expect(200);
    let set = app
        .post(&format!("/surveys/{id}/answers"), json!({"answers": [{"questionItemId": single, "value": "no"}]}))
        .await
        .expect(201);

    let reply = app.delete(&format!("/surveys/{id}/questions/{single}")).await;
    assert_eq!(reply.status.as_u16(), 204);
    let after = app.get(&format!("/surveys/{id}/questions")).await.expect(200);
    assert_eq!(after["pages"][0]["items"].as_array().unwrap().len(), 2);
    assert_eq!(after["logic"][0]["questionItemId"], single);
    assert_eq!(after["logic"][0]["broken"], true);
    let set_id = set["answerSetId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("/surveys/{id}/answers/{set_id}")).await.expect(200)["answers"], json!([]));

    app.delete(&format!("/surveys/{id}/questions/{single}")).await.problem(404, "/not-found");
    app.delete(&format!("/surveys/999999/questions/{}", item_id(&tree, 1, 0))).await.problem(404, "/not-found");
}

#[tokio::test]
async fn an_item_of_another_survey_is_not_found_under_this_one() {
    let app = spawn_app().await;
    let (id, _) = app.sample_survey().await;
    let (_, other_tree) = app.sample_survey().await;
    app.delete(&format!("/surveys/{id}/questions/{}", item_id(&other_tree, 0, 0))).await.problem(404, "/not-found");
}
