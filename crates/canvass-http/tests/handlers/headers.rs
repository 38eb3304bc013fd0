//! Headers every API answer carries: no caching, no sniffing, and where the key stands against its rate limit, and
//! the 429 a key over its limit gets.

use std::num::NonZeroU32;

use actix_web::http::Method;
use actix_web::test::TestRequest;
use canvass_http::problem::ProblemKind;
use canvass_http::Protection;
use serde_json::json;

use crate::support::{as_key, Reply, TestApp, API};

#[track_caller]
fn not_cached_nor_sniffed(reply: &Reply) {
    assert_eq!(reply.header("cache-control"), "no-store", "{}", reply.status);
    assert_eq!(reply.header("x-content-type-options"), "nosniff", "{}", reply.status);
}

#[actix_web::test]
async fn api_answers_are_neither_cached_nor_sniffed_errors_included() {
    let app = TestApp::new().await;
    let replies = [
        app.get("/surveys").await,
        app.post("/surveys", &json!({"name": "Pulse"})).await,
        app.post("/surveys", &json!({})).await,
        app.get("/surveys/987654").await,
        app.call(TestRequest::get().uri(&format!("{API}/surveys"))).await,
        app.call(app.api(Method::PUT, "/surveys")).await,
        app.call(TestRequest::get().uri("/health/ready")).await,
    ];
    let statuses: Vec<u16> = replies.iter().map(|reply| reply.status.as_u16()).collect();
    assert_eq!(statuses, [200, 201, 400, 404, 401, 405, 200]);
    replies.iter().for_each(not_cached_nor_sniffed);
    assert_eq!(replies[0].header("content-security-policy"), "", "the API is not a page");
}

#[actix_web::test]
async fn an_authenticated_answer_says_where_the_key_stands() {
    let app = TestApp::new().await;
    let reply = app.get("/surveys").await;
    reply.expect(200);
    // The default: 100 requests a second, bursts of 1,000.
    assert_eq!(reply.header("ratelimit-limit"), "1000");
    assert_eq!(reply.header("ratelimit-remaining"), "999");
    assert_eq!(reply.header("ratelimit-reset"), "1");
    assert_eq!(reply.header("retry-after"), "");
    // Errors of an authenticated request count and say so too; a refused key is not counted.
    let missing = app.get("/surveys/987654").await;
    assert_eq!(missing.header("ratelimit-limit"), "1000");
    let keyless = app.call(TestRequest::get().uri(&format!("{API}/surveys"))).await;
    assert_eq!(keyless.header("ratelimit-limit"), "");
}

#[actix_web::test]
async fn a_key_over_its_limit_answers_429_with_retry_after_and_other_keys_are_not_limited() {
    // One request a second: a burst of ten.
    let app =
        TestApp::with_protection(Protection { rate_limit_per_key: NonZeroU32::MIN, ..Protection::default() }).await;
    let first = app.get("/surveys").await;
    first.expect(200);
    assert_eq!((first.header("ratelimit-limit"), first.header("ratelimit-remaining")), ("10", "9"));
    let mut refused = None;
    for _ in 0..15 {
        let reply = app.get("/surveys").await;
        if reply.status == 429 {
            refused = Some(reply);
            break;
        }
        reply.expect(200);
    }
    let refused = refused.expect("the burst of ten ran out");
    let problem = refused.problem(ProblemKind::RateLimited);
    assert!(problem["detail"].as_str().unwrap().contains("10 requests"), "{problem}");
    let retry_after: u64 = refused.header("retry-after").parse().unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert_eq!(refused.header("ratelimit-remaining"), "0");
    assert_eq!(refused.header("ratelimit-limit"), "10");
    not_cached_nor_sniffed(&refused);

    let other_key = app.other_account("Other", "owner@other.example");
    let other = app.call(as_key(&other_key, Method::GET, "/surveys")).await;
    other.expect(200);
    assert_eq!(other.header("ratelimit-remaining"), "9", "the other key has a burst of its own");
}
