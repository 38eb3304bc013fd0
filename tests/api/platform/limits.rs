//! Length limits of free-text fields (docs/decisions.md): one character over the limit is a 400 naming the field,
//! on every path that writes it, and nothing is stored.

use serde_json::json;

use crate::helpers::{email_sendout, spawn_app, survey_with_sendout};

#[tokio::test]
async fn a_copy_cannot_take_a_name_over_500_characters() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let long = "n".repeat(501);
    let reply = app.get(&format!("/surveys/{survey}/copy?surveyname={long}")).await;
    assert_eq!(reply.fields(), ["surveyname"]);
    reply.problem(400, "/validation");
    let long_description = "d".repeat(10_001);
    let reply = app.get(&format!("/surveys/{survey}/copy?description={long_description}")).await;
    assert_eq!(reply.fields(), ["description"]);
    let reply = app.get(&format!("/surveys/{survey}/copy?description={}", "d".repeat(4_001))).await;
    assert_eq!(reply.fields(), ["description"], "the longest a URL can carry is 4,000 characters");
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 1, "no copy was made");
    let widest = "%F0%9F%A6%9C".repeat(4_000); // 4,000 four-byte characters, percent-encoded
    app.get(&format!("/surveys/{survey}/copy?description={widest}&surveyname={}", "%F0%9F%A6%9C".repeat(500)))
        .await
        .expect(200);
    app.get(&format!("/surveys/{survey}/copy?surveyname={}", "n".repeat(500))).await.expect(200);
}

#[tokio::test]
async fn survey_texts_have_limits() {
    let app = spawn_app().await;
    let body = json!({"name": "Pulse", "description": "d".repeat(10_001), "pages": [{"title": "t".repeat(501),
        "items": [{"type": "SingleChoice", "text": "q".repeat(10_001), "options": [{"value": "v".repeat(501)}]}]}]});
    let reply = app.post("/surveys", body).await;
    let mut fields = reply.fields();
    fields.sort();
    assert_eq!(
        fields,
        [
            "description",
            "pages[0].items[0].options[0].label",
            "pages[0].items[0].options[0].value",
            "pages[0].items[0].text",
            "pages[0].title"
        ]
    );
    reply.problem(400, "/validation");
}

#[tokio::test]
async fn a_sendout_name_and_message_have_limits() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let mut body = email_sendout();
    body["name"] = json!("s".repeat(900_000));
    let reply = app.post(&format!("/surveys/{survey}/sendouts"), body).await;
    assert_eq!(reply.fields(), ["name"]);
    reply.problem(400, "/validation");
    let mut body = email_sendout();
    body["subject"] = json!("s".repeat(501));
    body["message"] = json!(format!("{{{{surveyLink}}}} {}", "m".repeat(10_000)));
    let mut fields = app.post(&format!("/surveys/{survey}/sendouts"), body).await.fields();
    fields.sort();
    assert_eq!(fields, ["message", "subject"]);
    assert_eq!(app.get(&format!("/surveys/{survey}/sendouts")).await.expect(200), json!([]));
}

#[tokio::test]
async fn background_data_values_have_a_limit_on_every_path() {
    let app = spawn_app().await;
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let base = format!("/surveys/{survey}/sendouts/{id}");
    let city = app.post(&format!("{base}/labels"), json!({"name": "City", "labelType": "Text"})).await.expect(201);
    let city = city["labelId"].as_i64().unwrap().to_string();
    let long = "c".repeat(900_000);
    let person = json!({"contactDetails": "a@example.com", "sendMail": true, "backgroundData": {&city: &long}});
    let reply = app.post(&format!("{base}/respondents"), person).await;
    assert_eq!(reply.fields(), [format!("backgroundData.{city}")]);
    reply.problem(400, "/validation");
    let batch = json!({"surveyRespondents": [{"contactDetails": "b@example.com", "sendMail": false,
        "backgroundData": {&city: "c".repeat(1001)}}]});
    app.post(&format!("{base}/respondents/batch"), batch).await.problem(400, "/validation");

    let fine = json!({"contactDetails": "a@example.com", "sendMail": true, "backgroundData": {&city: "Oslo"}});
    let respondent = app.post(&format!("{base}/respondents"), fine).await.expect(201)["respondentId"].clone();
    let documents = app.get("/bgdata/bgdocuments").await.expect(200);
    let document = documents.as_array().unwrap().iter().find(|d| d["sendoutId"] == id).unwrap()["bgDocumentId"].clone();
    let row = format!("/bgdata/bgdocuments/{document}/rows/{respondent}");
    let reply = app.put(&row, json!({"cellData": {&city: "c".repeat(1001)}})).await;
    assert_eq!(reply.fields(), [format!("cellData.{city}")]);
    let added = app
        .post(
            &format!("/bgdata/bgdocuments/{document}/rows"),
            json!({"contactDetails": "c@example.com",
            "cellData": {&city: &long}}),
        )
        .await;
    assert_eq!(added.fields(), [format!("cellData.{city}")]);
    let stored = app.post(&row, json!({"labels": [city.parse::<i64>().unwrap()]})).await.expect(200);
    assert_eq!(stored["cells"][&city], "Oslo");
}

