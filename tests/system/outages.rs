//! Outages: the database taken away or locked under a running server (with SQL on the test database, which no
//! API call can do): a key of the wrong shape is refused without the database, connection loss answers 503 and the
//! pool recovers, a statement behind a lock times out with 503.

use std::time::{Duration, Instant};

use diesel::{sql_query, RunQueryDsl};
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with, unknown_key, TestApp};

#[tokio::test]
async fn a_key_of_the_wrong_shape_is_refused_without_the_database() {
    let app = spawn_app().await;
    // The database goes away: no connection can be had any more.
    let mut admin = app.db.connect_admin();
    let name = app.db.name().to_owned();
    sql_query(format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS false")).execute(&mut admin).unwrap();
    sql_query(format!(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
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

/// Ends every connection the server holds to its database, and waits (up to 5 s each) until each has ended: a
/// backend told to end may otherwise still answer a statement or two, and a connection that did so is not known
/// to be lost when it dies later.
fn terminate_backends(app: &TestApp) {
    let mut admin = app.db.connect();
    sql_query(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity \
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
        // Fill the pool with connections, then cut them all. A connection the last round cut and no request of
        // that round used is still idle in the pool and answers 503 on its first use, so the warm-up goes on until
        // a whole batch passes.
        for attempt in 0.. {
            let warm: Vec<_> = (0..8).map(|_| app.get("/surveys")).collect();
            let statuses: Vec<u16> =
                futures::future::join_all(warm).await.iter().map(|reply| reply.status.as_u16()).collect();
            if statuses.iter().all(|status| *status == 200) {
                break;
            }
            assert!(attempt < 5 && statuses.iter().all(|s| [200, 503].contains(s)), "warm-up: {statuses:?}");
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
