//! Account B sees none of account A's surveys, questions, answers or categories.

use serde_json::json;

use crate::helpers::{item_id, spawn_app};

#[tokio::test]
async fn another_accounts_ids_answer_404_and_are_absent_from_lists() {
    let app = spawn_app().await;
    let (survey, tree) = app.sample_survey().await;
    let item = item_id(&tree, 2, 0);
    let set = app
        .post(&format!("/surveys/{survey}/answers"), json!({"answers": [{"questionItemId": item, "value": "a"}]}))
        .await
        .expect(201)["answerSetId"]
        .as_i64()
        .unwrap();
    let category =
        app.post("/accounts/categories", json!({"name": "HR"})).await.expect(201)["categoryId"].as_i64().unwrap();
    let owner = app.get("/accounts/users").await.expect(200)[0]["userId"].as_i64().unwrap();
    let (_, other) = app.new_account("Other", "owner@other.example");

    for path in [
        format!("/surveys/{survey}"),
        format!("/surveys/{survey}/questions"),
        format!("/surveys/{survey}/copy"),
        format!("/surveys/{survey}/answers"),
        format!("/surveys/{survey}/answersWithData"),
        format!("/surveys/{survey}/answers/{set}"),
        format!("/surveys/{survey}/answers/{set}/questionitem/{item}"),
        format!("/accounts/categories/{category}"),
        format!("/accounts/users/{owner}"),
    ] {
        app.call_as(&other, "GET", &path, None).await.problem(404, "/not-found");
    }
    let answer = json!({"answers": [{"questionItemId": item, "value": "b"}]});
    app.call_as(&other, "POST", &format!("/surveys/{survey}/answers"), Some(answer.clone()))
        .await
        .problem(404, "/not-found");
    app.call_as(&other, "PUT", &format!("/surveys/{survey}/answers/{set}"), Some(answer))
        .await
        .problem(404, "/not-found");
    app.call_as(&other, "PUT", &format!("/surveys/{survey}/logic"), Some(json!([]))).await.problem(404, "/not-found");
    app.call_as(&other, "DELETE", &format!("/surveys/{survey}/questions/{item}"), None)
        .await
        .problem(404, "/not-found");

    for list in ["/surveys", "/accounts/categories"] {
        assert_eq!(app.call_as(&other, "GET", list, None).await.expect(200), json!([]), "{list}");
    }
    let users = app.call_as(&other, "GET", "/accounts/users", None).await.expect(200);
    assert!(users.as_array().unwrap().iter().all(|u| u["userId"] != owner));

    let (own, own_tree) = {
        let created = app.call_as(&other, "POST", "/surveys", Some(json!({"name": "B's"}))).await.expect(201);
        (created["surveyId"].as_i64().unwrap(), created)
    };
    assert_eq!(own_tree["name"], "B's");
    let foreign_category = json!({"name": "x", "categoryId": category});
    let reply = app.call_as(&other, "POST", "/surveys", Some(foreign_category)).await;
    assert_eq!(reply.fields(), ["categoryId"]);
    // Another account's category is named beside every other fault of the body, not only once the rest is right.
    let foreign_and_blank = json!({"name": "", "categoryId": category});
    let reply = app.call_as(&other, "POST", "/surveys", Some(foreign_and_blank)).await;
    assert_eq!(reply.fields(), ["name", "categoryId"]);
    let foreign_item = json!({"answers": [{"questionItemId": item, "value": "x"}]});
    let reply = app.call_as(&other, "POST", &format!("/surveys/{own}/answers"), Some(foreign_item)).await;
    assert_eq!(reply.fields(), ["answers[0].questionItemId"]);
    let reply = app.call_as(&other, "GET", &format!("/surveys/{own}/copy?categoryid={category}"), None).await;
    assert_eq!(reply.fields(), ["categoryid"]);

    assert_eq!(app.get(&format!("/surveys/{survey}/answers")).await.expect(200).as_array().unwrap().len(), 1);
    assert_eq!(
        app.get(&format!("/surveys/{survey}/questions")).await.expect(200)["pages"][2]["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}
