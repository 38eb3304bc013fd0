//! `/contacts`: a contact is created with an email address or a phone number, unique in its account (a 409
//! `duplicate` naming the contact that holds it), read, searched a page at a time, changed by a PATCH that merges
//! attributes, and deleted; bad input is a 400 naming the field and stores nothing; another account's contacts
//! answer 404.

use serde_json::{json, Value};

use crate::helpers::spawn_app;

fn anna() -> Value {
    json!({"email": "Anna@Example.com", "firstName": "Anna", "lastName": "Berg", "language": "sv",
        "attributes": {"tier": "gold", "city": "Oslo"}})
}

#[tokio::test]
async fn a_contact_is_created_read_changed_by_merging_and_deleted() {
    let app = spawn_app().await;
    let created = app.post("/contacts", anna()).await.expect(201);
    let id = created["contactId"].as_i64().unwrap();
    assert_eq!(created["email"], "Anna@Example.com");
    assert_eq!((&created["phone"], &created["language"]), (&Value::Null, &json!("sv")));
    assert_eq!(created["attributes"], json!({"city": "Oslo", "tier": "gold"}));
    assert_eq!(app.get(&format!("/contacts/{id}")).await.expect(200), created);

    let change = json!({"lastName": null, "phone": "+4791234567", "attributes": {"tier": null, "plan": "pro"}});
    let changed = app.call("PATCH", &format!("/contacts/{id}"), Some(change)).await.expect(200);
    assert_eq!((&changed["lastName"], &changed["phone"]), (&Value::Null, &json!("+4791234567")));
    assert_eq!((&changed["firstName"], &changed["language"]), (&json!("Anna"), &json!("sv")), "absent fields stay");
    assert_eq!(changed["attributes"], json!({"city": "Oslo", "plan": "pro"}));

    app.delete(&format!("/contacts/{id}")).await.expect(204);
    app.get(&format!("/contacts/{id}")).await.problem(404, "/not-found");
    app.delete(&format!("/contacts/{id}")).await.problem(404, "/not-found");
}

#[tokio::test]
async fn an_email_or_phone_another_contact_holds_is_a_409_naming_it() {
    let app = spawn_app().await;
    let anna = app.post("/contacts", anna()).await.expect(201)["contactId"].clone();
    let again = app.post("/contacts", json!({"email": "anna@EXAMPLE.com"})).await;
    assert_eq!(again.problem(409, "/duplicate")["contactId"], anna, "compared case-insensitively");
    let bo = app.post("/contacts", json!({"phone": "+4790000001", "firstName": "Bo"})).await.expect(201);
    let both = app.post("/contacts", json!({"email": "new@example.com", "phone": "+4790000001"})).await;
    assert_eq!(both.problem(409, "/duplicate")["contactId"], bo["contactId"]);
    let onto_anna = json!({"email": "ANNA@example.com"});
    let taken = app.call("PATCH", &format!("/contacts/{}", bo["contactId"]), Some(onto_anna)).await;
    assert_eq!(taken.problem(409, "/duplicate")["contactId"], anna);
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 2, "nothing more was stored");
}

#[tokio::test]
async fn contacts_are_searched_by_email_phone_and_names_a_page_at_a_time() {
    let app = spawn_app().await;
    for body in [
        json!({"email": "anna@example.com", "firstName": "Anna"}),
        json!({"email": "bo@example.com", "lastName": "Johansson"}),
        json!({"phone": "+4791234567", "firstName": "Hanna"}),
        json!({"email": "100%_sure@example.com"}),
    ] {
        app.post("/contacts", body).await.expect(201);
    }
    let app = &app;
    let search = |query: &str| {
        let path = format!("/contacts?{query}");
        async move { app.get(&path).await }
    };
    let anna = search("search=ANNA&pageSize=1").await.expect(200);
    assert_eq!((anna["totalCount"].as_i64(), anna["pageCount"].as_i64()), (Some(2), Some(2)), "Anna and Hanna");
    assert_eq!(anna["contacts"][0]["firstName"], "Anna");
    let second = search("search=anna&pageSize=1&pageNumber=2").await.expect(200);
    assert_eq!(second["contacts"][0]["firstName"], "Hanna");
    let past = search("search=anna&pageNumber=2").await.expect(200);
    assert_eq!((&past["contacts"], &past["totalCount"]), (&json!([]), &json!(2)), "past the end, still counted");
    assert_eq!(search("search=johan").await.expect(200)["totalCount"], 1, "a last name");
    assert_eq!(search("search=91234").await.expect(200)["totalCount"], 1, "a phone number");
    assert_eq!(search("search=%25_").await.expect(200)["totalCount"], 1, "% and _ are taken literally");
    let all = search("").await.expect(200);
    assert_eq!(
        (all["totalCount"].as_i64(), all["pageNumber"].as_i64(), all["pageSize"].as_i64()),
        (Some(4), Some(1), Some(100))
    );
    assert_eq!(search("pageNumber=3").await.expect(200)["contacts"], json!([]), "past the end");
    assert_eq!(search("pageSize=1001").await.fields(), ["pageSize"]);
}

