//! Authentication: the two headers, unknown and revoked keys.

use crate::helpers::{spawn_app, spawn_app_with};

#[tokio::test]
async fn requests_without_a_valid_key_answer_401_with_a_challenge() {
    let app = spawn_app().await;
    for key in ["", "cvs_0000000000000000000000000000000000000000000000000000000000000000", "garbage"] {
        let reply = app.call_as(key, "GET", "/surveys", None).await;
        assert_eq!(reply.headers.get("www-authenticate").unwrap(), "Bearer");
        reply.problem(401, "/unauthorized");
    }
    let response = app.client.get(format!("{}/api/v1/surveys", app.address)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 401);
}

#[tokio::test]
async fn a_bearer_key_works_like_x_api_key() {
    let app = spawn_app().await;
    let response =
        app.client.get(format!("{}/api/v1.2/surveys", app.address)).bearer_auth(&app.key).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
}

#[tokio::test]
async fn a_revoked_key_stops_working_within_seconds() {
    // The key cache trusts a checked key for its time to live (5 s by default); a short one keeps the test quick.
    let app =
        spawn_app_with(|settings| settings.protection.key_cache_ttl = std::time::Duration::from_millis(200)).await;
    app.get("/surveys").await.expect(200);
    app.revoke_key(&app.key[..16]);
    let started = std::time::Instant::now();
    loop {
        let status = app.get("/surveys").await.status.as_u16();
        if status == 401 {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "revoked key still accepted");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}
