//! Accessibility in a real browser (headless Chromium through chromedriver): every kind of page a respondent meets
//! (an open link's start and closed pages among them),
//! in every language a sendout can speak, has no WCAG 2.1 A or AA violation as axe-core reports it, declares its
//! language in `<html lang>`, and does not overflow a 390 px wide phone; the rating's eleven choices stand in one
//! row on a desktop. axe-core is the npm package pinned in `tests/browser` (`npm ci` there), injected into each page
//! by WebDriver. Skipped, saying so, where chromedriver or axe-core is not installed, except in CI (`CI` set).
//! A Swedish survey with a partial English translation is walked in English, its untranslated texts marked
//! `lang="sv"`, and through its link to Svenska.
//! Screenshots of the rating page (English and Swedish, desktop and phone) go to `target/screenshots/`, or with
//! `UPDATE_SCREENSHOTS` set to `docs/respondent-pages/`.
//! A system test because it drives a browser.

mod audit;

use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::{json, Value};

use self::audit::{axe_source, Audit, Width};
use super::chromium::{chromedriver, skip};
use crate::helpers::{item_id, spawn_app, TestApp};

/// The languages whose pages are checked: every language a sendout takes.
const LANGUAGES: &[&str] = &["en", "sv", "da", "nb", "fi", "de", "fr", "es", "nl", "pl", "it", "pt"];

/// The languages whose rating page is kept as a screenshot.
const SCREENSHOT_LANGUAGES: [&str; 2] = ["en", "sv"];

