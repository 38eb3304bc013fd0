//! Editing a live survey: pages added where asked, retitled, moved and deleted when empty; items added, patched
//! and moved between pages; answers keep an item's type and the option values they hold (409 naming them); a move
//! behind a rule's target breaks the rule; refusals change nothing; two edits at once are both applied or one is
//! told to retry.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, TestApp};

async fn tree(app: &TestApp, survey: i64) -> Value {
    app.get(&format!("/surveys/{survey}/questions")).await.expect(200)
}

fn titles(tree: &Value) -> Vec<&str> {
    tree["pages"].as_array().unwrap().iter().map(|page| page["title"].as_str().unwrap()).collect()
}

fn texts(tree: &Value, page: usize) -> Vec<&str> {
    tree["pages"][page]["items"].as_array().unwrap().iter().map(|item| item["text"].as_str().unwrap()).collect()
}

async fn patch(app: &TestApp, path: &str, body: Value) -> canvass_testkit::Reply {
    app.call("PATCH", path, Some(body)).await
}

#[tokio::test]
async fn pages_are_added_moved_retitled_and_deleted_when_empty() {
    let app = crate::helpers::spawn_app().await;
    let (survey, before) = app.sample_survey().await;
    let pages = format!("/surveys/{survey}/pages");
    let intro = app.post(&pages, json!({"title": "Intro", "position": 0, "randomizeItems": true})).await.expect(201);
    assert_eq!(
        (intro["title"].clone(), intro["randomizeItems"].clone(), intro["items"].clone()),
        (json!("Intro"), json!(true), json!([]))
    );
    let end = app.post(&pages, json!({"title": "End"})).await.expect(201);
    assert_eq!(titles(&tree(&app, survey).await), ["Intro", "One", "Two", "Three", "End"]);

    let end_path = format!("{pages}/{}", end["pageId"]);
    let moved = patch(&app, &end_path, json!({"title": "Closing", "position": 1})).await.expect(200);
    assert_eq!((moved["title"].clone(), moved["randomizeItems"].clone()), (json!("Closing"), json!(false)));
    let after = tree(&app, survey).await;
    assert_eq!(titles(&after), ["Intro", "Closing", "One", "Two", "Three"]);
    assert_eq!(after["treeVersion"], 4);

    patch(&app, &end_path, json!({"position": 5})).await.problem(400, "/problems/validation");
    app.post(&pages, json!({"position": 6})).await.problem(400, "/problems/validation");
    let full = format!("{pages}/{}", page_id(&before, 0));
    let refused = app.delete(&full).await.problem(409, "/problems/page-not-empty");
    assert!(refused["detail"].as_str().unwrap().contains("3 items"), "{refused}");
    assert_eq!(tree(&app, survey).await, after, "refusals change nothing, the version included");

    app.delete(&end_path).await.expect(204);
    app.delete(&end_path).await.problem(404, "/problems/not-found");
    assert_eq!(titles(&tree(&app, survey).await), ["Intro", "One", "Two", "Three"]);
    let (_, other) = app.new_account("Other", "other@example.com");
    let theirs = app.call_as(&other, "POST", &pages, Some(json!({"title": "Theirs"}))).await;
    theirs.problem(404, "/problems/not-found");
}

