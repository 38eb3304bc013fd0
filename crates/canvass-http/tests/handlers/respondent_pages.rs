//! The respondent pages over the in-memory store: a link opens its survey page by page, saves each page and
//! completes; an unknown link is a 404 page; opting out puts the contact on the blocklist; a LOGIN sendout's
//! identifier opens its respondent's link.

use actix_web::test::TestRequest;
use canvass_domain::distribution::RespondentStatus;
use serde_json::{json, Value};

use super::distribution::{add, at, email_sendout, survey};
use super::support::{Reply, TestApp};

/// The path of a respondent's link (`/r/<token>`).
fn link(respondent: &Value) -> String {
    let full = respondent["surveyLink"].as_str().unwrap_or_default();
    full.strip_prefix("https://canvass.test").unwrap_or(full).to_owned()
}

fn html(reply: &Reply) -> String {
    String::from_utf8_lossy(&reply.body).into_owned()
}

async fn get(app: &TestApp, path: &str) -> Reply {
    app.call(TestRequest::get().uri(path)).await
}

async fn post_form(app: &TestApp, path: &str, form: &[(String, String)]) -> Reply {
    app.call(TestRequest::post().uri(path).set_form(form)).await
}

/// The survey's pages and items, as `(pageId, questionItemId)` of each page.
async fn pages(app: &TestApp, survey: i64) -> Vec<(i64, i64)> {
    let tree = app.get(&format!("/surveys/{survey}/questions")).await.expect(200);
    let pages = tree["pages"].as_array().cloned().unwrap_or_default();
    pages
        .iter()
        .map(|page| (page["pageId"].as_i64().unwrap_or(0), page["items"][0]["questionItemId"].as_i64().unwrap_or(0)))
        .collect()
}

/// A survey of two pages with Ann invited through an active EMAIL sendout: `(survey, pages, Ann)`.
async fn invited(app: &TestApp) -> (i64, Vec<(i64, i64)>, Value) {
    let survey = survey(app).await;
    let sendout = email_sendout(app, survey).await;
    let ann = add(app, survey, sendout, "ann@example.com").await.expect(201);
    app.post(&format!("/surveys/{survey}/sendouts/{sendout}/activate"), &json!({})).await.expect(200);
    (survey, pages(app, survey).await, ann)
}

fn answer(page: i64, item: i64, value: &str) -> Vec<(String, String)> {
    vec![("page".into(), page.to_string()), (format!("q{item}"), value.into())]
}

#[actix_web::test]
async fn a_link_opens_its_survey_saves_each_page_and_completes() {
    let app = TestApp::new().await;
    let (survey, pages, ann) = invited(&app).await;
    let link = link(&ann);

    let first = get(&app, &link).await;
    assert_eq!(first.status.as_u16(), 200);
    assert!(html(&first).contains("Page 1 of 2") && html(&first).contains("How was the week?"), "{}", html(&first));

    let refused = post_form(&app, &link, &answer(pages[0].0, pages[0].1, "")).await;
    assert_eq!(refused.status.as_u16(), 400, "a required answer is missing");
    assert!(app.store.inspect(|memory| memory.answer_sets().is_empty()), "nothing is saved");

    let second = post_form(&app, &link, &answer(pages[0].0, pages[0].1, "Busy")).await;
    assert_eq!(second.status.as_u16(), 200);
    assert!(html(&second).contains("Page 2 of 2"), "{}", html(&second));
    assert!(html(&get(&app, &link).await).contains("Page 2 of 2"), "a returning respondent resumes there");

    let done = post_form(&app, &link, &answer(pages[1].0, pages[1].1, "38")).await;
    assert_eq!(done.status.as_u16(), 200);
    assert!(html(&done).contains("Thank you"), "{}", html(&done));
    let sets = app.store.inspect(|memory| memory.answer_sets());
    assert_eq!(sets.len(), 1);
    assert!(sets[0].completed);
    assert_eq!(sets[0].respondent_id.map(|id| id.get()), ann["respondentId"].as_i64());
    let answers = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert_eq!(answers[0]["completed"], true);
}

#[actix_web::test]
async fn an_unknown_or_another_accounts_token_is_a_404_page() {
    let app = TestApp::new().await;
    let (_, _, ann) = invited(&app).await;
    let token = link(&ann).trim_start_matches("/r/").to_owned();
    let forged = format!("/r/{}", token.replacen("1-", "2-", 1));
    for path in [forged.as_str(), "/r/1-0000000000000000000000000000000000000000", "/r/nothing"] {
        let reply = get(&app, path).await;
        assert_eq!(reply.status.as_u16(), 404, "{path}");
        assert!(reply.header("content-type").starts_with("text/html"), "{path}");
    }
}

#[actix_web::test]
async fn opting_out_through_a_link_puts_the_contact_on_the_blocklist() {
    let app = TestApp::new().await;
    let (_, _, ann) = invited(&app).await;
    let opt_out = format!("{}/opt-out", link(&ann));
    assert_eq!(get(&app, &opt_out).await.status.as_u16(), 200);
    assert!(app.store.inspect(|memory| memory.state.blocklist.is_empty()), "asking changes nothing");

    let done = post_form(&app, &opt_out, &[]).await;
    assert_eq!(done.status.as_u16(), 200);
    let listed = app.get("/accounts/blocklist").await.expect(200);
    assert_eq!(
        (listed[0]["contactDetails"].as_str(), listed[0]["type"].as_str()),
        (Some("ann@example.com"), Some("OptedOut"))
    );
    let status = app.store.inspect(|memory| memory.respondent_rows()[0].status);
    assert_eq!(status, RespondentStatus::Blocklisted, "a respondent not yet sent to is never sent to");
}

#[actix_web::test]
async fn a_login_identifier_opens_its_respondents_link_and_an_unknown_one_shows_the_form_again() {
    let app = TestApp::new().await;
    let survey = survey(&app).await;
    let body = json!({"name": "Kiosk", "type": "LOGIN", "expiryDate": at(time::Duration::days(30))});
    let sendout = app.post(&format!("/surveys/{survey}/sendouts"), &body).await.expect(201)["sendoutId"].clone();
    let base = format!("/surveys/{survey}/sendouts/{sendout}");
    let kim =
        app.post(&format!("{base}/respondents"), &json!({"contactDetails": "employee-7", "sendMail": false})).await;
    let kim = kim.expect(201);
    app.post(&format!("{base}/activate"), &json!({})).await.expect(200);

    let form = get(&app, &format!("/login/{sendout}")).await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(html(&form).contains("identifier"), "{}", html(&form));

    let identifier = |value: &str| vec![("identifier".to_owned(), value.to_owned())];
    let opened = post_form(&app, &format!("/login/{sendout}"), &identifier(" employee-7 ")).await;
    assert_eq!(opened.status.as_u16(), 303);
    assert_eq!(opened.header("location"), link(&kim));
    let unknown = post_form(&app, &format!("/login/{sendout}"), &identifier("EMPLOYEE-7")).await;
    assert_eq!(unknown.status.as_u16(), 200, "an identifier that is no address keeps its case");
    assert!(html(&unknown).contains("EMPLOYEE-7"), "the form shows what was typed");
    assert_eq!(unknown.header("location"), "");
}
