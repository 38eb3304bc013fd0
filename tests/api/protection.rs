//! Protection: the key before the body, bodies that must be objects, secrets before bodies, slow bodies cut off,
//! connection loss and statement timeouts answered 503 with Retry-After.

use std::time::{Duration, Instant};

use diesel::{sql_query, RunQueryDsl};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{spawn_app, spawn_app_with, TestApp, DSN_SECRET};

/// A key of the right shape that no account has.
fn unknown_key() -> String {
    format!("cvs_{:064x}", Instant::now().elapsed().as_nanos() ^ 0x5eed_5eed_5eed)
}

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
async fn a_key_of_the_wrong_shape_is_refused_without_the_database() {
    let app = spawn_app().await;
    // The database goes away: no connection can be had any more.
    let mut admin = app.db.connect_admin();
    let name = app.db.name().to_owned();
    sql_query(format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS false")).execute(&mut admin).unwrap();
    sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    ))
    .execute(&mut admin)
    .unwrap();
    for key in ["cvs_short", &format!("cvs_{}", "Z".repeat(64)), &format!("xyz_{}", "0".repeat(64))] {
        let started = Instant::now();
        let reply = app.call_as(key, "GET", "/surveys", None).await;
        reply.problem(401, "/problems/unauthorized");
        assert!(started.elapsed() < Duration::from_secs(2), "{key} waited for the pool");
    }
    // A key of the right shape must be looked up, and the database cannot be reached.
    let reply = app.call_as(&unknown_key(), "GET", "/surveys", None).await;
    assert!(reply.headers.contains_key("retry-after"));
    reply.problem(503, "/problems/unavailable");
    sql_query(format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS true")).execute(&mut admin).unwrap();
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

/// Ends every connection the server holds to its database.
fn terminate_backends(app: &TestApp) {
    let mut admin = app.db.connect();
    sql_query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .execute(&mut admin)
    .unwrap();
}

#[tokio::test]
async fn connection_loss_answers_503_never_500_and_the_pool_recovers() {
    let app = spawn_app_with(|settings| settings.pool_size = 4).await;
    let (survey, _) = app.sample_survey().await;
    for round in 0..4 {
        // Fill the pool with connections, then cut them all.
        let warm: Vec<_> = (0..8).map(|_| app.get("/surveys")).collect();
        for reply in futures::future::join_all(warm).await {
            reply.expect(200);
        }
        terminate_backends(&app);
        let mut statuses = Vec::new();
        for index in 0..12 {
            let reply = match index % 3 {
                0 => app.get("/surveys").await,
                1 => app.post("/accounts/categories", json!({"name": format!("C{round}-{index}")})).await,
                _ => app.post(&format!("/surveys/{survey}/answers"), json!({"answers": []})).await,
            };
            if reply.status.as_u16() == 503 {
                assert!(reply.headers.contains_key("retry-after"), "503 without Retry-After");
            }
            statuses.push(reply.status.as_u16());
        }
        assert!(statuses.iter().all(|s| [200, 201, 503].contains(s)), "round {round}: {statuses:?}");
        assert!(statuses[statuses.len() - 4..].iter().all(|s| *s != 503), "the pool did not recover: {statuses:?}");
    }
}

#[tokio::test]
async fn a_statement_behind_a_lock_times_out_with_503() {
    let app = spawn_app_with(|settings| settings.statement_timeout = Duration::from_millis(1500)).await;
    app.post("/accounts/categories", json!({"name": "Before"})).await.expect(201);
    let mut holder = app.db.connect();
    sql_query("BEGIN").execute(&mut holder).unwrap();
    sql_query("LOCK TABLE categories IN ACCESS EXCLUSIVE MODE").execute(&mut holder).unwrap();
    let started = Instant::now();
    let reply = app.get("/accounts/categories").await;
    let took = started.elapsed();
    assert!(reply.headers.contains_key("retry-after"));
    reply.problem(503, "/problems/unavailable");
    assert!(took >= Duration::from_millis(1400) && took < Duration::from_secs(5), "{took:?}");
    sql_query("ROLLBACK").execute(&mut holder).unwrap();
    app.get("/accounts/categories").await.expect(200);
}