#[tokio::test]
async fn items_are_added_patched_and_moved_between_pages() {
    let app = crate::helpers::spawn_app().await;
    let (survey, before) = app.sample_survey().await;
    let items = format!("/surveys/{survey}/pages/{}/items", page_id(&before, 2));
    let body = json!({"type": "Numeric", "text": "Age?", "required": true, "min": 16, "max": 120,
        "wholeNumber": true, "position": 0});
    let age = app.post(&items, body).await.expect(201);
    assert_eq!(
        (age["min"].clone(), age["max"].clone(), age["wholeNumber"].clone()),
        (json!(16.0), json!(120.0), json!(true))
    );
    assert_eq!(texts(&tree(&app, survey).await, 2), ["Age?", "Anything else?"]);

    let bad = json!({"type": "OpenText", "text": "Code?", "format": "pattern", "pattern": "(", "min": 1,
        "position": 9});
    let fields = app.post(&items, bad).await.problem(400, "/problems/validation");
    let named: Vec<_> = fields["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(named, ["min", "pattern", "position"]);
    let wrong = app.post(&items, json!({"type": "Numeric", "text": "Age?", "min": "low"})).await;
    assert_eq!(wrong.problem(400, "/problems/validation")["errors"][0]["field"], "min", "a wrong type is named too");

    let hours = item_id(&before, 1, 0);
    let path = format!("/surveys/{survey}/questions/{hours}");
    let moved = json!({"text": "Hours a week?", "pageId": page_id(&before, 0), "position": 1, "max": 80});
    let item = patch(&app, &path, moved).await.expect(200);
    assert_eq!((item["text"].clone(), item["max"].clone()), (json!("Hours a week?"), json!(80.0)));
    let after = tree(&app, survey).await;
    assert_eq!(texts(&after, 0), ["Happy?", "Hours a week?", "Why?", "Next, numbers."]);
    assert_eq!(texts(&after, 1), ["Rate us"]);
    let cleared = patch(&app, &path, json!({"max": null, "type": "OpenText", "maxLength": 20})).await.expect(200);
    assert_eq!(
        (cleared.get("max"), cleared["maxLength"].clone(), cleared["multiline"].clone()),
        (None, json!(20), json!(true))
    );

    patch(&app, &path, json!({"pageId": 999_999})).await.problem(400, "/problems/validation");
    patch(&app, &path, json!({"position": 4})).await.problem(400, "/problems/validation");
    patch(&app, &format!("/surveys/{survey}/questions/999999"), json!({"text": "x"}))
        .await
        .problem(404, "/problems/not-found");
}

#[tokio::test]
async fn answers_keep_the_type_and_the_option_values_they_hold() {
    let app = crate::helpers::spawn_app().await;
    let (survey, before) = app.sample_survey().await;
    let (happy, why) = (item_id(&before, 0, 0), item_id(&before, 0, 1));
    let answers = json!([{"questionItemId": happy, "value": "no"}, {"questionItemId": why, "value": ["team"]}]);
    app.post(&format!("/surveys/{survey}/answers"), json!({"completed": false, "answers": answers})).await.expect(201);

    let happy_path = format!("/surveys/{survey}/questions/{happy}");
    patch(&app, &happy_path, json!({"type": "MultipleChoice"})).await.problem(409, "/problems/item-has-answers");
    let fewer = json!({"options": [{"value": "yes", "label": "Yes"}]});
    let refused = patch(&app, &happy_path, fewer).await.problem(409, "/problems/item-has-answers");
    assert_eq!(refused["values"], json!(["no"]));
    let why_path = format!("/surveys/{survey}/questions/{why}");
    let refused =
        patch(&app, &why_path, json!({"options": [{"value": "pay"}]})).await.problem(409, "/problems/item-has-answers");
    assert_eq!(refused["values"], json!(["team"]), "a chosen value of a MultipleChoice answer counts");
    assert_eq!(tree(&app, survey).await, before, "nothing changed");

    let relabelled =
        json!({"options": [{"value": "no", "label": "Not really"}, {"value": "maybe"}], "required": false});
    let item = patch(&app, &happy_path, relabelled).await.expect(200);
    assert_eq!(item["options"], json!([{"value": "no", "label": "Not really"}, {"value": "maybe", "label": "maybe"}]));
}

#[tokio::test]
async fn a_move_behind_a_rules_target_breaks_the_rule() {
    let app = crate::helpers::spawn_app().await;
    let (survey, before) = app.sample_survey().await;
    let happy = item_id(&before, 0, 0);
    let rule = json!([{"questionItemId": happy, "equals": "no", "goToPageId": page_id(&before, 2)}]);
    app.put(&format!("/surveys/{survey}/logic"), rule).await.expect(200);
    let path = format!("/surveys/{survey}/questions/{happy}");
    patch(&app, &path, json!({"pageId": page_id(&before, 2)})).await.expect(200);
    assert_eq!(tree(&app, survey).await["logic"][0]["broken"], true, "its target no longer comes after it");
    let last = format!("/surveys/{survey}/pages/{}", page_id(&before, 2));
    patch(&app, &last, json!({"position": 0})).await.expect(200);
    patch(&app, &path, json!({"pageId": page_id(&before, 0)})).await.expect(200);
    let tree = tree(&app, survey).await;
    assert_eq!(titles(&tree), ["Three", "One", "Two"]);
    assert_eq!(tree["logic"][0]["broken"], true, "page Three now comes first");
}

#[tokio::test]
async fn two_edits_of_one_survey_at_once_are_both_applied_or_one_is_told_to_retry() {
    let app = crate::helpers::spawn_app().await;
    let (survey, before) = app.sample_survey().await;
    let edits = (0..6).map(|n| {
        let item = item_id(&before, 0, n % 2);
        let (app, path) = (&app, format!("/surveys/{survey}/questions/{item}"));
        async move {
            let reply = app.call("PATCH", &path, Some(json!({"text": format!("Edit {n}"), "position": 0}))).await;
            (reply.status, reply.body)
        }
    });
    let replies = futures::future::join_all(edits).await;
    let applied = replies.iter().filter(|(status, _)| status.as_u16() == 200).count();
    for (status, body) in &replies {
        assert!(
            status.as_u16() == 200 || (status.as_u16() == 409 && body["type"] == "/problems/concurrent-change"),
            "{status} {body}"
        );
    }
    let after = tree(&app, survey).await;
    assert_eq!(after["treeVersion"].as_i64(), Some(1 + applied as i64), "each applied edit moved the version once");
    assert_eq!(after["pages"][0]["items"].as_array().unwrap().len(), 3, "no item lost or doubled");
}
