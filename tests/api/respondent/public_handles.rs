//! Public handles that carry their account (docs/scaling.md, "Public handles"): a survey link names its account
//! before its random part and is found within that account only; a login page finds its sendout's account from the
//! map of LOGIN sendouts, copies included. That links of the old form (40 hex digits, sent before) still open needs
//! one planted with SQL: `system/planted_rows.rs`.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp};

/// An active LOGIN sendout of Acme with one respondent (`employee-7`); returns its base path, its id and the
/// respondent.
pub(crate) async fn active_login(app: &TestApp) -> (String, i64, Value) {
    let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let person = json!({"contactDetails": "employee-7", "sendMail": false});
    let login = json!({"name": "Login", "type": "LOGIN"});
    let (_, base, sendout, respondent) = app.one_respondent_sendout(&app.key, survey, login, person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    (base, sendout, respondent)
}

/// The status and body of `GET {path}`.
pub(crate) async fn open(app: &TestApp, path: &str) -> (u16, String) {
    let response = app.client.get(format!("{}{path}", app.address)).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// The `Location` a login with `identifier` on `/login/{sendout}` redirects to (`None`: no redirect).
pub(crate) async fn login(app: &TestApp, sendout: &Value, identifier: &str) -> Option<String> {
    let url = format!("{}/login/{sendout}", app.address);
    let response = TestApp::client_without_redirects().post(url).form(&[("identifier", identifier)]).send().await;
    let response = response.unwrap();
    (response.status().as_u16() == 303).then(|| response.headers()["location"].to_str().unwrap().to_owned())
}

pub(crate) fn token_of(respondent: &Value) -> String {
    respondent["surveyLink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned()
}

#[tokio::test]
async fn a_token_under_another_accounts_id_finds_nothing_and_counts_as_unknown() {
    let app = spawn_app().await;
    let (other, _) = app.new_account("Other", "owner@other.example");
    let (_, _, respondent) = active_login(&app).await;
    let token = token_of(&respondent);
    let random = token.split_once('-').unwrap().1;
    assert_eq!(open(&app, &format!("/r/{other}-{random}")).await.0, 404, "another account's id");
    assert_eq!(open(&app, &format!("/r/{random}")).await.0, 404, "the random part alone, as an old token");
    assert_eq!(open(&app, &format!("/r/0{token}")).await.0, 404, "a leading zero");
    assert_eq!(open(&app, &format!("/r/{token}")).await.0, 200, "the link itself");
    // Forged prefixes are unknown tokens like any other: more than 30 within a minute, and the address waits.
    for guess in 1..=28 {
        assert_eq!(open(&app, &format!("/r/{}-{random}", other + guess)).await.0, 404, "guess {guess}");
    }
    let (status, _) = open(&app, &format!("/r/{}-{random}", other + 99)).await;
    assert_eq!(status, 429, "after 31 unknown tokens the next is refused");
}

#[tokio::test]
async fn a_copied_login_sendouts_page_finds_its_respondents_in_its_account() {
    let app = spawn_app().await;
    let (base, sendout, _) = active_login(&app).await;
    let survey = base.split('/').nth(2).unwrap();
    let copy = app.get(&format!("/surveys/{survey}/copy?copysendoutids={sendout}")).await.expect(200);
    let copy_id = copy["surveyId"].as_i64().unwrap();
    let copied = app.get(&format!("/surveys/{copy_id}/sendouts")).await.expect(200)[0]["sendoutId"].clone();
    assert_ne!(copied, json!(sendout));
    assert_eq!(login(&app, &copied, "employee-7").await, None, "the copy is a Draft: nothing opens yet");
    app.post(&format!("/surveys/{copy_id}/sendouts/{copied}/activate"), json!({})).await.expect(200);
    let location = login(&app, &copied, "employee-7").await.expect("the copy's login page opens its link");
    assert!(location.starts_with(&format!("/r/{}-", app.account_id)), "{location}");
    let (status, page) = open(&app, &location).await;
    assert!(status == 200 && page.contains("Why?"), "{status}");
    let original = login(&app, &json!(sendout), "employee-7").await.expect("the original still opens");
    assert_ne!(original, location, "each sendout its own link");
}
