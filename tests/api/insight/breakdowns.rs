//! Breakdowns of results over HTTP (`breakdownBy` an item, a background label, the sendout), groups under
//! `minGroupSize` suppressed, the account's floor (`/accounts/settings`), answer conditions beside them, and every
//! bad parameter named.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, item_id, spawn_app, TestApp};

/// The sample survey, a sendout with a `Team` label and five answer sets: three of Sales (happy yes, yes, no;
/// 10, 20, 30 hours), one of Support (no; 40 hours) and one anonymous (yes; 50 hours). Returns the survey, its
/// tree, the sendout and the label.
pub(super) async fn teams(app: &TestApp) -> (i64, Value, i64, i64) {
    let (survey, tree) = app.sample_survey().await;
    let base = format!("/surveys/{survey}/sendouts");
    let sendout = app.post(&base, email_sendout()).await.expect(201)["sendoutId"].as_i64().unwrap();
    let labels = format!("{base}/{sendout}/labels");
    let label =
        app.post(&labels, json!({"name": "Team", "labelType": "Text"})).await.expect(201)["labelId"].as_i64().unwrap();
    let (happy, hours, rating) = (item_id(&tree, 0, 0), item_id(&tree, 1, 0), item_id(&tree, 1, 1));
    let people = [("Sales", "yes", 10), ("Sales", "yes", 20), ("Sales", "no", 30), ("Support", "no", 40)];
    for (n, (team, answer, worked)) in people.into_iter().enumerate() {
        let person = json!({"contactDetails": format!("p{n}@example.com"), "sendMail": false,
            "backgroundData": {label.to_string(): team}});
        let respondent = app.post(&format!("{base}/{sendout}/respondents"), person).await.expect(201);
        let set = json!({"completed": true, "respondentId": respondent["respondentId"], "answers": [
            {"questionItemId": happy, "value": answer}, {"questionItemId": hours, "value": worked},
            {"questionItemId": rating, "value": 7}]});
        app.post(&format!("/surveys/{survey}/answers"), set).await.expect(201);
    }
    let anonymous = json!({"completed": true, "answers": [
        {"questionItemId": happy, "value": "yes"}, {"questionItemId": hours, "value": 50},
        {"questionItemId": rating, "value": 7}]});
    app.post(&format!("/surveys/{survey}/answers"), anonymous).await.expect(201);
    (survey, tree, sendout, label)
}

/// Each group as `(key, label, answerSets or "suppressed", mean hours)`.
fn groups(results: &Value) -> Vec<(Value, Value, Value, Value)> {
    let groups = results["groups"].as_array().expect("groups");
    groups
        .iter()
        .map(|group| {
            let shown = if group["suppressed"] == json!(true) {
                assert!(group.get("items").is_none() && group.get("answerSets").is_none(), "{group}");
                json!("suppressed")
            } else {
                group["answerSets"].clone()
            };
            (group["key"].clone(), group["label"].clone(), shown, group["items"][3]["mean"].clone())
        })
        .collect()
}

