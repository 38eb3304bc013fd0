//! Randomisation: `randomizeOptions` (with `fixedLast`) on choice items and `randomizeItems` on pages, checked by
//! type; each respondent sees its own order on every view, and its answer set keeps the order it was shown
//! (`shownOrder`), in the API and in JSON Lines exports.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

const OPTIONS: [&str; 7] = ["a", "b", "c", "d", "e", "f", "dunno"];

async fn survey(app: &TestApp) -> (i64, Value) {
    let mut items: Vec<Value> = (1..=4).map(|n| json!({"type": "OpenText", "text": format!("Question {n}")})).collect();
    let options: Vec<Value> = OPTIONS.iter().map(|value| json!({"value": value})).collect();
    items.push(json!({"type": "SingleChoice", "text": "Pick", "options": options, "randomizeOptions": true,
        "fixedLast": 1}));
    let body = json!({"name": "Shuffled", "pages": [{"title": "All", "randomizeItems": true, "items": items}]});
    let id = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

/// The values of item `item`'s options in the order `html` shows them.
fn option_order(html: &str, item: i64) -> Vec<String> {
    let marker = format!("name=\"q{item}\" value=\"");
    html.match_indices(&marker).map(|(at, _)| html[at + marker.len()..].split('"').next().unwrap().to_owned()).collect()
}

/// The ids of `items` in the order `html` shows their texts.
fn item_order(html: &str, items: &[(i64, String)]) -> Vec<i64> {
    let mut found: Vec<(usize, i64)> =
        items.iter().map(|(id, text)| (html.find(&format!("{text}<")).expect("every item is shown"), *id)).collect();
    found.sort_unstable();
    found.into_iter().map(|(_, id)| id).collect()
}

#[tokio::test]
async fn options_randomize_only_on_choice_items_and_within_their_count() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let choice = &tree["pages"][0]["items"][4];
    assert_eq!((&choice["randomizeOptions"], &choice["fixedLast"]), (&json!(true), &json!(1)));
    assert_eq!(tree["pages"][0]["items"][0].get("randomizeOptions"), None, "not on an OpenText");

    let items = format!("/surveys/{id}/pages/{}/items", page_id(&tree, 0));
    let on_text = app.post(&items, json!({"type": "OpenText", "text": "t", "randomizeOptions": true})).await;
    assert_eq!(on_text.fields(), ["randomizeOptions"]);
    let too_many = json!({"type": "Dropdown", "text": "d", "options": [{"value": "x"}, {"value": "y"}],
        "randomizeOptions": true, "fixedLast": 3});
    assert_eq!(app.post(&items, too_many).await.fields(), ["fixedLast"]);
    let path = format!("/surveys/{id}/questions/{}", choice["questionItemId"]);
    let patched = app.call("PATCH", &path, Some(json!({"fixedLast": null, "randomizeOptions": false}))).await;
    let patched = patched.expect(200);
    assert_eq!((&patched["randomizeOptions"], patched.get("fixedLast")), (&json!(false), None));
}

#[tokio::test]
async fn each_respondent_keeps_the_order_it_was_shown_with_its_answer_set() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let (page, choice) = (page_id(&tree, 0), item_id(&tree, 0, 4));
    let texts: Vec<(i64, String)> = (0..5)
        .map(|n| (item_id(&tree, 0, n), tree["pages"][0]["items"][n]["text"].as_str().unwrap().to_owned()))
        .collect();
    let sendout = app.post(&format!("/surveys/{id}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{id}/sendouts/{}", sendout["sendoutId"]);
    let mut links = Vec::new();
    for n in 0..6 {
        let body = json!({"contactDetails": format!("r{n}@example.com"), "sendMail": true});
        let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
        links.push(added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned());
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let view = |link: String| {
        let request = app.client.get(format!("{}{link}", app.address));
        async move { request.send().await.unwrap().text().await.unwrap() }
    };

    let mut shown = Vec::new();
    for link in &links {
        let html = view(link.clone()).await;
        let (options, items) = (option_order(&html, choice), item_order(&html, &texts));
        let again = view(link.clone()).await;
        assert_eq!((option_order(&again, choice), item_order(&again, &texts)), (options.clone(), items.clone()));
        assert_eq!(options.last().map(String::as_str), Some("dunno"), "the fixed last option stays last");
        let form = [("page".to_owned(), page.to_string()), (format!("q{choice}"), "a".to_owned())];
        let saved = app.client.post(format!("{}{link}", app.address)).form(&form).send().await.unwrap();
        assert!(saved.text().await.unwrap().contains("Thank you"));
        shown.push((options, items));
    }
    let distinct: std::collections::HashSet<_> = shown.iter().map(|(options, _)| options.clone()).collect();
    assert!(distinct.len() > 1, "respondents see orders of their own: {shown:?}");

    let sets = app.get(&format!("/surveys/{id}/answers")).await.expect(200);
    let sets = sets.as_array().unwrap();
    assert_eq!(sets.len(), 6);
    for (set, (options, items)) in sets.iter().zip(&shown) {
        let kept = &set["shownOrder"];
        assert_eq!(kept["items"][choice.to_string()], json!(options), "the option order shown is kept");
        assert_eq!(kept["pages"][page.to_string()], json!(items), "the item order shown is kept");
    }
    let export = app.client.get(format!("{}/api/v1/surveys/{id}/answers/export?format=jsonl", app.address));
    let export = export.header("X-API-KEY", &app.key).send().await.unwrap().text().await.unwrap();
    let first: Value = serde_json::from_str(export.lines().next().unwrap()).unwrap();
    assert_eq!(first["shownOrder"], sets[0]["shownOrder"], "exported in JSON lines");

    let answers = json!({"completed": true, "answers": [{"questionItemId": choice, "value": "b"}]});
    let recorded = app.post(&format!("/surveys/{id}/answers"), answers).await.expect(201);
    assert_eq!(recorded["shownOrder"], json!({"items": {}, "pages": {}}), "nothing was shown through the API");
}
