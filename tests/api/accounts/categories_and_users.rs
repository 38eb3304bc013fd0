//! Categories and users of the account.

use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn categories_are_created_listed_and_read() {
    let app = spawn_app().await;
    assert_eq!(app.get("/accounts/categories").await.expect(200), json!([]));
    let hr = app.post("/accounts/categories", json!({"name": "HR", "categoryId": 5})).await.expect(201);
    let it = app.post("/accounts/categories", json!({"name": "IT"})).await.expect(201);
    assert_eq!(hr["name"], "HR");
    assert_ne!(hr["categoryId"], 5);
    assert_eq!(app.get("/accounts/categories").await.expect(200), json!([hr, it]));
    assert_eq!(app.get(&format!("/accounts/categories/{}", hr["categoryId"])).await.expect(200), hr);
    app.get("/accounts/categories/999999").await.problem(404, "/not-found");
    for body in [json!({"name": ""}), json!({}), json!({"name": ["HR"]})] {
        let reply = app.post("/accounts/categories", body).await;
        assert_eq!(reply.fields(), ["name"]);
    }
}

#[tokio::test]
async fn users_of_the_account_are_listed_and_read() {
    let app = spawn_app().await;
    let users = app.get("/accounts/users").await.expect(200);
    assert_eq!(users.as_array().unwrap().len(), 1);
    let owner = &users[0];
    assert_eq!(owner["email"], "owner@acme.example");
    assert_eq!(owner["role"], "owner");
    assert_eq!(app.get(&format!("/accounts/users/{}", owner["userId"])).await.expect(200), *owner);
    app.get("/accounts/users/999999").await.problem(404, "/not-found");
}
