//! A sendout's `language`: one of the twelve codes, `en` by default, returned by every read and kept by a copy; any
//! other value is a 400 listing the twelve in `supportedValues`.

use serde_json::{json, Value};

use crate::helpers::{email_sendout, spawn_app};

/// The twelve codes, in the order `supportedValues` lists them.
const LANGUAGES: [&str; 12] = ["en", "sv", "da", "nb", "fi", "de", "fr", "es", "nl", "pl", "it", "pt"];

fn in_language(language: Value) -> Value {
    let mut body = email_sendout();
    body["language"] = language;
    body
}

#[tokio::test]
async fn a_sendout_in_swedish_reads_back_in_swedish_and_one_without_a_language_speaks_english() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let base = format!("/surveys/{survey}/sendouts");

    let swedish = app.post(&base, in_language(json!("sv"))).await.expect(201);
    assert_eq!(swedish["language"], "sv");
    let id = swedish["sendoutId"].as_i64().unwrap();
    assert_eq!(app.get(&format!("{base}/{id}")).await.expect(200)["language"], "sv");

    let english = app.post(&base, email_sendout()).await.expect(201);
    assert_eq!(english["language"], "en", "absent means en");
    let null = app.post(&base, in_language(Value::Null)).await.expect(201);
    assert_eq!(null["language"], "en", "null means en");
    let login = app.post(&base, json!({"name": "Staff", "type": "LOGIN", "language": "pt"})).await.expect(201);
    assert_eq!(login["language"], "pt");

    let listed: Vec<Value> =
        app.get(&base).await.expect(200).as_array().unwrap().iter().map(|s| s["language"].clone()).collect();
    assert_eq!(listed, [json!("sv"), json!("en"), json!("en"), json!("pt")]);
    let activated = app.post(&format!("{base}/{id}/activate"), json!({})).await.expect(200);
    assert_eq!(activated["language"], "sv", "a change of status keeps the language");
}

#[tokio::test]
async fn each_of_the_twelve_codes_is_taken() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    for language in LANGUAGES {
        let created = app.post(&format!("/surveys/{survey}/sendouts"), in_language(json!(language))).await;
        assert_eq!(created.expect(201)["language"], language);
    }
}

#[tokio::test]
async fn another_language_is_a_400_listing_the_twelve_and_stores_nothing() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let base = format!("/surveys/{survey}/sendouts");
    for other in [json!("sv-SE"), json!("SV"), json!("xx"), json!(""), json!(" sv"), json!(46)] {
        let reply = app.post(&base, in_language(other.clone())).await;
        assert_eq!(reply.fields(), ["language"], "{other}");
        let problem = reply.problem(400, "/validation");
        assert_eq!(problem["supportedValues"], json!(LANGUAGES), "{other}");
    }
    assert_eq!(app.get(&base).await.expect(200), json!([]), "nothing stored");
}

#[tokio::test]
async fn a_copied_sendout_keeps_its_language() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let base = format!("/surveys/{survey}/sendouts");
    let finnish = app.post(&base, in_language(json!("fi"))).await.expect(201)["sendoutId"].clone();
    let german = app.post(&base, json!({"name": "Login", "type": "LOGIN", "language": "de"})).await.expect(201);
    let english = app.post(&base, email_sendout()).await.expect(201)["sendoutId"].clone();

    let ids = format!("{finnish},{},{english}", german["sendoutId"]);
    let copy = app.get(&format!("/surveys/{survey}/copy?copysendoutids={ids}")).await.expect(200);
    let copied = app.get(&format!("/surveys/{}/sendouts", copy["surveyId"])).await.expect(200);
    let kept: Vec<(Value, Value)> =
        copied.as_array().unwrap().iter().map(|s| (s["name"].clone(), s["language"].clone())).collect();
    assert_eq!(
        kept,
        [(json!("Invite"), json!("fi")), (json!("Login"), json!("de")), (json!("Invite"), json!("en"))],
        "{copied}"
    );
    assert!(copied.as_array().unwrap().iter().all(|s| s["sendoutId"] != finnish && s["status"] == "Draft"));
}
