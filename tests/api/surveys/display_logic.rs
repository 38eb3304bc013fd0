//! Display logic: `displayWhen` on items, checked against the tree (earlier pages only; background labels only on
//! a new survey), kept in order by moves (409 `breaks-references`), followed by the pages (hidden items are not
//! required, a page of hidden items is skipped) and by completion (a hidden item's answer is dropped), and copied.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

/// Page 1: a Rating; page 2: a required "Why?" shown when the score is at most 6; page 3: an OpenText shown to
/// customers (a background label).
async fn survey(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Display", "pages": [
        {"title": "Score", "items": [{"type": "Rating", "text": "How likely?", "required": true}]},
        {"title": "Why", "items": [{"type": "OpenText", "text": "Why?"}]},
        {"title": "Last", "items": [{"type": "OpenText", "text": "Anything else?",
            "displayWhen": {"backgroundLabel": "Customer", "operator": "equals", "value": "yes"}}]}
    ]});
    let created = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{created}/questions")).await.expect(200);
    let why = item_id(&tree, 1, 0);
    let low = json!({"questionItemId": item_id(&tree, 0, 0), "operator": "atMost", "value": 6});
    let patched = app
        .call(
            "PATCH",
            &format!("/surveys/{created}/questions/{why}"),
            Some(json!({"displayWhen": low.clone(), "required": true})),
        )
        .await;
    assert_eq!(patched.expect(200)["displayWhen"], low);
    (created, app.get(&format!("/surveys/{created}/questions")).await.expect(200))
}

#[tokio::test]
async fn display_logic_names_earlier_items_only_and_moves_keep_it_in_order() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let (score, why, last) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0), item_id(&tree, 2, 0));
    assert_eq!(tree["pages"][2]["items"][0]["displayWhen"]["backgroundLabel"], "Customer");

    let on_item = json!({"questionItemId": 1, "operator": "answered"});
    let new_survey = json!({"name": "No", "pages": [{"title": "", "items": [{"type": "OpenText", "text": "q",
        "displayWhen": on_item}]}]});
    let reply = app.post("/surveys", new_survey).await;
    assert_eq!(reply.fields(), ["pages[0].items[0].displayWhen.questionItemId"], "a new survey: labels only");

    let naming = |item: i64| json!({"displayWhen": {"questionItemId": item, "operator": "answered"}});
    let same_page = app.call("PATCH", &format!("/surveys/{id}/questions/{why}"), Some(naming(why))).await;
    assert_eq!(same_page.fields(), ["displayWhen.questionItemId"]);
    let later = app.call("PATCH", &format!("/surveys/{id}/questions/{why}"), Some(naming(last))).await;
    assert_eq!(later.fields(), ["displayWhen.questionItemId"]);
    let wrong = json!({"displayWhen": {"questionItemId": score, "operator": "contains", "value": "x"}});
    assert_eq!(
        app.call("PATCH", &format!("/surveys/{id}/questions/{why}"), Some(wrong)).await.fields(),
        ["displayWhen.operator"]
    );

    let moved = app
        .call("PATCH", &format!("/surveys/{id}/questions/{score}"), Some(json!({"pageId": page_id(&tree, 1)})))
        .await;
    moved.problem(409, "/breaks-references");
    let page_moved =
        app.call("PATCH", &format!("/surveys/{id}/pages/{}", page_id(&tree, 1)), Some(json!({"position": 0}))).await;
    page_moved.problem(409, "/breaks-references");
    assert_eq!(app.get(&format!("/surveys/{id}/questions")).await.expect(200)["pages"], tree["pages"], "unchanged");

    let removed = app
        .call("PATCH", &format!("/surveys/{id}/questions/{why}"), Some(json!({"displayWhen": null})))
        .await
        .expect(200);
    assert!(removed.get("displayWhen").is_none());
    app.call("PATCH", &format!("/surveys/{id}/questions/{score}"), Some(json!({"pageId": page_id(&tree, 1)})))
        .await
        .expect(200);
}

#[tokio::test]
async fn hidden_items_are_not_required_skip_their_page_and_lose_their_answers() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let (score, why, last) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0), item_id(&tree, 2, 0));

    let high = json!({"completed": true, "answers": [{"questionItemId": score, "value": 9},
        {"questionItemId": why, "value": "kept?"}, {"questionItemId": last, "value": "hidden from a non-customer"}]});
    let set = app.post(&format!("/surveys/{id}/answers"), high).await.expect(201);
    let kept: Vec<&Value> = set["answers"].as_array().unwrap().iter().map(|a| &a["questionItemId"]).collect();
    assert_eq!(kept, [&json!(score)], "the hidden items' answers are dropped at completion");
    let low = json!({"completed": true, "answers": [{"questionItemId": score, "value": 3}]});
    let reply = app.post(&format!("/surveys/{id}/answers"), low).await;
    assert_eq!(reply.fields(), ["answers"], "a shown required item must be answered");

    let sendout = app.post(&format!("/surveys/{id}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{id}/sendouts/{}", sendout["sendoutId"]);
    let label = app.post(&format!("{base}/labels"), json!({"name": "Customer", "labelType": "Text"})).await.expect(201);
    let mut links = Vec::new();
    for customer in ["yes", "no"] {
        let cells = json!({label["labelId"].as_i64().unwrap().to_string(): customer});
        let body =
            json!({"contactDetails": format!("{customer}@example.com"), "sendMail": true, "backgroundData": cells});
        let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
        links.push(added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned());
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let save = |link: String, page: i64, answers: Vec<(i64, &'static str)>| {
        let mut form = vec![("page".to_owned(), page.to_string())];
        form.extend(answers.into_iter().map(|(item, value)| (format!("q{item}"), value.to_owned())));
        let request = app.client.post(format!("{}{link}", app.address)).form(&form);
        async move { request.send().await.unwrap().text().await.unwrap() }
    };
    let customer = save(links[0].clone(), page_id(&tree, 0), vec![(score, "9")]).await;
    assert!(customer.contains("Anything else?") && !customer.contains("Why?"), "page two is all hidden: skipped");
    let other = save(links[1].clone(), page_id(&tree, 0), vec![(score, "9")]).await;
    assert!(other.contains("Thank you"), "pages two and three hidden: done after page one: {other}");
    let sets = app.get(&format!("/surveys/{id}/answers")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().iter().filter(|set| set["completed"] == true).count(), 2);
}

#[tokio::test]
async fn a_copy_keeps_display_logic_on_its_own_items() {
    let app = spawn_app().await;
    let (id, _) = survey(&app).await;
    let copy = app.get(&format!("/surveys/{id}/copy")).await.expect(200)["surveyId"].as_i64().unwrap();
    let copied = app.get(&format!("/surveys/{copy}/questions")).await.expect(200);
    let shown_when = &copied["pages"][1]["items"][0]["displayWhen"];
    assert_eq!(shown_when["questionItemId"], item_id(&copied, 0, 0), "names the copy's own item");
    assert_eq!(copied["pages"][2]["items"][0]["displayWhen"]["backgroundLabel"], "Customer");
}
