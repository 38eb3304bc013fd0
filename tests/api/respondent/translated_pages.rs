//! The survey in each respondent's language: a respondent whose language has a translation sees the survey's texts
//! in it, a text with no translation in the survey's language marked with its own `lang`, the service's words in
//! the language shown and `<html lang>` right; the other languages offered as links named in their own language;
//! `?lang=` of one of the survey's languages kept as the respondent's, another ignored.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, TestApp};

async fn get(app: &TestApp, path: &str) -> String {
    let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.text().await.unwrap()
}

/// A Swedish survey with an English translation of all but the note; an active LOGIN sendout (in Swedish, the
/// survey's language) with Ann in English and Bo with no language. Returns the respondents' path and both links.
async fn swedish_with_english(app: &TestApp) -> (String, String, String) {
    let body = json!({"name": "Puls", "language": "sv", "pages": [{"title": "Arbete", "items": [
        {"type": "SingleChoice", "text": "Trivs du?", "required": true,
            "options": [{"value": "ja", "label": "Ja"}, {"value": "nej", "label": "Nej"}]},
        {"type": "OpenText", "text": "Varför?"}]}]});
    let sendout = json!({"name": "Vår", "type": "LOGIN"});
    let ann = json!({"contactDetails": "ann", "sendMail": false, "language": "en"});
    let (survey, base, _, ann) = app.one_respondent_sendout(&app.key, body, sendout, ann).await;
    let bo = app.post(&format!("{base}/respondents"), json!({"contactDetails": "bo", "sendMail": false})).await;
    let bo = bo.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let english = json!({"name": "Pulse", "pages": {page_id(&tree, 0).to_string(): {"title": "Work"}},
        "items": {item_id(&tree, 0, 0).to_string(): {"text": "Do you like it here?", "options": {"ja": "Yes", "nej": "No"}}}});
    app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(english)).await.expect(200);
    let link = |respondent: &Value| respondent["surveyLink"].as_str().unwrap().replace(&app.address, "");
    (format!("{base}/respondents"), link(&ann), link(&bo))
}

fn language_of(respondents: &Value, link: &str) -> Value {
    let found = respondents.as_array().unwrap().iter().find(|r| r["surveyLink"].as_str().unwrap().ends_with(link));
    found.unwrap()["language"].clone()
}

#[tokio::test]
async fn each_respondent_sees_the_survey_in_its_language_with_untranslated_texts_marked() {
    let app = spawn_app().await;
    let (_, ann, bo) = swedish_with_english(&app).await;

    let english = get(&app, &ann).await;
    for said in [
        "<html lang=\"en\">",
        "<h1>Pulse</h1>",
        "<h2>Work</h2>",
        "Do you like it here? (required)",
        "> Yes<",
        "Page 1 of 1",
        "<span lang=\"sv\">Varför?</span>",
    ] {
        assert!(english.contains(said), "{said}: {english}");
    }
    assert!(!english.contains("Trivs du?") && !english.contains("Sida 1"), "{english}");
    assert!(
        english.contains(&format!("<a href=\"{ann}?lang=sv\" lang=\"sv\" hreflang=\"sv\">Svenska</a>")),
        "{english}"
    );
    assert!(!english.contains("hreflang=\"en\""), "the language shown is not offered: {english}");

    let swedish = get(&app, &bo).await;
    for said in ["<html lang=\"sv\">", "<h1>Puls</h1>", "Trivs du? (obligatorisk)", "Sida 1 av 1", "Varför?"] {
        assert!(swedish.contains(said), "{said}: {swedish}");
    }
    assert!(!swedish.contains("<span lang="), "nothing is marked in the survey's own language: {swedish}");
    assert!(swedish.contains(">English</a>"), "{swedish}");
}

