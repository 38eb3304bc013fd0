//! Rules on conditions (`{when, action: "jump" | "endSurvey"}`) beside the go-to-page rules: set, read back as
//! given, refused with the path of the broken field, and followed by the respondent pages.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

/// Page 1: a Rating and a MultipleChoice; page 2: an OpenText ("why"); page 3: a Numeric; page 4: an OpenText.
async fn four_pages(app: &TestApp) -> (i64, Value) {
    let body = json!({"name": "Conditions", "pages": [
        {"title": "Score", "items": [
            {"type": "Rating", "text": "How likely?"},
            {"type": "MultipleChoice", "text": "Which?", "options": [{"value": "a"}, {"value": "b"}]}]},
        {"title": "Why", "items": [{"type": "OpenText", "text": "Why?"}]},
        {"title": "Hours", "items": [{"type": "Numeric", "text": "Hours?"}]},
        {"title": "Last", "items": [{"type": "OpenText", "text": "Anything else?"}]}
    ]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    (survey, app.get(&format!("/surveys/{survey}/questions")).await.expect(200))
}

#[tokio::test]
async fn rules_of_both_forms_are_set_in_order_and_read_back_as_given() {
    let app = spawn_app().await;
    let (survey, tree) = four_pages(&app).await;
    let (score, which) = (item_id(&tree, 0, 0), item_id(&tree, 0, 1));
    let rules = json!([
        {"questionItemId": which, "equals": "b", "goToPageId": page_id(&tree, 3)},
        {"when": {"all": [
            {"questionItemId": score, "operator": "atMost", "value": 6},
            {"any": [{"questionItemId": which, "operator": "contains", "value": "a"},
                     {"backgroundLabel": "Customer", "operator": "notEquals", "value": "yes"}]}]},
         "action": "jump", "goToPageId": page_id(&tree, 1)},
        {"when": {"backgroundLabel": "Customer", "operator": "equals", "value": "no"}, "action": "endSurvey"}
    ]);
    let set = app.put(&format!("/surveys/{survey}/logic"), rules.clone()).await.expect(200);
    let logic = set["logic"].as_array().unwrap();
    assert_eq!(logic.len(), 3);
    for (stored, given) in logic.iter().zip(rules.as_array().unwrap()) {
        let mut without = stored.as_object().unwrap().clone();
        assert!(without.remove("ruleId").unwrap().is_i64());
        assert_eq!(without.remove("broken"), Some(json!(false)));
        assert_eq!(&Value::Object(without), given, "read back as given");
    }
    assert_eq!(app.get(&format!("/surveys/{survey}/questions")).await.expect(200)["logic"], set["logic"]);

    let one_more =
        app.post(&format!("/surveys/{survey}/pages"), json!({"title": "Extra", "position": 0})).await.expect(201);
    app.post(&format!("/surveys/{survey}/pages/{}/items", one_more["pageId"]), json!({"type": "Info", "text": "Hi"}))
        .await
        .expect(201);
    app.delete(&format!("/surveys/{survey}/questions/{score}")).await.expect(204);
    let after = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let broken: Vec<&Value> = after["logic"].as_array().unwrap().iter().map(|rule| &rule["broken"]).collect();
    assert_eq!(broken, [&json!(false), &json!(true), &json!(false)], "the rule on the deleted item is broken");
}

#[tokio::test]
async fn a_broken_condition_is_a_400_naming_its_path_and_nothing_is_stored() {
    let app = spawn_app().await;
    let (survey, tree) = four_pages(&app).await;
    let (score, hours) = (item_id(&tree, 0, 0), item_id(&tree, 2, 0));
    let fine = json!({"questionItemId": score, "operator": "answered"});
    let deep = json!({"all": [{"any": [{"all": [{"any": [fine]}]}]}]});
    let cases = [
        (
            json!({"all": [fine, {"questionItemId": hours, "operator": "contains", "value": "3"}]}),
            "[2].when.all[1].operator",
        ),
        (json!({"questionItemId": 999_999, "operator": "answered"}), "[2].when.questionItemId"),
        (json!({"questionItemId": score, "operator": "near", "value": 3}), "[2].when.operator"),
        (json!({"questionItemId": score, "operator": "atMost", "value": "six"}), "[2].when.value"),
        (json!({"questionItemId": score, "operator": "answered", "value": 3}), "[2].when.value"),
        (deep, "[2].when.all[0].any[0].all[0].any"),
        (json!({"any": []}), "[2].when.any"),
    ];
    let good = |when: Value| json!({"when": when, "action": "endSurvey"});
    for (when, field) in cases {
        let body = json!([good(fine.clone()), good(fine.clone()), good(when.clone())]);
        let reply = app.put(&format!("/surveys/{survey}/logic"), body).await;
        let fields = reply.fields();
        reply.problem(400, "/validation");
        assert_eq!(fields, [field], "{when}");
    }
    let backwards = json!([{"when": {"questionItemId": hours, "operator": "atLeast", "value": 1}, "action": "jump",
        "goToPageId": page_id(&tree, 1)}]);
    let reply = app.put(&format!("/surveys/{survey}/logic"), backwards).await;
    assert_eq!(reply.fields(), ["[0].goToPageId"], "a jump goes to a page after the rule's");
    let no_page = json!([{"when": fine, "action": "jump"}]);
    assert_eq!(app.put(&format!("/surveys/{survey}/logic"), no_page).await.fields(), ["[0].goToPageId"]);
    assert_eq!(app.get(&format!("/surveys/{survey}/questions")).await.expect(200)["logic"], json!([]));
}

struct Respondent {
    link: String,
}

/// An active EMAIL sendout of the survey with a `Customer` background label, and one respondent with that cell.
async fn respondent(app: &TestApp, survey: i64, customer: &str) -> Respondent {
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), crate::helpers::email_sendout()).await.expect(201)
        ["sendoutId"]
        .as_i64()
        .unwrap();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let label = app.post(&format!("{base}/labels"), json!({"name": "Customer", "labelType": "Text"})).await.expect(201);
    let cells = json!({label["labelId"].as_i64().unwrap().to_string(): customer});
    let body = json!({"contactDetails": "ann@example.com", "sendMail": true, "backgroundData": cells});
    let added = app.post(&format!("{base}/respondents"), body).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    Respondent { link: added["surveyLink"].as_str().unwrap().strip_prefix(&app.address).unwrap().to_owned() }
}