#[tokio::test]
async fn bad_input_is_a_400_naming_the_field_and_stores_nothing() {
    let app = spawn_app().await;
    let long = "x".repeat(1_001);
    let cases = [
        (json!({"firstName": "Anna"}), "email"),
        (json!({"email": "anna"}), "email"),
        (json!({"phone": "91234567"}), "phone"),
        (json!({"email": "a@example.com", "firstName": "x".repeat(201)}), "firstName"),
        (json!({"email": "a@example.com", "attributes": {"2nd": "x"}}), "attributes.2nd"),
        (json!({"email": "a@example.com", "attributes": {"note": long}}), "attributes.note"),
        (json!({"email": "a@example.com", "language": "sv-SE"}), "language"),
    ];
    for (body, field) in cases {
        let reply = app.post("/contacts", body.clone()).await;
        assert_eq!(reply.fields(), [field], "{body}");
        reply.problem(400, "/validation");
    }
    let many: serde_json::Map<String, Value> = (0..51).map(|n| (format!("a{n}"), json!("x"))).collect();
    let reply = app.post("/contacts", json!({"email": "a@example.com", "attributes": many})).await;
    assert_eq!(reply.fields(), ["attributes"]);
    let id = app.post("/contacts", json!({"email": "a@example.com"})).await.expect(201)["contactId"].clone();
    let neither = app.call("PATCH", &format!("/contacts/{id}"), Some(json!({"email": null}))).await;
    assert_eq!(neither.fields(), ["email"], "a contact keeps an email address or a phone number");
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 1);
}

#[tokio::test]
async fn another_accounts_contacts_answer_404() {
    let app = spawn_app().await;
    let id = app.post("/contacts", anna()).await.expect(201)["contactId"].clone();
    let (_, other) = app.new_account("Other", "owner@other.example");
    let path = format!("/contacts/{id}");
    app.call_as(&other, "GET", &path, None).await.problem(404, "/not-found");
    app.call_as(&other, "PATCH", &path, Some(json!({"firstName": "Eve"}))).await.problem(404, "/not-found");
    app.call_as(&other, "DELETE", &path, None).await.problem(404, "/not-found");
    assert_eq!(app.call_as(&other, "GET", "/contacts", None).await.expect(200)["totalCount"], 0);
    assert!(app.call_as(&other, "POST", "/contacts", Some(anna())).await.expect(201).is_object(), "its own directory");
}

#[tokio::test]
async fn ten_requests_adding_one_person_at_once_store_one_contact_and_name_it_to_the_rest() {
    let app = spawn_app().await;
    let adds = (0..10).map(|n| {
        let email = if n % 2 == 0 { "same@example.com" } else { "SAME@example.com" };
        app.post("/contacts", json!({"email": email, "firstName": format!("try {n}")}))
    });
    let replies = futures::future::join_all(adds).await;
    let created: Vec<&Value> =
        replies.iter().filter(|reply| reply.status.as_u16() == 201).map(|reply| &reply.body).collect();
    assert_eq!(created.len(), 1, "one contact: {:?}", replies.iter().map(|r| r.status).collect::<Vec<_>>());
    let id = &created[0]["contactId"];
    for reply in replies.iter().filter(|reply| reply.status.as_u16() != 201) {
        assert_eq!((reply.status.as_u16(), &reply.body["contactId"]), (409, id), "{}", reply.body);
    }
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 1);
}