#[tokio::test]
async fn a_language_picked_on_the_page_is_kept_and_one_the_survey_lacks_is_ignored() {
    let app = spawn_app().await;
    let (respondents, ann, bo) = swedish_with_english(&app).await;

    let picked = get(&app, &format!("{bo}?lang=en")).await;
    assert!(picked.contains("<html lang=\"en\">") && picked.contains("Do you like it here?"), "{picked}");
    let again = get(&app, &bo).await;
    assert!(again.contains("<html lang=\"en\">"), "the choice is kept: {again}");
    assert_eq!(language_of(&app.get(&respondents).await.expect(200), &bo), "en");

    for ignored in ["de", "xx", "sv-SE", ""] {
        let page = get(&app, &format!("{ann}?lang={ignored}")).await;
        assert!(page.contains("<html lang=\"en\">"), "{ignored}: {page}");
    }
    assert_eq!(language_of(&app.get(&respondents).await.expect(200), &ann), "en");
    let back = get(&app, &format!("{ann}?lang=sv")).await;
    assert!(back.contains("<html lang=\"sv\">") && back.contains("Trivs du?"), "{back}");
    assert_eq!(language_of(&app.get(&respondents).await.expect(200), &ann), "sv");
}

/// An Active LINK sendout of a Swedish survey with an English translation of its name; its open link's path.
async fn open_link_of_swedish_with_english(app: &TestApp) -> (String, String) {
    let body =
        json!({"name": "Puls", "language": "sv", "pages": [{"items": [{"type": "OpenText", "text": "Varför?"}]}]});
    let survey = app.post("/surveys", body).await.expect(201)["surveyId"].as_i64().unwrap();
    app.call("PUT", &format!("/surveys/{survey}/translations/en"), Some(json!({"name": "Pulse"}))).await.expect(200);
    let base = format!("/surveys/{survey}/sendouts");
    let sendout = app.post(&base, json!({"name": "Affisch", "type": "LINK"})).await.expect(201);
    app.post(&format!("{base}/{}/activate", sendout["sendoutId"]), json!({})).await.expect(200);
    let link = sendout["openLink"].as_str().unwrap().replace(&app.address, "");
    (link, format!("{base}/{}/respondents", sendout["sendoutId"]))
}

async fn page_with(app: &TestApp, path: &str, accept: &str) -> String {
    let request = app.client.get(format!("{}{path}", app.address)).header("Accept-Language", accept);
    request.send().await.unwrap().text().await.unwrap()
}

#[tokio::test]
async fn an_open_link_takes_lang_then_the_browser_s_languages_and_keeps_the_choice() {
    let app = spawn_app().await;
    let (link, respondents) = open_link_of_swedish_with_english(&app).await;

    let english = page_with(&app, &link, "fi;q=0.9, en-GB;q=0.8, sv;q=0").await;
    assert!(english.contains("<html lang=\"en\">") && english.contains("<h1>Pulse</h1>"), "{english}");
    let picked = page_with(&app, &format!("{link}?lang=sv"), "en").await;
    assert!(picked.contains("<html lang=\"sv\">") && picked.contains("<h1>Puls</h1>"), "{picked}");
    for (query, accept) in [("?lang=de", "de, pl"), ("", "*"), ("", "x-klingon;;q=bad")] {
        let page = page_with(&app, &format!("{link}{query}"), accept).await;
        assert!(page.contains("<html lang=\"sv\">"), "{query} {accept}: the sendout's language: {page}");
    }

    let start = canvass_testkit::TestApp::client_without_redirects()
        .post(format!("{}{link}", app.address))
        .header("Accept-Language", "nb, en;q=0.5")
        .form(&[("lang", "xx")])
        .send()
        .await
        .unwrap();
    assert_eq!(start.status().as_u16(), 303);
    let own = start.headers()["location"].to_str().unwrap().to_owned();
    assert!(get(&app, &own).await.contains("<html lang=\"en\">"), "the visitor's page is in the language chosen");
    let listed = app.get(&respondents).await.expect(200);
    assert_eq!(listed[0]["language"], "en", "{listed}");
}