/// The survey's own words: Swedish for the Swedish sendout (the screenshots show a Swedish survey as a Swedish
/// respondent meets it), English for the others.
struct Texts {
    language: &'static str,
    name: &'static str,
    thanks: &'static str,
    strings: [&'static str; 29],
}

const ENGLISH: Texts = Texts {
    language: "en",
    name: "Team pulse",
    thanks: "Thank you: the team reads every answer.",
    strings: [
        "Your week",
        "A few questions about your week. It takes two minutes.",
        "Did you reach your goals?",
        "Yes",
        "No",
        "What helped?",
        "The team",
        "The tools",
        "How likely are you to recommend us to a friend?",
        "Not at all likely",
        "Extremely likely",
        "Last words",
        "Hours worked this week?",
        "Anything else?",
        "Your work",
        "Which office?",
        "Oslo",
        "Stockholm",
        "When did you start?",
        "How much do you agree?",
        "My work matters",
        "I have what I need",
        "Disagree",
        "Neutral",
        "Agree",
        "Rank what matters most to you",
        "Pay",
        "Colleagues",
        "Flexibility",
    ],
};

const SWEDISH: Texts = Texts {
    language: "sv",
    name: "Veckopuls",
    thanks: "Tack! Teamet läser varje svar.",
    strings: [
        "Din vecka",
        "Några frågor om din vecka. Det tar två minuter.",
        "Nådde du dina mål?",
        "Ja",
        "Nej",
        "Vad hjälpte dig?",
        "Teamet",
        "Verktygen",
        "Hur troligt är det att du skulle rekommendera oss till en vän?",
        "Inte alls troligt",
        "Mycket troligt",
        "Sista orden",
        "Hur många timmar arbetade du den här veckan?",
        "Något mer du vill säga?",
        "Ditt arbete",
        "Vilket kontor?",
        "Oslo",
        "Stockholm",
        "När började du?",
        "Hur väl stämmer det?",
        "Mitt arbete är viktigt",
        "Jag har det jag behöver",
        "Instämmer inte",
        "Neutral",
        "Instämmer",
        "Rangordna det som betyder mest för dig",
        "Lön",
        "Kollegor",
        "Flexibilitet",
    ],
};

/// A survey with every item type over three pages: the first (single and multiple choice, a labelled rating, an
/// info text, all required), the second (a dropdown, a date, a matrix and a ranking, all required) and the last
/// (numeric, open text), thanking in its own words.
fn survey_body(texts: &Texts) -> Value {
    let t = texts.strings;
    json!({
        "name": texts.name,
        "language": texts.language,
        "thankYouMessage": texts.thanks,
        "pages": [
            {"title": t[0], "items": [
                {"type": "Info", "text": t[1]},
                {"type": "SingleChoice", "text": t[2], "required": true,
                 "options": [{"value": "yes", "label": t[3]}, {"value": "no", "label": t[4]}]},
                {"type": "MultipleChoice", "text": t[5], "required": true,
                 "options": [{"value": "team", "label": t[6]}, {"value": "tools", "label": t[7]}]},
                {"type": "Rating", "text": t[8], "required": true, "minLabel": t[9], "maxLabel": t[10]}
            ]},
            {"title": t[14], "items": [
                {"type": "Dropdown", "text": t[15], "required": true,
                 "options": [{"value": "osl", "label": t[16]}, {"value": "sto", "label": t[17]}]},
                {"type": "Date", "text": t[18], "required": true, "minDate": "2000-01-01"},
                {"type": "Matrix", "text": t[19], "required": true,
                 "rows": [{"value": "matters", "label": t[20]}, {"value": "tools", "label": t[21]}],
                 "options": [{"value": "1", "label": t[22]}, {"value": "2", "label": t[23]}, {"value": "3", "label": t[24]}]},
                {"type": "Ranking", "text": t[25], "required": true,
                 "options": [{"value": "pay", "label": t[26]}, {"value": "people", "label": t[27]}, {"value": "flex", "label": t[28]}]}
            ]},
            {"title": t[11], "items": [
                {"type": "Numeric", "text": t[12], "required": true},
                {"type": "OpenText", "text": t[13]}
            ]}
        ]
    })
}

/// The form fields of the survey's items, `q<itemId>`.
struct Fields {
    single: String,
    multiple: String,
    rating: String,
    dropdown: String,
    date: String,
    matrix: String,
    ranking: String,
    numeric: String,
    open: String,
}

/// A survey of [`survey_body`] with its fields.
struct Survey {
    id: i64,
    fields: Fields,
    thanks: &'static str,
}

async fn survey(app: &TestApp, texts: &Texts) -> Survey {
    let id = app.post("/surveys", survey_body(texts)).await.expect(201)["surveyId"].as_i64().unwrap();
    let tree = app.get(&format!("/surveys/{id}/questions")).await.expect(200);
    let field = |page, index| format!("q{}", item_id(&tree, page, index));
    let fields = Fields {
        single: field(0, 1),
        multiple: field(0, 2),
        rating: field(0, 3),
        dropdown: field(1, 0),
        date: field(1, 1),
        matrix: field(1, 2),
        ranking: field(1, 3),
        numeric: field(2, 0),
        open: field(2, 1),
    };
    Survey { id, fields, thanks: texts.thanks }
}

/// A LOGIN sendout in one language, with its respondents `desktop-<lang>`, `phone-<lang>` (who walk the pages at
/// those widths) and `closed-<lang>` (whose link opens after the sendout is deactivated); and the open links of two
/// LINK sendouts in that language, an Active one (its start page) and a Draft one (its closed page).
struct Sendout {
    lang: &'static str,
    id: i64,
    base: String,
    closed_link: String,
    open_link: String,
    closed_open_link: String,
}

async fn sendout(app: &TestApp, survey: i64, lang: &'static str) -> Sendout {
    let body = json!({"name": format!("Staff ({lang})"), "type": "LOGIN", "language": lang});
    let id = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201)["sendoutId"].as_i64().unwrap();
    let base = format!("/surveys/{survey}/sendouts/{id}");
    for who in ["desktop", "phone", "closed"] {
        let person = json!({"contactDetails": format!("{who}-{lang}"), "sendMail": false});
        app.post(&format!("{base}/respondents"), person).await.expect(201);
    }
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let login = TestApp::client_without_redirects()
        .post(format!("{}/login/{id}", app.address))
        .form(&[("identifier", format!("closed-{lang}"))])
        .send()
        .await
        .unwrap();
    assert_eq!(login.status().as_u16(), 303, "a login identifier of an active LOGIN sendout opens its survey");
    let location = login.headers()["location"].to_str().unwrap();
    assert!(location.starts_with("/r/"), "{location}");
    let link = |active: bool| async move {
        let body = json!({"name": format!("Poster ({lang})"), "type": "LINK", "language": lang});
        let created = app.post(&format!("/surveys/{survey}/sendouts"), body).await.expect(201);
        if active {
            app.post(&format!("/surveys/{survey}/sendouts/{}/activate", created["sendoutId"]), json!({}))
                .await
                .expect(200);
        }
        created["openLink"].as_str().unwrap().to_owned()
    };
    let (open_link, closed_open_link) = (link(true).await, link(false).await);
    Sendout { lang, id, base, closed_link: format!("{}{location}", app.address), open_link, closed_open_link }
}

