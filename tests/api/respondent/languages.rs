//! The respondent's side in the sendout's language: every word the service writes itself on the survey, error,
//! thank-you, closed, opt-out and login pages; the survey's own texts (its thank-you among them) as written; the
//! rating scale with its end labels; English where no sendout is known.

use serde_json::{json, Value};

use crate::helpers::{item_id, page_id, spawn_app, spawn_app_with, TestApp};

async fn html(response: reqwest::Response) -> (u16, String) {
    (response.status().as_u16(), response.text().await.unwrap())
}

async fn get(app: &TestApp, path: &str) -> (u16, String) {
    html(app.client.get(format!("{}{path}", app.address)).send().await.unwrap()).await
}

async fn post_form(app: &TestApp, path: &str, form: &[(String, String)]) -> (u16, String) {
    html(app.client.post(format!("{}{path}", app.address)).form(form).send().await.unwrap()).await
}

/// A two-page survey written in Swedish (a required choice, then a rating with end labels) thanking in its own
/// words, and an active EMAIL sendout in `language` with two respondents; returns the tree, the sendout's path and
/// both links.
async fn survey_in(app: &TestApp, language: &str) -> (Value, String, String, String) {
    let body = json!({"name": "Puls", "language": "sv", "thankYouMessage": "Tack, <b>Ann</b>!\nVi hörs.", "pages": [
        {"items": [{"type": "SingleChoice", "text": "Trivs du?", "required": true,
            "options": [{"value": "ja", "label": "Ja"}, {"value": "nej", "label": "Nej"}]}]},
        {"items": [{"type": "Rating", "text": "Skulle du rekommendera oss?", "required": true,
            "minLabel": "Inte alls troligt", "maxLabel": "Mycket troligt"}]}
    ]});
    let mut sendout = crate::helpers::email_sendout();
    sendout["language"] = json!(language);
    sendout.as_object_mut().unwrap().remove("expiryDate");
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let (survey, base, _, ann) = app.one_respondent_sendout(&app.key, body, sendout, person).await;
    let bo = json!({"contactDetails": "bo@example.com", "sendMail": false});
    let bo = app.post(&format!("{base}/respondents"), bo).await.expect(201);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let link = |respondent: &Value| respondent["surveyLink"].as_str().unwrap().replace(&app.address, "");
    (tree, base, link(&ann), link(&bo))
}

#[tokio::test]
async fn a_swedish_sendouts_pages_speak_swedish_from_the_first_page_to_the_thank_you() {
    let app = spawn_app().await;
    let (tree, base, link, other) = survey_in(&app, "sv").await;

    let (status, first) = get(&app, &link).await;
    assert_eq!(status, 200);
    for said in ["<html lang=\"sv\">", "Sida 1 av 2", "Trivs du? (obligatorisk)", ">Nästa<", "sida för sida"] {
        assert!(first.contains(said), "{said}: {first}");
    }
    assert!(!first.contains("Page 1") && !first.contains("(required)"), "no English word: {first}");

    let page = |index| ("page".to_owned(), page_id(&tree, index).to_string());
    let (status, refused) = post_form(&app, &link, &[page(0)]).await;
    assert_eq!(status, 400);
    assert!(refused.contains("Kontrollera svaren") && refused.contains("Besvara den här frågan."), "{refused}");

    let (_, second) = post_form(&app, &link, &[page(0), (format!("q{}", item_id(&tree, 0, 0)), "ja".into())]).await;
    assert!(second.contains("Sida 2 av 2") && second.contains(">Skicka<"), "{second}");
    let rating = format!("q{}", item_id(&tree, 1, 0));
    assert_eq!(second.matches(&format!("type=\"radio\" id=\"{rating}-")).count(), 11, "{second}");
    assert!(second.contains("0: Inte alls troligt") && second.contains("10: Mycket troligt"), "{second}");
    assert!(second.contains(&format!("aria-describedby=\"{rating}-ends\"")), "the end labels describe the scale");

    let (_, off_scale) = post_form(&app, &link, &[page(1), (rating.clone(), "11".into())]).await;
    assert!(off_scale.contains("Välj bland de alternativ som visas."), "{off_scale}");
    let (status, thanks) = post_form(&app, &link, &[page(1), (rating, "9".into())]).await;
    assert_eq!(status, 200);
    assert!(thanks.contains("Tack, &lt;b&gt;Ann&lt;/b&gt;!\nVi hörs."), "the survey's own words, escaped: {thanks}");
    assert!(!thanks.contains("Dina svar har sparats"), "they replace the service's thank-you");

    let (_, opt_out) = get(&app, &format!("{link}/opt-out")).await;
    assert!(opt_out.contains("lang=\"sv\"") && opt_out.contains("Avregistrera mig"), "{opt_out}");
    let (_, opted_out) = post_form(&app, &format!("{link}/opt-out"), &[]).await;
    assert!(opted_out.contains("Du är avregistrerad"), "{opted_out}");

    app.post(&format!("{base}/deactivate"), json!({})).await.expect(200);
    let (_, closed) = get(&app, &other).await;
    assert!(closed.contains("lang=\"sv\"") && closed.contains("Enkäten är stängd."), "{closed}");

    let (status, unknown) = get(&app, &format!("/r/1-{:040x}", 7)).await;
    assert_eq!(status, 404);
    assert!(unknown.contains("lang=\"en\"") && unknown.contains("This survey link is not valid"), "{unknown}");
}

