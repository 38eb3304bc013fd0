//! Alerts over HTTP: created, listed, read and deleted, each refusal naming its field and storing nothing, another
//! account's alerts answering 404. What a completion sends is the system test's (`tests/system/alerts.rs`).

use serde_json::{json, Value};

use crate::helpers::{item_id, spawn_app, TestApp};

/// A Rating item and an OpenText item on one page; returns the survey id and its tree.
async fn survey(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Store visits", "pages": [{"items": [
        {"type": "Rating", "text": "How likely are you to recommend us?"},
        {"type": "OpenText", "text": "What could we do better?"}]}]});
    let id = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

fn detractors(tree: &Value) -> Value {
    json!({"questionItemId": item_id(tree, 0, 0), "operator": "atMost", "value": 6})
}

#[tokio::test]
async fn alerts_are_created_listed_read_and_deleted() {
    let app = spawn_app().await;
    let (survey, tree) = survey(&app).await;
    let base = format!("/surveys/{survey}/alerts");
    let body = json!({"name": "Unhappy customer", "when": detractors(&tree),
        "recipients": ["manager@store.example", " owner@store.example "], "includeAnswers": true});
    let made = app.post(&base, body).await.expect(201);
    let id = made["alertId"].as_i64().unwrap();
    assert_eq!(made["name"], "Unhappy customer");
    assert_eq!(made["when"], detractors(&tree), "the conditions read back as given");
    assert_eq!(made["recipients"], json!(["manager@store.example", "owner@store.example"]), "trimmed");
    assert_eq!(made["includeAnswers"], true);
    assert!(made["createdAt"].as_str().is_some_and(|at| at.ends_with('Z')), "{made}");
    let plain = json!({"name": "Any answer", "when": {"all": [detractors(&tree)]}, "recipients": ["a@store.example"]});
    let second = app.post(&base, plain).await.expect(201);
    assert_eq!(second["includeAnswers"], false, "includeAnswers defaults to false");

    let listed = app.get(&base).await.expect(200);
    assert_eq!(listed, json!([made, second]), "in creation order");
    assert_eq!(app.get(&format!("{base}/{id}")).await.expect(200), made);

    let (_, other_key) = app.new_account("Other", "owner@other.example");
    app.call_as(&other_key, "GET", &format!("{base}/{id}"), None).await.problem(404, "/not-found");
    app.call_as(&other_key, "GET", &base, None).await.problem(404, "/not-found");
    app.call_as(&other_key, "DELETE", &format!("{base}/{id}"), None).await.problem(404, "/not-found");
    app.get(&format!("{base}/{}", id + 1000)).await.problem(404, "/not-found");

    assert_eq!(app.call("DELETE", &format!("{base}/{id}"), None).await.status, 204);
    app.get(&format!("{base}/{id}")).await.problem(404, "/not-found");
    app.call("DELETE", &format!("{base}/{id}"), None).await.problem(404, "/not-found");
    assert_eq!(app.get(&base).await.expect(200), json!([second]));
}

#[tokio::test]
async fn a_bad_alert_is_refused_naming_its_field_and_stores_nothing() {
    let app = spawn_app().await;
    let (survey, tree) = survey(&app).await;
    let base = format!("/surveys/{survey}/alerts");
    let (rating, text) = (item_id(&tree, 0, 0), item_id(&tree, 0, 1));
    let alert = |recipients: Value, when: Value| json!({"name": "x", "when": when, "recipients": recipients});
    let many: Vec<String> = (0..21).map(|n| format!("person{n}@store.example")).collect();
    for (body, field) in [
        (alert(json!(["manager@store.example", "not an address"]), detractors(&tree)), "recipients[1]"),
        (alert(json!(many), detractors(&tree)), "recipients"),
        (alert(json!([]), detractors(&tree)), "recipients"),
        (alert(json!(["a@store.example", "A@Store.example"]), detractors(&tree)), "recipients[1]"),
        (
            alert(json!(["a@store.example"]), json!({"questionItemId": rating + 1000, "operator": "answered"})),
            "when.questionItemId",
        ),
        (
            alert(json!(["a@store.example"]), json!({"questionItemId": text, "operator": "greaterThan", "value": 3})),
            "when.operator",
        ),
        (alert(json!(["a@store.example"]), json!({"any": []})), "when.any"),
        (json!({"name": " ", "when": detractors(&tree), "recipients": ["a@store.example"]}), "name"),
        (json!({"name": "x", "when": detractors(&tree)}), "recipients"),
    ] {
        let reply = app.post(&base, body.clone()).await;
        assert_eq!(reply.status, 400, "{field}: {body}");
        assert_eq!(reply.fields(), [field], "{body}");
    }
    let unknown_survey = alert(json!(["a@store.example"]), detractors(&tree));
    app.post(&format!("/surveys/{}/alerts", survey + 1000), unknown_survey).await.problem(404, "/not-found");
    assert_eq!(app.get(&base).await.expect(200), json!([]), "nothing stored on a refusal");
}
