//! Quotas: CRUD with live counts, checked by path and storing nothing on a refusal; counted as sets complete
//! through the API and the pages, never past the limit however many complete at once; a full `endSurvey` quota
//! ends a matching set (at completion, or at the first page save where it matches), a full `closeSurvey` quota
//! closes the pages to respondents who have not started; a copy keeps the quotas at zero.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

/// Page 1: a SingleChoice of region (north, south); page 2: an optional OpenText.
async fn survey(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Regions", "pages": [
        {"title": "Where", "items": [{"type": "SingleChoice", "text": "Region?", "required": true,
            "options": [{"value": "north"}, {"value": "south"}]}]},
        {"title": "More", "items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]});
    let id = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    (id, app.get(&format!("/surveys/{id}/questions")).await.expect(200))
}

fn of_region(tree: &Value, region: &str) -> Value {
    json!({"questionItemId": item_id(tree, 0, 0), "operator": "equals", "value": region})
}

async fn quota(app: &TestApp, survey: i64, when: Value, limit: i64, action: &str) -> Value {
    let body = json!({"name": format!("{action} {limit}"), "when": when, "limit": limit, "action": action});
    app.post(&format!("/surveys/{survey}/quotas"), body).await.expect(201)
}

fn completed_in(tree: &Value, region: &str) -> Value {
    json!({"completed": true, "answers": [{"questionItemId": item_id(tree, 0, 0), "value": region}]})
}

#[tokio::test]
async fn quotas_are_read_changed_and_deleted_and_bad_ones_store_nothing() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let made = quota(&app, id, of_region(&tree, "north"), 2, "endSurvey").await;
    assert_eq!(
        (made["count"].as_i64(), made["limit"].as_i64(), &made["action"]),
        (Some(0), Some(2), &json!("endSurvey"))
    );
    assert_eq!(made["when"], of_region(&tree, "north"), "the conditions read back as given");
    let quota_id = made["quotaId"].as_i64().unwrap();
    let base = format!("/surveys/{id}/quotas");

    let region = item_id(&tree, 0, 0);
    for (body, field) in [
        (
            json!({"name": "x", "when": {"questionItemId": region, "operator": "contains", "value": "n"}, "limit": 1,
            "action": "endSurvey"}),
            "when.operator",
        ),
        (
            json!({"name": "x", "when": {"all": [{"questionItemId": region + 1000, "operator": "answered"}]},
            "limit": 1,
            "action": "endSurvey"}),
            "when.all[0].questionItemId",
        ),
        (json!({"name": "x", "when": of_region(&tree, "north"), "limit": 0, "action": "closeSurvey"}), "limit"),
        (json!({"name": " ", "when": of_region(&tree, "north"), "limit": 1, "action": "closeSurvey"}), "name"),
        (json!({"name": "x", "when": of_region(&tree, "north"), "limit": 1, "action": "stop"}), "action"),
    ] {
        let reply = app.post(&base, body).await;
        assert_eq!(reply.status, 400, "{field}");
        assert_eq!(reply.fields(), [field]);
    }
    app.post(
        &format!("/surveys/{}/quotas", id + 1000),
        json!({"name": "x", "when": of_region(&tree, "north"),
        "limit": 1, "action": "endSurvey"}),
    )
    .await
    .problem(404, "/not-found");
    let listed = app.get(&base).await.expect(200);
    assert_eq!(listed.as_array().unwrap().len(), 1, "nothing stored on a refusal");

    let changed =
        app.call("PATCH", &format!("{base}/{quota_id}"), Some(json!({"name": "North", "limit": 5}))).await.expect(200);
    assert_eq!((changed["name"].as_str(), changed["limit"].as_i64()), (Some("North"), Some(5)));
    assert_eq!(changed["when"], of_region(&tree, "north"), "what the patch leaves out stays");
    let bad = json!({"when": {"questionItemId": region, "operator": "greaterThan", "value": 1}});
    assert_eq!(app.call("PATCH", &format!("{base}/{quota_id}"), Some(bad)).await.fields(), ["when.operator"]);
    assert_eq!(app.get(&format!("{base}/{quota_id}")).await.expect(200), changed, "a refused patch changes nothing");
    app.get(&format!("{base}/{}", quota_id + 1000)).await.problem(404, "/not-found");
    let (_, other_key) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other_key, "GET", &format!("{base}/{quota_id}"), None).await;
    theirs.problem(404, "/not-found");
    let patched = app.call_as(&other_key, "PATCH", &format!("{base}/{quota_id}"), Some(json!({"limit": 9}))).await;
    patched.problem(404, "/not-found");

    app.call("DELETE", &format!("{base}/{quota_id}"), None).await.expect(204);
    app.get(&format!("{base}/{quota_id}")).await.problem(404, "/not-found");
    app.call("DELETE", &format!("{base}/{quota_id}"), None).await.problem(404, "/not-found");
}

