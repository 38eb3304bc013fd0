//! A respondent's `language`: optional on the single add, on batch items and on background data rows, one of the
//! twelve codes (another is a 400 naming the field and adding no one), and null when none is given, on every read.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app};

fn languages(respondents: &Value) -> Vec<(String, Value)> {
    let list = respondents.as_array().unwrap();
    list.iter().map(|r| (r["contactDetails"].as_str().unwrap().to_owned(), r["language"].clone())).collect()
}

#[tokio::test]
async fn a_respondent_s_language_is_taken_on_every_add_and_read_back() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), email_sendout()).await.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", sendout["sendoutId"]);
    let respondents = format!("{base}/respondents");

    let ann = json!({"contactDetails": "ann@example.com", "sendMail": true, "language": "fi"});
    assert_eq!(app.post(&respondents, ann).await.expect(201)["language"], "fi");
    let batch = json!({"surveyRespondents": [
        {"contactDetails": "bo@example.com", "sendMail": true, "language": "sv"},
        {"contactDetails": "cy@example.com", "sendMail": true, "language": null}]});
    app.post(&format!("{respondents}/batch"), batch).await.expect(200);
    let docs = app.get("/bgdata/bgdocuments").await.expect(200);
    let doc = docs.as_array().unwrap().iter().find(|d| d["sendoutId"] == sendout["sendoutId"]).unwrap();
    let row = json!({"contactDetails": "di@example.com", "cellData": {}, "language": "pl"});
    app.post(&format!("/bgdata/bgdocuments/{}/rows", doc["bgDocumentId"]), row).await.expect(201);

    assert_eq!(
        languages(&app.get(&respondents).await.expect(200)),
        [
            ("ann@example.com".to_owned(), json!("fi")),
            ("bo@example.com".to_owned(), json!("sv")),
            ("cy@example.com".to_owned(), Value::Null),
            ("di@example.com".to_owned(), json!("pl")),
        ]
    );

    let wrong = json!({"contactDetails": "ed@example.com", "sendMail": true, "language": "sv-SE"});
    assert_eq!(app.post(&respondents, wrong).await.fields(), ["language"]);
    let wrong_batch =
        json!({"surveyRespondents": [{"contactDetails": "ed@example.com", "sendMail": true, "language": "SV"}]});
    assert_eq!(
        app.post(&format!("{respondents}/batch"), wrong_batch).await.fields(),
        ["surveyRespondents[0].language"]
    );
    assert_eq!(app.get(&respondents).await.expect(200).as_array().unwrap().len(), 4, "no one added");
}