/// Clicks the form's (last) submit button and waits for the page it leads to; with `unchecked`, the browser's own
/// checks of required fields are off first, so the server's answer to an empty form shows.
async fn submit(audit: &Audit, unchecked: bool) {
    let leave = "document.documentElement.dataset.left = 'yes'; if (arguments[0]) document.forms[0].noValidate = true;";
    audit.client.execute(leave, vec![json!(unchecked)]).await.unwrap();
    let buttons = audit.client.find_all(Locator::Css("form [type='submit']")).await.unwrap();
    buttons.last().expect("a submit button").click().await.unwrap();
    let next = audit.client.wait().at_most(Duration::from_secs(30)).every(Duration::from_millis(20));
    next.for_element(Locator::Css("html:not([data-left])")).await.expect("the form leads to another page");
}

async fn click(audit: &Audit, css: &str) {
    audit.client.find(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

async fn type_into(audit: &Audit, css: &str, text: &str) {
    let field = audit.client.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// One respondent (`<width>-<lang>`) through every page kind of an open sendout at the audit's width: the login
/// form, a wrong login, the first page, it again with errors, the last page, the thank-you page, the opt-out
/// confirmation and the opted-out page.
async fn walk(audit: &mut Audit, app: &TestApp, sendout: &Sendout, survey: &Survey, who: &str) {
    let (lang, fields) = (sendout.lang, &survey.fields);
    audit.client.goto(&format!("{}/login/{}", app.address, sendout.id)).await.unwrap();
    audit.page("login form", lang).await;
    type_into(audit, "input[name='identifier']", &format!("nobody-{lang}")).await;
    submit(audit, false).await;
    audit.page("login form after an unknown identifier", lang).await;
    type_into(audit, "input[name='identifier']", &format!("{who}-{lang}")).await;
    submit(audit, false).await;
    let link = audit.client.current_url().await.unwrap().to_string();
    assert!(link.starts_with(&format!("{}/r/", app.address)), "the login opened {link}");
    audit.page("question page", lang).await;
    audit.rating_row(&fields.rating, lang).await;
    if SCREENSHOT_LANGUAGES.contains(&lang) {
        audit.screenshot(lang).await;
    }
    submit(audit, true).await;
    audit.page("question page with errors", lang).await;
    click(audit, &format!("input[name='{}'][value='yes']", fields.single)).await;
    click(audit, &format!("input[name='{}'][value='team']", fields.multiple)).await;
    click(audit, &format!("input[name='{}'][value='8']", fields.rating)).await;
    submit(audit, false).await;
    richer_page(audit, fields, lang).await;
    audit.page("last page", lang).await;
    type_into(audit, &format!("input[name='{}']", fields.numeric), "37.5").await;
    type_into(audit, &format!("textarea[name='{}']", fields.open), "A good week").await;
    submit(audit, false).await;
    audit.page("thank-you page", lang).await;
    let thanks = audit.client.find(Locator::Css("main p")).await.unwrap().text().await.unwrap();
    assert_eq!(thanks, survey.thanks, "the survey's own thank-you replaces the service's");
    audit.client.goto(&format!("{link}/opt-out")).await.unwrap();
    audit.page("opt-out confirmation", lang).await;
    submit(audit, false).await;
    audit.page("opted-out page", lang).await;
}

/// The page of a dropdown, a date, a matrix (a table on a desktop, a fieldset per row on a phone) and a ranking:
/// checked as it opens and with its errors, kept as a screenshot in English, then answered.
async fn richer_page(audit: &mut Audit, fields: &Fields, lang: &str) {
    audit.page("dropdown, date, matrix and ranking page", lang).await;
    if lang == "en" {
        audit.screenshot("matrix-ranking-en").await;
    }
    submit(audit, true).await;
    audit.page("dropdown, date, matrix and ranking page with errors", lang).await;
    click(audit, &format!("select[name='{}'] option[value='sto']", fields.dropdown)).await;
    let set_date = "document.querySelector(arguments[0]).value = '2024-03-01';";
    audit.client.execute(set_date, vec![json!(format!("input[name='{}']", fields.date))]).await.unwrap();
    // The phone's fieldsets hold the radio buttons it shows; their ids end in `-p`.
    let shown = if audit.width() == Width::Desktop { ":not([id$='-p'])" } else { "[id$='-p']" };
    for (row, value) in [(0, "3"), (1, "2")] {
        click(audit, &format!("input[name='{}-{row}'][value='{value}']{shown}", fields.matrix)).await;
    }
    for (option, place) in [(0, "2"), (1, "3"), (2, "1")] {
        click(audit, &format!("select[name='{}-{option}'] option[value='{place}']", fields.ranking)).await;
    }
    submit(audit, false).await;
}

/// The English texts of the Swedish survey's first page and name, none of the rest: a translation with texts missing.
async fn translate_in_part(app: &TestApp, survey: &Survey) {
    let tree = app.get(&format!("/surveys/{}/questions", survey.id)).await.expect(200);
    let (page, item) = (crate::helpers::page_id(&tree, 0), |index| item_id(&tree, 0, index).to_string());
    let english = json!({"name": "Weekly pulse", "pages": {page.to_string(): {"title": "Your week"}}, "items": {
        item(0): {"text": "A few questions about your week."},
        item(1): {"text": "Did you reach your goals?", "options": {"yes": "Yes", "no": "No"}}}});
    app.call("PUT", &format!("/surveys/{}/translations/en", survey.id), Some(english)).await.expect(200);
}

/// A respondent of the Swedish survey who reads English: its page in English where the survey has it and in
/// Swedish (marked so) where not, with the link to Svenska, kept as a screenshot on a desktop; then that link.
async fn in_two_languages(audit: &mut Audit, app: &TestApp, survey: &Survey, who: &str) {
    let body = json!({"name": format!("Staff ({who})"), "type": "LOGIN"});
    let created = app.post(&format!("/surveys/{}/sendouts", survey.id), body).await.expect(201);
    let base = format!("/surveys/{}/sendouts/{}", survey.id, created["sendoutId"]);
    let person = json!({"contactDetails": format!("bilingual-{who}"), "sendMail": false, "language": "en"});
    let link = app.post(&format!("{base}/respondents"), person).await.expect(201)["surveyLink"].clone();
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    audit.client.goto(link.as_str().unwrap()).await.unwrap();
    audit.page("question page of a translation with texts missing", "en").await;
    let marked = audit.client.find_all(Locator::Css("fieldset [lang='sv']")).await.unwrap();
    assert!(!marked.is_empty(), "the texts with no English translation are marked as Swedish");
    if audit.width() == Width::Desktop {
        audit.screenshot("language-links-en").await;
    }
    click(audit, "a[hreflang='sv']").await;
    audit.page("question page in the language picked", "sv").await;
}

/// Deactivates the sendout and checks the closed page its third respondent's link now shows; at desktop width the
/// sendout is activated again, for the phone walk.
async fn closed(audit: &mut Audit, app: &TestApp, sendout: &Sendout) {
    app.post(&format!("{}/deactivate", sendout.base), json!({})).await.expect(200);
    audit.client.goto(&sendout.closed_link).await.unwrap();
    audit.page("closed page", sendout.lang).await;
    if audit.width() == Width::Desktop {
        app.post(&format!("{}/activate", sendout.base), json!({})).await.expect(200);
    }
}

#[tokio::test]
async fn every_respondent_page_in_every_language_passes_axe_and_fits_a_phone() {
    let Some(axe) = axe_source() else {
        return skip("accessibility test", "axe-core", "npm ci in tests/browser");
    };
    let Some(driver) = chromedriver("accessibility test") else { return };
    let started = Instant::now();
    let app = spawn_app().await;
    let (english, swedish) = (survey(&app, &ENGLISH).await, survey(&app, &SWEDISH).await);
    let survey_of = |lang: &str| if lang == "sv" { &swedish } else { &english };
    let mut sendouts = Vec::new();
    for lang in LANGUAGES {
        sendouts.push(sendout(&app, survey_of(lang).id, lang).await);
    }
    translate_in_part(&app, &swedish).await;
    let unknown_link = format!("{}/r/{:040x}", app.address, started.elapsed().as_nanos() ^ 0x5eed_cafe_f00d);

    let mut audit = Audit::start(&driver, axe).await;
    for (width, who) in [(Width::Desktop, "desktop"), (Width::Phone, "phone")] {
        audit.resize(width).await;
        for sendout in &sendouts {
            walk(&mut audit, &app, sendout, survey_of(sendout.lang), who).await;
            closed(&mut audit, &app, sendout).await;
            audit.client.goto(&sendout.open_link).await.unwrap();
            audit.page("open link start page", sendout.lang).await;
            if sendout.lang == "en" {
                audit.screenshot("open-link-en").await;
            }
            audit.client.goto(&sendout.closed_open_link).await.unwrap();
            audit.page("open link closed page", sendout.lang).await;
        }
        in_two_languages(&mut audit, &app, &swedish, who).await;
        audit.client.goto(&unknown_link).await.unwrap();
        audit.page("unknown link", "en").await;
    }
    let Audit { client, findings, pages, .. } = audit;
    client.close().await.unwrap();
    eprintln!("accessibility: {pages} pages checked in {:.1} s", started.elapsed().as_secs_f64());
    assert!(findings.is_empty(), "{} problems on the respondent pages:\n{}", findings.len(), findings.join("\n"));
}

/// Records a completed answer set to every item of the survey (`n` varies the answers).
async fn answer_every_item(app: &TestApp, survey: i64, n: i64) {
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let id = |page, index| item_id(&tree, page, index);
    let yes = if n % 3 == 0 { "no" } else { "yes" };
    let answers = json!([
        {"questionItemId": id(0, 1), "value": yes},
        {"questionItemId": id(0, 2), "value": if n % 2 == 0 { json!(["team"]) } else { json!(["team", "tools"]) }},
        {"questionItemId": id(0, 3), "value": n % 11},
        {"questionItemId": id(1, 0), "value": if n % 2 == 0 { "osl" } else { "sto" }},
        {"questionItemId": id(1, 1), "value": format!("20{:02}-03-01", 10 + n)},
        {"questionItemId": id(1, 2), "value": {"matters": "3", "tools": if n % 2 == 0 { "2" } else { "1" }}},
        {"questionItemId": id(1, 3), "value": ["people", "flex", "pay"]},
        {"questionItemId": id(2, 0), "value": 30 + 3 * n},
        {"questionItemId": id(2, 1), "value": format!("Answer {n}: more quiet rooms & <better> coffee")}
    ]);
    let set = json!({"completed": true, "answers": answers});
    app.post(&format!("/surveys/{survey}/answers"), set).await.expect(201);
}

/// The survey's report, as an analyst opens it, has no WCAG 2.1 A or AA violation and fits a phone's width, with
/// a breakdown's tables too. The report needs a key, so the browser is given the document the API answered.
#[tokio::test]
async fn the_html_report_passes_axe_and_fits_a_phone() {
    let Some(axe) = axe_source() else {
        return skip("report accessibility test", "axe-core", "npm ci in tests/browser");
    };
    let Some(driver) = chromedriver("report accessibility test") else { return };
    let app = spawn_app().await;
    let english = survey(&app, &ENGLISH).await;
    sendout(&app, english.id, "en").await;
    for n in 0..8 {
        answer_every_item(&app, english.id, n).await;
    }
    let mut documents = Vec::new();
    let single = english.fields.single.trim_start_matches('q').to_owned();
    for query in [String::new(), format!("?breakdownBy={single}&minGroupSize=3")] {
        let url = format!("{}/api/v1/surveys/{}/report{query}", app.address, english.id);
        let response = app.client.get(url).header("X-API-KEY", &app.key).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        documents.push(response.text().await.unwrap());
    }
    let mut audit = Audit::start(&driver, axe).await;
    for (width, _) in [(Width::Desktop, "desktop"), (Width::Phone, "phone")] {
        audit.resize(width).await;
        for document in &documents {
            let encoded = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, document);
            audit.client.goto(&format!("data:text/html;base64,{encoded}")).await.unwrap();
            audit.page("report", "en").await;
        }
    }
    let Audit { client, findings, .. } = audit;
    client.close().await.unwrap();
    assert!(findings.is_empty(), "{} problems on the report:\n{}", findings.len(), findings.join("\n"));
}