#[tokio::test]
async fn a_full_end_quota_ends_matching_sets_and_a_copy_counts_from_zero() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let north = quota(&app, id, of_region(&tree, "north"), 2, "endSurvey").await;
    let answers = format!("/surveys/{id}/answers");
    for _ in 0..2 {
        let set = app.post(&answers, completed_in(&tree, "north")).await.expect(201);
        assert_eq!((&set["completed"], &set["quotaFull"]), (&json!(true), &json!(false)));
    }
    let held = app.post(&answers, completed_in(&tree, "north")).await.expect(201);
    assert_eq!((&held["completed"], &held["quotaFull"]), (&json!(false), &json!(true)), "the third is ended");
    let south = app.post(&answers, completed_in(&tree, "south")).await.expect(201);
    assert_eq!(south["completed"], true, "a set the quota does not match completes");
    let read = app.get(&format!("/surveys/{id}/quotas/{}", north["quotaId"])).await.expect(200);
    assert_eq!(read["count"], 2, "never past its limit");

    let held_id = held["answerSetId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("{answers}/{held_id}")).await.expect(200)["quotaFull"], true, "kept with the set");
    let replaced =
        app.call("PUT", &format!("{answers}/{held_id}"), Some(completed_in(&tree, "south"))).await.expect(200);
    assert_eq!((&replaced["completed"], &replaced["quotaFull"]), (&json!(true), &json!(false)));

    let copy = app.get(&format!("/surveys/{id}/copy")).await.expect(200)["surveyId"].as_i64().unwrap();
    let copied_tree = app.get(&format!("/surveys/{copy}/questions")).await.expect(200);
    let copied = app.get(&format!("/surveys/{copy}/quotas")).await.expect(200);
    assert_eq!(copied.as_array().unwrap().len(), 1);
    assert_eq!(copied[0]["count"], 0, "a copy counts from zero");
    assert_eq!(copied[0]["when"], of_region(&copied_tree, "north"), "on the copy's own item");
}

#[tokio::test]
async fn more_completions_at_once_than_places_fill_the_quota_exactly() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    let north = quota(&app, id, of_region(&tree, "north"), 5, "endSurvey").await;
    let answers = format!("/surveys/{id}/answers");
    let body = completed_in(&tree, "north");
    let sets = futures::future::join_all((0..24).map(|_| app.post(&answers, body.clone()))).await;
    let sets: Vec<Value> = sets.into_iter().map(|reply| reply.expect(201)).collect();
    let completed = sets.iter().filter(|set| set["completed"] == true).count();
    let ended = sets.iter().filter(|set| set["quotaFull"] == true).count();
    assert_eq!((completed, ended), (5, 19), "five places, five completed");
    let read = app.get(&format!("/surveys/{id}/quotas/{}", north["quotaId"])).await.expect(200);
    assert_eq!(read["count"], 5);
}

/// A respondent's page after posting `answers` (item, value) on `page`.
async fn save(app: &TestApp, link: &str, page: i64, answers: &[(i64, &str)]) -> String {
    let mut form = vec![("page".to_owned(), page.to_string())];
    form.extend(answers.iter().map(|(item, value)| (format!("q{item}"), (*value).to_owned())));
    app.client.post(format!("{}{link}", app.address)).form(&form).send().await.unwrap().text().await.unwrap()
}

#[tokio::test]
async fn the_pages_end_a_matching_set_at_once_and_close_to_newcomers() {
    let app = spawn_app().await;
    let (id, tree) = survey(&app).await;
    quota(&app, id, of_region(&tree, "north"), 1, "endSurvey").await;
    let everyone = json!({"any": [of_region(&tree, "north"), of_region(&tree, "south")]});
    let closing = quota(&app, id, everyone, 2, "closeSurvey").await;
    let sendout = app.post(&format!("/surveys/{id}/sendouts"), crate::helpers::email_sendout()).await.expect(201);
    let base = format!("/surveys/{id}/sendouts/{}", sendout["sendoutId"]);
    let mut links = Vec::new();
    for n in 0..5 {
        let body = json!({"contactDetails": format!("r{n}@example.com"), "sendMail": true});
        let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
        links.push(added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned());
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let (region, more) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0));
    let (first, second) = (page_id(&tree, 0), page_id(&tree, 1));
    let open = |link: String| {
        let request = app.client.get(format!("{}{link}", app.address));
        async move { request.send().await.unwrap().text().await.unwrap() }
    };

    let page = save(&app, &links[0], first, &[(region, "north")]).await;
    assert!(page.contains("Anything else?"), "the quota has a place: page two");
    assert!(save(&app, &links[0], second, &[(more, "no")]).await.contains("Thank you"));
    let ended = save(&app, &links[1], first, &[(region, "north")]).await;
    assert!(ended.contains("Thank you") && !ended.contains("Anything else?"), "full: ended at the first page");
    assert!(open(links[1].clone()).await.contains("Thank you"), "and stays ended");
    let sets = app.get(&format!("/surveys/{id}/answers")).await.expect(200);
    let flags: Vec<(bool, bool)> = sets
        .as_array()
        .unwrap()
        .iter()
        .map(|set| (set["completed"].as_bool().unwrap(), set["quotaFull"].as_bool().unwrap()))
        .collect();
    assert_eq!(flags, [(true, false), (false, true)]);

    // One south respondent finishes and fills the closeSurvey quota; another has started before it did.
    for link in [&links[2], &links[3]] {
        assert!(save(&app, link, first, &[(region, "south")]).await.contains("Anything else?"));
    }
    assert!(save(&app, &links[2], second, &[(more, "fine")]).await.contains("Thank you"));
    let read = app.get(&format!("/surveys/{id}/quotas/{}", closing["quotaId"])).await.expect(200);
    assert_eq!(read["count"], 2);
    let newcomer = open(links[4].clone()).await;
    assert!(!newcomer.contains("Region?"), "a full closeSurvey quota closes the pages to newcomers: {newcomer}");
    let refused = save(&app, &links[4], first, &[(region, "south")]).await;
    assert!(!refused.contains("Anything else?"), "and takes no answers from them");
    assert!(save(&app, &links[3], second, &[(more, "late")]).await.contains("Thank you"), "one who started finishes");
    let sets = app.get(&format!("/surveys/{id}/answers")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 4, "the newcomer has no answer set");
}
