//! The respondent pages under any spelling of their paths: percent-encoded letters and re-spelled sendout ids meet
//! the same guard, budget of failed guesses and security headers as the canonical path, and guesses at login pages
//! of no sendout share one budget, whatever path they were made on.

use reqwest::{Client, Response};
use serde_json::json;

use crate::helpers::{spawn_app, TestApp};

/// Posts `identifier` to `page` (a path), with `origin` when given.
async fn post_login(client: &Client, app: &TestApp, page: &str, identifier: &str, origin: Option<&str>) -> Response {
    let mut request = client.post(format!("{}{page}", app.address)).form(&[("identifier", identifier)]);
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    request.send().await.expect("login post")
}

/// Fails `count` times with unknown identifiers on `page`, each answered 200 (the form again).
async fn fail_logins(client: &Client, app: &TestApp, page: &str, count: usize) {
    for guess in 0..count {
        let status = post_login(client, app, page, &format!("guess-{guess}"), None).await.status().as_u16();
        assert_eq!(status, 200, "guess {guess} on {page}");
    }
}

#[tokio::test]
async fn an_encoded_login_path_meets_the_guard_of_the_canonical_one() {
    let app = spawn_app().await;
    let sendout = app.active_login_sendout("employee-42").await;
    let client = TestApp::client_without_redirects();
    let encoded = format!("/%6cogin/{sendout}");
    let cross_site = post_login(&client, &app, &encoded, "employee-42", Some("https://evil.example")).await;
    assert_eq!(cross_site.status().as_u16(), 403, "the Origin check");
    fail_logins(&client, &app, &format!("/login/{sendout}"), 11).await;
    for page in [format!("/%6cogin/{sendout}"), format!("/%6C%6F%67%69%6E/{sendout}"), format!("/login/%3{}", sendout)]
    {
        let unknown = post_login(&client, &app, &page, "guess-99", None).await;
        assert_eq!(unknown.status().as_u16(), 429, "{page}");
        let known = post_login(&client, &app, &page, "employee-42", None).await;
        assert_eq!(known.status().as_u16(), 429, "a known identifier on {page}");
        assert!(known.headers().contains_key("retry-after"), "{page}");
    }
}

#[tokio::test]
async fn a_re_spelled_sendout_id_is_no_login_page_and_its_guesses_count_against_every_login_page() {
    let app = spawn_app().await;
    let sendout = app.active_login_sendout("employee-42").await;
    let client = TestApp::client_without_redirects();
    let spellings = [format!("0{sendout}"), format!("+{sendout}"), format!("%2B{sendout}"), format!("000{sendout}")];
    for spelling in &spellings {
        let known = post_login(&client, &app, &format!("/login/{spelling}"), "employee-42", None).await;
        assert_eq!(known.status().as_u16(), 404, "/login/{spelling} opens nothing, a known identifier neither");
    }
    for guess in 0..7 {
        let page = format!("/login/{}", spellings[guess % spellings.len()]);
        assert_eq!(post_login(&client, &app, &page, "guess", None).await.status().as_u16(), 404, "{page}");
    }
    // Eleven guesses at sendouts (four known identifiers and seven unknown ones, all on pages of no sendout).
    let refused = post_login(&client, &app, &format!("/login/0{sendout}"), "employee-42", None).await;
    assert_eq!(refused.status().as_u16(), 429);
    let canonical = post_login(&client, &app, &format!("/login/{sendout}"), "employee-42", None).await;
    assert_eq!(canonical.status().as_u16(), 429, "a client guessing at sendouts is refused on every login page");
}

#[tokio::test]
async fn guesses_on_long_unparsable_login_paths_share_one_budget() {
    let app = spawn_app().await;
    let client = TestApp::client_without_redirects();
    let mut statuses = Vec::new();
    for guess in 0..13 {
        let page = format!("/login/{guess}x{}", "y".repeat(8_000));
        statuses.push(post_login(&client, &app, &page, "someone", None).await.status().as_u16());
    }
    assert_eq!(&statuses[..11], [404; 11], "{statuses:?}");
    assert_eq!(&statuses[11..], [429; 2], "the twelfth guess at a login page: {statuses:?}");
}

#[tokio::test]
async fn encoded_survey_paths_meet_the_token_budget_and_carry_the_page_headers() {
    let app = spawn_app().await;
    let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
    let person = json!({"contactDetails": "a@example.com", "sendMail": true});
    let (_, base, _, respondent) =
        app.one_respondent_sendout(&app.key, survey, crate::helpers::email_sendout(), person).await;
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let link = respondent["surveyLink"].as_str().expect("surveyLink");
    let token = link.rsplit('/').next().expect("a token");
    let encoded = app.client.get(format!("{}/%72/{token}", app.address)).send().await.expect("open");
    assert_eq!(encoded.status().as_u16(), 200);
    let csp = encoded.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(csp.contains("default-src 'none'"), "the page's policy on /%72/: {csp:?}");
    assert_eq!(encoded.headers()["referrer-policy"], "same-origin");
    let mut statuses = Vec::new();
    for guess in 0..33 {
        let response = app.client.get(format!("{}/%72/{guess:040x}", app.address)).send().await.expect("guess");
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses.iter().position(|status| *status == 429), Some(31), "{statuses:?}");
    let canonical = app.client.get(format!("{}/r/{:040x}", app.address, 99)).send().await.expect("guess");
    assert_eq!(canonical.status().as_u16(), 429, "one budget for every spelling");
}