#[tokio::test]
async fn a_breakdown_shows_each_big_enough_group_beside_the_whole() {
    let app = spawn_app().await;
    let (survey, tree, sendout, label) = teams(&app).await;
    let app = &app;
    let results = |query: String| {
        let path = format!("/surveys/{survey}/results?{query}");
        async move { app.get(&path).await }
    };
    let by_team = results(format!("breakdownBy=bg:{label}&minGroupSize=2")).await.expect(200);
    assert_eq!((&by_team["answerSets"], &by_team["items"][3]["mean"]), (&json!(5), &json!(30.0)), "the whole");
    assert_eq!(
        groups(&by_team),
        [
            (json!("Sales"), json!("Sales"), json!(3), json!(20.0)),
            (json!("Support"), json!("Support"), json!("suppressed"), Value::Null),
            (Value::Null, Value::Null, json!("suppressed"), Value::Null),
        ]
    );
    let happy = item_id(&tree, 0, 0);
    let by_answer = results(format!("breakdownBy={happy}&minGroupSize=1")).await.expect(200);
    assert_eq!(
        groups(&by_answer),
        [(json!("no"), json!("No"), json!(2), json!(35.0)), (json!("yes"), json!("Yes"), json!(3), json!(80.0 / 3.0))]
    );
    let by_sendout = results("breakdownBy=sendout&minGroupSize=1".into()).await.expect(200);
    assert_eq!(
        groups(&by_sendout),
        [(json!(sendout), json!("Invite"), json!(4), json!(25.0)), (Value::Null, Value::Null, json!(1), json!(50.0))]
    );
    // The default minimum is 5: no group of five sets here.
    let by_default = results(format!("breakdownBy=bg:{label}")).await.expect(200);
    assert!(groups(&by_default).iter().all(|group| group.2 == json!("suppressed")));
    // Conditions narrow the whole and every group alike.
    let conditioned = results(format!("breakdownBy=bg:{label}&minGroupSize=1&where={happy}:eq:yes")).await.expect(200);
    assert_eq!(conditioned["answerSets"], 3);
    assert_eq!(
        groups(&conditioned),
        [(json!("Sales"), json!("Sales"), json!(2), json!(15.0)), (Value::Null, Value::Null, json!(1), json!(50.0))]
    );
    let plain = results(String::new()).await.expect(200);
    assert!(plain.get("groups").is_none(), "no breakdown, no groups");
}

#[tokio::test]
async fn the_accounts_floor_bounds_every_query_of_its_own() {
    let app = spawn_app().await;
    let (survey, _, _, label) = teams(&app).await;
    assert_eq!(app.get("/accounts/settings").await.expect(200), json!({"minGroupSize": 1}));
    let stored = app.post("/accounts/settings", json!({"minGroupSize": 3})).await.expect(200);
    assert_eq!(stored, json!({"minGroupSize": 3}));
    assert_eq!(app.get("/accounts/settings").await.expect(200), json!({"minGroupSize": 3}));
    let under = app.get(&format!("/surveys/{survey}/results?breakdownBy=bg:{label}&minGroupSize=2")).await;
    assert_eq!(under.fields(), ["minGroupSize"]);
    under.problem(400, "/validation");
    let at = app.get(&format!("/surveys/{survey}/results?breakdownBy=bg:{label}&minGroupSize=3")).await.expect(200);
    assert_eq!(groups(&at)[0].2, json!(3), "Sales shows at the floor");
    for wrong in [json!({"minGroupSize": 0}), json!({"minGroupSize": 10001}), json!({}), json!({"minGroupSize": "5"})] {
        let refused = app.post("/accounts/settings", wrong.clone()).await;
        assert_eq!(refused.fields(), ["minGroupSize"], "{wrong}");
    }
    assert_eq!(app.get("/accounts/settings").await.expect(200), json!({"minGroupSize": 3}), "nothing stored");
    let (_, other) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other, "GET", "/accounts/settings", None).await.expect(200);
    assert_eq!(theirs, json!({"minGroupSize": 1}), "a floor is the account's own");
}

#[tokio::test]
async fn a_breakdown_that_does_not_fit_the_survey_is_named() {
    let app = spawn_app().await;
    let (survey, tree, _, _) = teams(&app).await;
    let (other_survey, _, _, other_label) = teams(&app).await;
    assert_ne!(survey, other_survey);
    let why = item_id(&tree, 0, 1);
    for (query, field) in [
        (format!("breakdownBy={why}"), "breakdownBy"),
        ("breakdownBy=99999999".to_owned(), "breakdownBy"),
        (format!("breakdownBy=bg:{other_label}"), "breakdownBy"),
        ("breakdownBy=team".to_owned(), "breakdownBy"),
        ("breakdownBy=language&minGroupSize=0".to_owned(), "minGroupSize"),
        ("where=1:eq".to_owned(), "where"),
        (format!("where={why}:gt:pay"), "where"),
    ] {
        let refused = app.get(&format!("/surveys/{survey}/results?{query}")).await;
        assert_eq!(refused.fields(), [field], "{query}");
        refused.problem(400, "/validation");
    }
}
