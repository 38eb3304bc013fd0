//! A survey's own language and its translations over HTTP: `language` on create and read (and a sendout without
//! one takes it), a PUT stored whole and answered with `missing`, GET, the list with `missingCount`, DELETE, the
//! 400s naming what the survey does not hold and changing nothing, a tree change keeping what remains, a copy
//! keeping them under its own ids, another account's survey answering 404.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, TestApp};

/// A Swedish survey: page "Arbete" with a yes/no choice and a note.
async fn swedish(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Puls", "language": "sv", "pages": [{"title": "Arbete", "items": [
        {"type": "SingleChoice", "text": "Trivs du?", "options": [{"value": "yes", "label": "Ja"}, {"value": "no", "label": "Nej"}]},
        {"type": "OpenText", "text": "Varför?"}]}]});
    let survey = app.post("/surveys", body).await.expect(201);
    assert_eq!(survey["language"], "sv");
    let id = survey["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

fn english(tree: &Value) -> Value {
    let (page, choice) = (page_id(tree, 0), item_id(tree, 0, 0));
    json!({"name": "Pulse", "pages": {page.to_string(): {"title": "Work"}},
        "items": {choice.to_string(): {"text": "Do you like it here?", "options": {"yes": "Yes"}}}})
}

fn fields(problem: &Value) -> Vec<&str> {
    problem["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_translation_is_put_read_listed_and_deleted() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = swedish(&app).await;
    let (choice, note) = (item_id(&tree, 0, 0), item_id(&tree, 0, 1));
    let english_path = format!("/surveys/{survey}/translations/en");
    let stored = app.call("PUT", &english_path, Some(english(&tree))).await.expect(200);
    assert_eq!(stored["language"], "en");
    assert_eq!(stored["name"], "Pulse");
    assert_eq!(stored["items"][choice.to_string()]["options"]["yes"], "Yes");
    assert_eq!(stored["missing"], json!([format!("items.{choice}.options.no"), format!("items.{note}.text")]));
    assert_eq!(app.get(&english_path).await.expect(200), stored);

    app.call("PUT", &format!("/surveys/{survey}/translations/fi"), Some(json!({}))).await.expect(200);
    let listed = app.get(&format!("/surveys/{survey}/translations")).await.expect(200);
    let summary: Vec<_> =
        listed.as_array().unwrap().iter().map(|t| (t["language"].clone(), t["missingCount"].clone())).collect();
    assert_eq!(summary, [(json!("en"), json!(2)), (json!("fi"), json!(6))]);

    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), json!({"name": "Vår", "type": "LOGIN"})).await;
    assert_eq!(sendout.expect(201)["language"], "sv", "a sendout without a language takes its survey's");

    app.delete(&english_path).await.expect(204);
    app.get(&english_path).await.problem(404, "/problems/not-found");
    app.delete(&english_path).await.problem(404, "/problems/not-found");
}

#[tokio::test]
async fn what_the_survey_does_not_hold_is_named_and_nothing_is_stored() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = swedish(&app).await;
    let choice = item_id(&tree, 0, 0);
    let own = app.call("PUT", &format!("/surveys/{survey}/translations/sv"), Some(english(&tree))).await;
    assert_eq!(fields(&own.problem(400, "/problems/validation")), ["language"]);
    for code in ["sv-SE", "SV", "xx"] {
        let path = format!("/surveys/{survey}/translations/{code}");
        let refused = app.call("PUT", &path, Some(english(&tree))).await.problem(400, "/problems/validation");
        assert_eq!(refused["supportedValues"].as_array().unwrap().len(), 12, "{code}: {refused}");
        app.get(&path).await.problem(400, "/problems/validation");
    }
    let unknown = json!({"pages": {"999999": {"title": "x"}, "first": {"title": "x"}},
        "items": {choice.to_string(): {"options": {"maybe": "Maybe"}, "rows": {"speed": "Speed"}, "minLabel": "Low"}}});
    let refused = app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(unknown)).await;
    let refused = refused.problem(400, "/problems/validation");
    assert_eq!(
        fields(&refused),
        [
            "pages.999999".to_owned(),
            "pages.first".to_owned(),
            format!("items.{choice}.minLabel"),
            format!("items.{choice}.options.maybe"),
            format!("items.{choice}.rows.speed"),
        ]
    );
    let too_long = json!({"name": "n".repeat(501)});
    let refused = app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(too_long)).await;
    assert_eq!(fields(&refused.problem(400, "/problems/validation")), ["name"]);
    assert_eq!(app.get(&format!("/surveys/{survey}/translations")).await.expect(200), json!([]));
}

#[tokio::test]
async fn a_tree_change_keeps_what_remains_and_a_copy_keeps_the_translations() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = swedish(&app).await;
    let choice = item_id(&tree, 0, 0);
    app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(english(&tree))).await.expect(200);
    let only_no = json!({"options": [{"value": "no", "label": "Nej"}]});
    app.call("PATCH", &format!("/surveys/{survey}/questions/{choice}"), Some(only_no)).await.expect(200);
    let page = app.post(&format!("/surveys/{survey}/pages"), json!({"title": "Mer"})).await.expect(201);

    let read = app.get(&format!("/surveys/{survey}/translations/en")).await.expect(200);
    assert_eq!(
        read["items"][choice.to_string()],
        json!({"text": "Do you like it here?"}),
        "the removed option's label is gone"
    );
    assert!(read["missing"].as_array().unwrap().contains(&json!(format!("pages.{}.title", page["pageId"]))), "{read}");

    let copy = app.get(&format!("/surveys/{survey}/copy")).await.expect(200);
    assert_eq!(copy["language"], "sv");
    let copy_id = copy["surveyId"].as_i64().unwrap();
    let copied_tree = app.get(&format!("/surveys/{copy_id}/questions")).await.expect(200);
    let copied = app.get(&format!("/surveys/{copy_id}/translations/en")).await.expect(200);
    assert_eq!(copied["pages"][page_id(&copied_tree, 0).to_string()]["title"], "Work");
    assert_eq!(copied["items"][item_id(&copied_tree, 0, 0).to_string()]["text"], "Do you like it here?");
    let copied_missing = copied["missing"].as_array().unwrap();
    assert_eq!(copied_missing.len(), read["missing"].as_array().unwrap().len(), "{copied}");
    assert!(copied_missing.contains(&json!(format!("items.{}.options.no", item_id(&copied_tree, 0, 0)))), "{copied}");
}

#[tokio::test]
async fn another_account_s_survey_has_no_translations() {
    let app = crate::helpers::spawn_app().await;
    let (survey, tree) = swedish(&app).await;
    let path = format!("/surveys/{survey}/translations/en");
    app.call("PUT", &path, Some(english(&tree))).await.expect(200);
    let (_, other) = app.new_account("Other", "other@example.com");
    app.call_as(&other, "PUT", &path, Some(english(&tree))).await.problem(404, "/problems/not-found");
    app.call_as(&other, "GET", &path, None).await.problem(404, "/problems/not-found");
    app.call_as(&other, "DELETE", &path, None).await.problem(404, "/problems/not-found");
    let list = format!("/surveys/{survey}/translations");
    app.call_as(&other, "GET", &list, None).await.problem(404, "/problems/not-found");
    assert_eq!(app.get(&list).await.expect(200).as_array().unwrap().len(), 1);
}
