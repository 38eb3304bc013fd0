//! `treeVersion`: 1 on a new survey and on a copy, one more with every change of the tree (its logic, a deleted
//! item), the same on the survey and its tree, unmoved by a refused change; and changes of one tree sent at once
//! are each applied, none lost.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

async fn versions(app: &TestApp, survey: i64) -> (Value, Value) {
    let read = app.get(&format!("/surveys/{survey}")).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    (read["treeVersion"].clone(), tree["treeVersion"].clone())
}

/// A rule from the first item ("Happy?") to page `page` of the sample survey.
fn rule(tree: &Value, equals: &str, page: usize) -> Value {
    json!({"questionItemId": item_id(tree, 0, 0), "equals": equals, "goToPageId": page_id(tree, page)})
}

#[tokio::test]
async fn every_change_of_the_tree_moves_its_version_and_a_refused_one_does_not() {
    let app = spawn_app().await;
    let created = app.post("/surveys", crate::helpers::sample_survey_body()).await.expect(201);
    let survey = created["surveyId"].as_i64().unwrap();
    assert_eq!(created["treeVersion"], 1);
    assert_eq!(versions(&app, survey).await, (json!(1), json!(1)));
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);

    let changed = app.put(&format!("/surveys/{survey}/logic"), json!([rule(&tree, "no", 2)])).await.expect(200);
    assert_eq!(changed["treeVersion"], 2, "the tree answered is the changed one");
    let read = app.get(&format!("/surveys/{survey}")).await.expect(200);
    assert_eq!(read["treeVersion"], 2);
    assert!(read["updatedAt"].as_str().unwrap() >= created["updatedAt"].as_str().unwrap());
    app.delete(&format!("/surveys/{survey}/questions/{}", item_id(&tree, 1, 0))).await.expect(204);
    assert_eq!(versions(&app, survey).await, (json!(3), json!(3)));

    app.put(&format!("/surveys/{survey}/logic"), json!([rule(&tree, "no", 0)]))
        .await
        .problem(400, "/problems/validation");
    app.delete(&format!("/surveys/{survey}/questions/999999")).await.problem(404, "/problems/not-found");
    let (_, other_key) = app.new_account("Other", "other@example.com");
    let theirs = app.call_as(&other_key, "PUT", &format!("/surveys/{survey}/logic"), Some(json!([]))).await;
    theirs.problem(404, "/problems/not-found");
    assert_eq!(versions(&app, survey).await, (json!(3), json!(3)), "refused changes move nothing");

    let copy = app.get(&format!("/surveys/{survey}/copy?surveyname=Again")).await.expect(200);
    assert_eq!(copy["treeVersion"], 1, "a copy starts at 1");
}

#[tokio::test]
async fn changes_of_one_tree_sent_at_once_are_each_applied() {
    let app = spawn_app().await;
    let (survey, tree) = app.sample_survey().await;
    let path = format!("/surveys/{survey}/logic");
    let changes = (0..8).map(|n| {
        let (app, path, rules) = (&app, path.clone(), json!([rule(&tree, if n % 2 == 0 { "yes" } else { "no" }, 2)]));
        async move { app.put(&path, rules).await.expect(200)["treeVersion"].as_i64().unwrap() }
    });
    let mut seen = futures::future::join_all(changes).await;
    seen.sort_unstable();
    assert_eq!(seen, (2..=9).collect::<Vec<i64>>(), "each change saw a version of its own");
    assert_eq!(versions(&app, survey).await, (json!(9), json!(9)));
}