impl Respondent {
    /// Saves a page with these answers and answers the HTML that follows.
    async fn save(&self, app: &TestApp, page: i64, answers: &[(i64, &str)]) -> String {
        let mut form = vec![("page".to_owned(), page.to_string())];
        form.extend(answers.iter().map(|(item, value)| (format!("q{item}"), (*value).to_owned())));
        let response = app.client.post(format!("{}{}", app.address, self.link)).form(&form).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        response.text().await.unwrap()
    }
}

#[tokio::test]
async fn the_pages_follow_jumps_and_end_the_survey_on_conditions() {
    let app = spawn_app().await;
    let (survey, tree) = four_pages(&app).await;
    let (score, which, hours) = (item_id(&tree, 0, 0), item_id(&tree, 0, 1), item_id(&tree, 2, 0));
    let rules = json!([
        {"when": {"backgroundLabel": "Customer", "operator": "equals", "value": "no"}, "action": "endSurvey"},
        {"when": {"all": [{"questionItemId": score, "operator": "atLeast", "value": 7},
                          {"questionItemId": which, "operator": "contains", "value": "b"}]},
         "action": "jump", "goToPageId": page_id(&tree, 3)},
        {"when": {"questionItemId": score, "operator": "atLeast", "value": 7}, "action": "jump",
         "goToPageId": page_id(&tree, 2)},
        {"when": {"questionItemId": hours, "operator": "greaterThan", "value": 40}, "action": "endSurvey"}
    ]);
    app.put(&format!("/surveys/{survey}/logic"), rules).await.expect(200);
    let first = page_id(&tree, 0);

    let not_a_customer = respondent(&app, survey, "no").await;
    let thanks = not_a_customer.save(&app, first, &[(score, "3")]).await;
    assert!(thanks.contains("Thank you"), "the background rule ends the survey on the first page: {thanks}");
    let sets = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert_eq!(sets.as_array().unwrap().len(), 1);
    assert_eq!(sets[0]["completed"], true, "the set is completed when the page is saved");

    let low = respondent(&app, survey, "yes").await;
    let next = low.save(&app, first, &[(score, "3")]).await;
    assert!(next.contains("Why?"), "no rule holds: the next page");

    let high_with_b = respondent(&app, survey, "yes").await;
    let next = high_with_b.save(&app, first, &[(score, "9"), (which, "b")]).await;
    assert!(next.contains("Anything else?"), "all of the group holds: the first rule that holds acts");

    let high = respondent(&app, survey, "yes").await;
    let next = high.save(&app, first, &[(score, "9"), (which, "a")]).await;
    assert!(next.contains("Hours?"), "the second jump");
    let thanks = high.save(&app, page_id(&tree, 2), &[(hours, "45")]).await;
    assert!(thanks.contains("Thank you"), "the end rule of page three: {thanks}");
    let out_of_order = high.save(&app, page_id(&tree, 1), &[]).await;
    assert!(out_of_order.contains("Thank you"), "a completed set takes no more pages");
}
