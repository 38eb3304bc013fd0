//! Rate limits: per API key (429 problem+json with Retry-After and RateLimit headers), and per client address on
//! the respondent pages for unknown login identifiers and unknown link tokens.

use std::num::NonZeroU32;
use std::time::Duration;

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

#[tokio::test]
async fn a_key_over_its_limit_answers_429_and_another_accounts_key_is_not_limited() {
    let app = spawn_app_with(|settings| settings.protection.rate_limit_per_key = NonZeroU32::MIN).await;
    let (_, other_key) = app.new_account("Other", "other@example.com");
    let first = app.get("/surveys").await;
    assert_eq!(first.status.as_u16(), 200);
    assert_eq!(first.headers["ratelimit-limit"], "10");
    assert_eq!(first.headers["ratelimit-remaining"], "9");
    assert!(first.headers.contains_key("ratelimit-reset"));
    let mut refused = None;
    for _ in 0..15 {
        let reply = app.get("/surveys").await;
        if reply.status.as_u16() == 429 {
            refused = Some(reply);
            break;
        }
    }
    let refused = refused.expect("the burst of 10 ran out");
    let retry_after: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert_eq!(refused.headers["ratelimit-remaining"], "0");
    assert_eq!(refused.headers["cache-control"], "no-store");
    refused.problem(429, "/problems/rate-limited");
    let other = app.call_as(&other_key, "GET", "/surveys", None).await;
    assert_eq!(other.headers["ratelimit-remaining"], "9", "the other key has its own burst");
    other.expect(200);
    tokio::time::sleep(Duration::from_secs(retry_after)).await;
    app.get("/surveys").await.expect(200);
}

#[tokio::test]
async fn eleven_unknown_login_identifiers_then_429_on_that_sendout_only() {
    let app = spawn_app().await;
    let sendout = app.active_login_sendout("employee-42").await;
    let client = TestApp::client_without_redirects();
    let login = |page: String, identifier: String| {
        let client = client.clone();
        let url = format!("{}{page}", app.address);
        async move { client.post(url).form(&[("identifier", identifier)]).send().await.unwrap() }
    };
    let page = format!("/login/{sendout}");
    for guess in 0..11 {
        let response = login(page.clone(), format!("guess-{guess}")).await;
        assert_eq!(response.status().as_u16(), 200, "guess {guess}");
    }
    for identifier in ["guess-12", "employee-42"] {
        let response = login(page.clone(), identifier.to_owned()).await;
        assert_eq!(response.status().as_u16(), 429, "{identifier}");
        let retry_after: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!(retry_after > 500 && retry_after <= 600, "{retry_after}");
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    }
    let elsewhere = login(format!("/login/{}", sendout + 1000), "x".to_owned()).await;
    assert_eq!(elsewhere.status().as_u16(), 200, "another sendout's login page is not blocked");
}

#[tokio::test]
async fn thirty_one_unknown_tokens_then_429_until_the_window_passes() {
    let app = spawn_app_with(|settings| {
        settings.protection.token_failures.window = Duration::from_secs(3);
    })
    .await;
    let open = |token: String| {
        let url = format!("{}/r/{token}", app.address);
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap() }
    };
    for guess in 0..31 {
        let response = open(format!("{guess:040x}")).await;
        assert_eq!(response.status().as_u16(), 404, "guess {guess}");
    }
    let blocked = open(format!("{:040x}", 99)).await;
    assert_eq!(blocked.status().as_u16(), 429);
    assert!(blocked.headers().contains_key("retry-after"));
    tokio::time::sleep(Duration::from_millis(3100)).await;
    assert_eq!(open(format!("{:040x}", 100)).await.status().as_u16(), 404, "the window passed");
}
