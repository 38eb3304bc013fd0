//! Protection: the key before the body, bodies that must be objects, secrets before bodies, slow bodies cut off.
//! Connection loss and statement timeouts, which need the database taken away, are in `system/outages.rs`.

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{spawn_app, spawn_app_with, unknown_key, TestApp, DSN_SECRET};

#[tokio::test]
async fn a_wrong_key_answers_401_whatever_the_body() {
    let app = spawn_app().await;
    let bodies: [(Option<&str>, &[u8]); 4] = [
        (Some("text/plain"), b"hello"),
        (Some("application/json"), b"{not json"),
        (Some("application/json"), b"[\"Positional\"]"),
        (None, &[b'x'; 2 * 1024 * 1024]),
    ];
    for key in ["", "garbage", &unknown_key()] {
        for (content_type, body) in &bodies {
            let mut request = app
                .client
                .post(format!("{}/api/v1/accounts/categories", app.address))
                .header("X-API-KEY", key)
                .body(body.to_vec());
            if let Some(content_type) = content_type {
                request = request.header("content-type", *content_type);
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status().as_u16(), 401, "key {key:?}, body {content_type:?}");
            assert_eq!(response.headers()["content-type"], "application/problem+json");
        }
    }
}

#[tokio::test]
async fn bodies_that_must_be_objects_refuse_arrays_and_scalars() {
    let app = spawn_app().await;
    let (survey, _) = app.sample_survey().await;
    let cases = [
        ("POST", "/accounts/categories".to_owned(), json!(["Positional"])),
        ("POST", format!("/surveys/{survey}/answers"), json!([])),
        ("POST", "/data-retention/account".to_owned(), json!([7, 9, true])),
        ("POST", "/accounts/categories".to_owned(), json!("Scalar")),
        ("POST", "/surveys".to_owned(), json!(42)),
    ];
    for (method, path, body) in cases {
        let reply = app.call(method, &path, Some(body.clone())).await;
        assert_eq!(reply.fields(), ["body"], "{method} {path} {body}");
        reply.problem(400, "/problems/validation");
    }
    let categories = app.get("/accounts/categories").await.expect(200);
    assert!(!categories.to_string().contains("Positional"), "{categories}");
    let answers = app.get(&format!("/surveys/{survey}/answers")).await.expect(200);
    assert!(!answers.to_string().contains("answerSetId"), "{answers}");
    let policy = app.get("/data-retention/account").await.expect(200);
    assert!(!policy.to_string().contains(":7") && !policy.to_string().contains(":9"), "{policy}");
    // A body that is an array by design still is one.
    app.put(&format!("/surveys/{survey}/logic"), json!([])).await.expect(200);
}

#[tokio::test]
async fn shared_secrets_are_checked_before_the_body() {
    let app = spawn_app().await;
    for (path, header) in [("/sms/inbound", "x-canvass-sms-secret"), ("/inbound/dsn", "x-canvass-inbound-secret")] {
        for body in [&b"{not json"[..], b"[1,2]", b"plain"] {
            let response = app
                .client
                .post(format!("{}{path}", app.address))
                .header(header, "wrong")
                .header("content-type", "text/plain")
                .body(body.to_vec())
                .send()
                .await
                .unwrap();
            assert_eq!(response.status().as_u16(), 401, "{path}");
        }
    }
    // With the secret, the body is read and judged.
    let response = app
        .client
        .post(format!("{}/sms/inbound", app.address))
        .header("x-canvass-sms-secret", "inbound-secret")
        .header("content-type", "text/plain")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
}

/// Sends a request whose body of `length` bytes trickles in a byte at a time, and returns the status line and
/// how long the answer took.
async fn trickle(app: &TestApp, head: &str, length: usize) -> (String, Duration) {
    let address = app.address.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
    let started = Instant::now();
    stream.write_all(format!("{head}Host: {address}\r\nContent-Length: {length}\r\n\r\n").as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let writing = tokio::spawn(async move {
        for _ in 0..length {
            if writer.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    });
    let mut answer = vec![0u8; 512];
    let read = tokio::time::timeout(Duration::from_secs(20), reader.read(&mut answer)).await.unwrap().unwrap();
    writing.abort();
    let text = String::from_utf8_lossy(&answer[..read]).to_string();
    (text.lines().next().unwrap_or_default().to_owned(), started.elapsed())
}

#[tokio::test]
async fn slow_bodies_are_cut_off_with_408() {
    let app = spawn_app_with(|settings| settings.protection.body_read_timeout = Duration::from_secs(1)).await;
    let key = app.key.clone();
    let heads = [
        format!("POST /api/v1/accounts/categories HTTP/1.1\r\nX-API-KEY: {key}\r\nContent-Type: application/json\r\n"),
        "POST /r/0123456789abcdef0123456789abcdef01234567 HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            .to_owned(),
        format!("POST /inbound/dsn HTTP/1.1\r\nX-Canvass-Inbound-Secret: {DSN_SECRET}\r\n"),
        "POST /sms/inbound HTTP/1.1\r\nX-Canvass-Sms-Secret: inbound-secret\r\nContent-Type: application/json\r\n".to_owned(),
    ];
    for head in heads {
        let (status, took) = trickle(&app, &head, 60).await;
        assert!(status.contains(" 408 "), "{status} for {head}");
        assert!(took < Duration::from_secs(5), "{took:?} for {head}");
    }
}