#[tokio::test]
async fn bounce_reasons_and_addresses_have_limits() {
    let app = spawn_app().await;
    let failure = |reason: String, domain: String| {
        json!({"failures": [{"emailAddress": "ann@example.com", "sendingDomain": domain,
            "failedAt": "2020-11-20T10:00:00Z", "reason": reason}]})
    };
    let reply =
        app.post("/email-bounces/permanent-failures", failure("r".repeat(900_000), "acme.example".into())).await;
    assert_eq!(reply.fields(), ["failures[0].reason"]);
    reply.problem(400, "/validation");
    let reply = app.post("/email-bounces/permanent-failures", failure("550".into(), "d".repeat(254))).await;
    assert_eq!(reply.fields(), ["failures[0].sendingDomain"]);
    let page = app.get("/email-bounces/permanent-failures?pageNumber=1&pageSize=10").await.expect(200);
    assert_eq!(page["totalCount"], 0);
    app.post("/email-bounces/permanent-failures", failure("r".repeat(2000), "acme.example".into())).await.expect(200);
    let padded = format!("{}acme.example", " ".repeat(250));
    let reply = app.post("/email-bounces/permanent-failures", failure("550".into(), padded)).await;
    assert_eq!(reply.fields(), ["failures[0].sendingDomain"], "blanks count toward the published maxLength");
}

#[tokio::test]
async fn the_failure_list_refuses_a_domain_filter_longer_than_a_dns_name() {
    let app = spawn_app().await;
    let list =
        |domain: &str| format!("/email-bounces/permanent-failures?pageNumber=1&pageSize=10&sendingDomain={domain}");
    let reply = app.get(&list(&"%C3%A9".repeat(254))).await;
    assert_eq!(reply.fields(), ["sendingDomain"]);
    reply.problem(400, "/validation");
    let page = app.get(&list(&"%C3%A9".repeat(253))).await.expect(200);
    assert_eq!(page["totalCount"], 0);
}

#[tokio::test]
async fn names_and_contacts_are_measured_as_sent_before_blanks_are_trimmed() {
    let app = spawn_app().await;
    let padded = |text: &str, limit: usize| format!("{}{text}", " ".repeat(limit + 1 - text.len()));
    let reply = app.post("/surveys", json!({"name": padded("Pulse", 500)})).await;
    assert_eq!(reply.fields(), ["name"]);
    let reply = app.post("/accounts/categories", json!({"name": padded("Staff", 200)})).await;
    assert_eq!(reply.fields(), ["name"]);
    let reply = app
        .post("/accounts/blocklist", json!({"contactDetails": padded("ann@example.com", 320), "type": "Blocked"}))
        .await;
    assert_eq!(reply.fields(), ["contactDetails"]);
    let reply =
        app.post("/accounts/blocklist", json!({"contactDetails": "\tann@example.com", "type": "Blocked"})).await;
    assert_eq!(reply.fields(), ["contactDetails"], "a control character is refused even where it would be trimmed");
    let reply = app.post("/accounts/erasure", json!({"contactDetails": padded("ann@example.com", 320)})).await;
    assert_eq!(reply.fields(), ["contactDetails"]);
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let person = json!({"contactDetails": padded("ann@example.com", 320), "sendMail": false});
    let reply = app.post(&format!("/surveys/{survey}/sendouts/{id}/respondents"), person).await;
    assert_eq!(reply.fields(), ["contactDetails"]);
    assert_eq!(app.get("/surveys").await.expect(200).as_array().unwrap().len(), 1, "only the set-up survey");
    assert_eq!(app.get("/accounts/blocklist").await.expect(200), json!([]));
}

#[tokio::test]
async fn category_and_label_names_have_limits() {
    let app = spawn_app().await;
    app.post("/accounts/categories", json!({"name": "c".repeat(201)})).await.problem(400, "/validation");
    let (survey, id) = survey_with_sendout(&app, email_sendout()).await;
    let labels = format!("/surveys/{survey}/sendouts/{id}/labels");
    let reply = app.post(&labels, json!({"name": "l".repeat(201), "labelType": "Text"})).await;
    assert_eq!(reply.fields(), ["name"]);
}