#[tokio::test]
async fn without_a_thank_you_of_its_own_a_survey_thanks_in_the_service_words_of_the_language() {
    let app = spawn_app().await;
    let body = json!({"name": "Kurz", "pages": [{"items": [{"type": "Numeric", "text": "Wie viele?"}]}]});
    let mut sendout = crate::helpers::email_sendout();
    sendout["language"] = json!("de");
    sendout.as_object_mut().unwrap().remove("expiryDate");
    let person = json!({"contactDetails": "ann@example.com", "sendMail": false});
    let (survey, base, _, ann) = app.one_respondent_sendout(&app.key, body, sendout, person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let link = ann["surveyLink"].as_str().unwrap().replace(&app.address, "");
    let (page, item) = (("page".to_owned(), page_id(&tree, 0).to_string()), format!("q{}", item_id(&tree, 0, 0)));
    let (status, not_a_number) = post_form(&app, &link, &[page.clone(), (item.clone(), "viele".into())]).await;
    assert_eq!(status, 400);
    assert!(not_a_number.contains("Bitte geben Sie eine Zahl ein."), "{not_a_number}");
    let (_, thanks) = post_form(&app, &link, &[page, (item, "3".into())]).await;
    assert!(thanks.contains("lang=\"de\"") && thanks.contains("Vielen Dank! Ihre Antworten wurden gespeichert."));
}

#[tokio::test]
async fn a_login_page_and_its_refusals_speak_the_sendouts_language() {
    let app = spawn_app_with(|settings| settings.protection.login_failures.allowed = 1).await;
    let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let person = json!({"contactDetails": "employee-42", "sendMail": false});
    let login = json!({"name": "Login", "type": "LOGIN", "language": "fi"});
    let (_, base, sendout, _) = app.one_respondent_sendout(&app.key, survey, login, person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let page = format!("/login/{sendout}");

    let (_, form) = get(&app, &page).await;
    assert!(form.contains("lang=\"fi\"") && form.contains("Kirjaudu kyselyysi"), "{form}");
    let guess = |identifier: &str| vec![("identifier".to_owned(), identifier.to_owned())];
    let (status, unknown) = post_form(&app, &page, &guess("employee-7")).await;
    assert_eq!(status, 200);
    assert!(unknown.contains("Tällä tunnuksella ei löytynyt avointa kyselyä."), "{unknown}");
    post_form(&app, &page, &guess("employee-8")).await;
    let (status, refused) = post_form(&app, &page, &guess("employee-9")).await;
    assert_eq!(status, 429);
    assert!(refused.contains("lang=\"fi\"") && refused.contains("liian monta yritystä"), "{refused}");

    let (_, nowhere) = get(&app, "/login/999999").await;
    assert!(nowhere.contains("lang=\"en\"") && nowhere.contains("Log in to your survey"), "no such sendout: English");
}
