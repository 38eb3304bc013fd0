//! `/contact-lists` and `respondents/from-list`: a list's members are the account's contacts, counted once and
//! filtered by; a list joins a sendout in one call, each contact without the sendout's kind of detail, blocklisted
//! or there already refused by id, each respondent keeping the contact's id, language and matching attributes;
//! another account's lists and contacts answer 404, a LINK sendout 409.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout, TestApp};

async fn contact(app: &TestApp, body: Value) -> i64 {
    app.post("/contacts", body).await.expect(201)["contactId"].as_i64().unwrap()
}

async fn list_with(app: &TestApp, members: &[i64]) -> i64 {
    let list = app.post("/contact-lists", json!({"name": "Customers"})).await.expect(201)["listId"].as_i64().unwrap();
    let added = app.post(&format!("/contact-lists/{list}/members"), json!({"contactIds": members})).await.expect(200);
    assert_eq!(added["added"], members.len());
    list
}

#[tokio::test]
async fn a_lists_members_are_counted_filtered_by_and_removed() {
    let app = spawn_app().await;
    let anna = contact(&app, json!({"email": "anna@example.com"})).await;
    let bo = contact(&app, json!({"phone": "+4791234567"})).await;
    contact(&app, json!({"email": "outsider@example.com"})).await;
    let list = list_with(&app, &[anna]).await;
    let members = format!("/contact-lists/{list}/members");
    let again = app.post(&members, json!({"contactIds": [anna, bo, bo]})).await.expect(200);
    assert_eq!(again["added"], 1, "anna is a member already; bo counts once");
    let lists = app.get("/contact-lists").await.expect(200);
    assert_eq!((&lists[0]["name"], &lists[0]["memberCount"]), (&json!("Customers"), &json!(2)));
    let page = app.get(&format!("/contacts?listId={list}")).await.expect(200);
    let ids: Vec<&Value> = page["contacts"].as_array().unwrap().iter().map(|c| &c["contactId"]).collect();
    assert_eq!((ids, &page["totalCount"]), (vec![&json!(anna), &json!(bo)], &json!(2)));
    let searched = app.get(&format!("/contacts?listId={list}&search=example")).await.expect(200);
    assert_eq!(
        (&searched["contacts"][0]["contactId"], &searched["totalCount"]),
        (&json!(anna), &json!(1)),
        "not the outsider"
    );
    let past = app.get(&format!("/contacts?listId={list}&search=example&pageNumber=2")).await.expect(200);
    assert_eq!((&past["contacts"], &past["totalCount"]), (&json!([]), &json!(1)));

    app.post(&members, json!({"contactIds": []})).await.problem(400, "/validation");
    app.post(&members, json!({"contactIds": [anna, 999_999]})).await.problem(404, "/not-found");
    app.post("/contact-lists", json!({"name": " "})).await.problem(400, "/validation");
    app.delete(&format!("{members}/{bo}")).await.expect(204);
    app.delete(&format!("{members}/{bo}")).await.problem(404, "/not-found");
    app.delete(&format!("/contacts/{anna}")).await.expect(204);
    assert_eq!(app.get("/contact-lists").await.expect(200)[0]["memberCount"], 0, "a deleted contact leaves");

    let (_, other) = app.new_account("Other", "owner@other.example");
    app.call_as(&other, "GET", &format!("/contacts?listId={list}"), None).await.problem(404, "/not-found");
    app.call_as(&other, "DELETE", &format!("/contact-lists/{list}"), None).await.problem(404, "/not-found");
    let theirs = json!({"contactIds": [bo]});
    app.call_as(&other, "POST", &members, Some(theirs)).await.problem(404, "/not-found");
    app.delete(&format!("/contact-lists/{list}")).await.expect(204);
    assert_eq!(app.get("/contact-lists").await.expect(200), json!([]));
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 2, "the contacts stay");
}

#[tokio::test]
async fn a_list_joins_a_sendout_with_its_contacts_language_and_attributes() {
    let app = spawn_app().await;
    let (survey, sendout) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let region = app.post(&format!("{base}/labels"), json!({"name": "region", "labelType": "Text"})).await.expect(201);
    let region = region["labelId"].as_i64().unwrap();
    let anna = contact(
        &app,
        json!({"email": "Anna@Example.com", "language": "sv",
        "attributes": {"region": "North", "tier": "gold"}}),
    )
    .await;
    let phone_only = contact(&app, json!({"phone": "+4791234567"})).await;
    let blocked = contact(&app, json!({"email": "blocked@example.com"})).await;
    let known = contact(&app, json!({"email": "known@example.com", "attributes": {"region": " "}})).await;
    app.post("/accounts/blocklist", json!({"contactDetails": "BLOCKED@example.com", "type": "Blocked"}))
        .await
        .expect(201);
    app.post(&format!("{base}/respondents"), json!({"contactDetails": "known@example.com", "sendMail": true}))
        .await
        .expect(201);
    let list = list_with(&app, &[anna, phone_only, blocked, known]).await;

    let outcome = app.post(&format!("{base}/respondents/from-list"), json!({"listId": list})).await.expect(200);
    assert_eq!(outcome["added"], 1);
    assert_eq!(
        outcome["rejected"],
        json!([{"contactId": phone_only, "reason": "noContactDetail"}, {"contactId": blocked, "reason": "blocklisted"},
            {"contactId": known, "reason": "duplicate"}])
    );
    let respondents = app.get(&format!("{base}/respondents")).await.expect(200);
    let added = &respondents.as_array().unwrap()[1];
    assert_eq!((&added["contactDetails"], &added["contactId"]), (&json!("Anna@Example.com"), &json!(anna)));
    assert_eq!(
        (&added["language"], &added["status"], &added["sendMail"]),
        (&json!("sv"), &json!("Pending"), &json!(true))
    );
    assert_eq!(added["backgroundData"], json!({region.to_string(): "North"}), "tier is no label of the sendout");
    assert_eq!(respondents[0]["contactId"], Value::Null, "added without a contact");
    assert_eq!(app.get(&base).await.expect(200)["respondentCount"], 2);

    app.delete(&format!("/contacts/{anna}")).await.expect(204);
    let kept = app.get(&format!("{base}/respondents")).await.expect(200);
    assert_eq!((&kept[1]["contactDetails"], &kept[1]["contactId"]), (&json!("Anna@Example.com"), &Value::Null));
}

#[tokio::test]
async fn a_link_sendout_or_another_accounts_list_refuses_the_whole_call() {
    let app = spawn_app().await;
    let link = json!({"name": "Poster", "type": "LINK", "expiryDate": "2099-12-15"});
    let (survey, poster) = survey_with_sendout(&app, link).await;
    let anna = contact(&app, json!({"email": "anna@example.com"})).await;
    let list = list_with(&app, &[anna]).await;
    let from_list = |sendout: i64| format!("/surveys/{survey}/sendouts/{sendout}/respondents/from-list");
    app.post(&from_list(poster), json!({"listId": list})).await.problem(409, "/link-sendout");
    let email = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201)["sendoutId"]
        .as_i64()
        .unwrap();
    app.post(&from_list(email), json!({"listId": 999_999})).await.problem(404, "/not-found");
    app.post(&from_list(email), json!({"listId": "x"})).await.problem(400, "/validation");
    let (_, other) = app.new_account("Other", "owner@other.example");
    let theirs = app.call_as(&other, "POST", &from_list(email), Some(json!({"listId": list}))).await;
    theirs.problem(404, "/not-found");
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts/{email}/respondents")).await.expect(200), json!([]));
}
