//! `POST /contacts/import`: a CSV file creates or updates contacts row by row (by email, then phone; an empty cell
//! leaves a field), rejects rows by line, takes a byte order mark and CRLF lines; a malformed file is a 400 naming
//! its line that stores nothing, another media type a 415.

use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn a_file_creates_and_updates_contacts_and_rejects_rows_by_line() {
    let app = spawn_app().await;
    let anna = app.post("/contacts", json!({"email": "anna@example.com", "firstName": "Anna", "language": "sv"})).await;
    let anna = anna.expect(201)["contactId"].clone();
    let file = "\u{feff}email,phone,firstName,language,tier\r\n\
        ANNA@example.com,+4790000001,,,gold\r\n\
        bo@example.com,,Bo,xx,\r\n\
        \"cleo@example.com\",+4790000003,\"Cleo, Jr.\",fi,silver\r\n\
        ,+4790000003,Cleo,,\r\n\
        anna@example.com,+4790000003,,,\r\n\
        not an address,,,,\r\n";
    let outcome = app.post_csv("/contacts/import", file).await.expect(200);
    assert_eq!((&outcome["created"], &outcome["updated"]), (&json!(1), &json!(2)));
    assert_eq!(outcome["rejected"][0]["line"], 3);
    assert!(outcome["rejected"][0]["reason"].as_str().unwrap().starts_with("language: "));
    assert_eq!(
        outcome["rejected"].as_array().unwrap()[1..],
        [
            json!({"line": 6, "reason": "email and phone belong to two different contacts"}),
            json!({"line": 7, "reason": "email: must be an email address"})
        ]
    );
    let updated = app.get(&format!("/contacts/{anna}")).await.expect(200);
    assert_eq!((&updated["firstName"], &updated["language"]), (&json!("Anna"), &json!("sv")), "empty cells leave");
    assert_eq!((&updated["phone"], &updated["attributes"]), (&json!("+4790000001"), &json!({"tier": "gold"})));
    let cleo = app.get("/contacts?search=cleo").await.expect(200);
    assert_eq!(cleo["contacts"][0]["firstName"], "Cleo", "line 5 updated line 4's contact by its phone");
    assert_eq!(cleo["contacts"][0]["attributes"], json!({"tier": "silver"}));
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 2);
}

#[tokio::test]
async fn a_malformed_file_is_a_400_naming_its_line_and_stores_nothing() {
    let app = spawn_app().await;
    let short_row = "email,tier\na@example.com,gold\nb@example.com\n";
    let refused = app.post_csv("/contacts/import", short_row).await.problem(400, "/validation");
    assert_eq!(refused["errors"][0]["field"], "line 3");
    let no_contact_column = app.post_csv("/contacts/import", "firstName\nAnna\n").await.problem(400, "/validation");
    assert_eq!(no_contact_column["errors"][0]["field"], "line 1");
    app.post_csv("/contacts/import", "").await.problem(400, "/validation");
    app.post_csv("/contacts/import", b"email\n\xff@example.com\n".to_vec()).await.problem(400, "/validation");
    assert_eq!(app.get("/contacts").await.expect(200)["totalCount"], 0, "the good row before is not stored");
    app.post("/contacts/import", json!({"email": "a@example.com"})).await.problem(415, "/unsupported-media-type");
}

#[tokio::test]
async fn a_file_of_twenty_thousand_rows_is_taken_in_one_request() {
    let app = spawn_app().await;
    let mut file = String::from("email,firstName,lastName,region\n");
    for n in 0..20_000 {
        file.push_str(&format!("person{n}@example.com,First{n},Last{n},North\n"));
    }
    let outcome = app.post_csv("/contacts/import", file.clone()).await.expect(200);
    assert_eq!((&outcome["created"], &outcome["rejected"]), (&json!(20_000), &json!([])));
    let again = app.post_csv("/contacts/import", file).await.expect(200);
    assert_eq!((&again["created"], &again["updated"]), (&json!(0), &json!(20_000)), "the same file again updates");
    let found = app.get("/contacts?search=person19999@").await.expect(200);
    assert_eq!(found["contacts"][0]["attributes"], json!({"region": "North"}));
    // More than 10,000 found (person1, person10 to person19, ..., person10000 to person19999) are paged and
    // counted by the statements of a term that finds many.
    let many = app.get("/contacts?search=person1&pageSize=3&pageNumber=2").await.expect(200);
    let emails: Vec<&str> = many["contacts"].as_array().unwrap().iter().map(|c| c["email"].as_str().unwrap()).collect();
    assert_eq!(
        (emails, &many["totalCount"]),
        (vec!["person12@example.com", "person13@example.com", "person14@example.com"], &json!(11_111))
    );
    let past = app.get("/contacts?search=person1&pageSize=1000&pageNumber=13").await.expect(200);
    assert_eq!((&past["contacts"], &past["totalCount"]), (&json!([]), &json!(11_111)));
}
