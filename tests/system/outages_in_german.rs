//! Outages on a server that words its messages in German (`lc_messages` set on the test's database before the
//! server connects): a lost connection and a statement cancelled by the statement timeout still answer 503. The
//! adapter knows them by diesel's kinds and by the words it learned from the server, not by PostgreSQL's English.
//! Needs the `de_DE.UTF-8` locale on the database's machine (`localedef -i de_DE -f UTF-8 de_DE.UTF-8`), a server
//! built with its translations, and a role that may set `lc_messages`; without them each test says so and passes.

use std::time::{Duration, Instant};

use canvass_server::Settings;
use diesel::{sql_query, Connection, PgConnection, RunQueryDsl};
use serde_json::json;

use crate::helpers::{spawn_app_with, TestApp};

const LOCALE: &str = "de_DE.UTF-8";

/// Starts the server, changed by `configure`, on a database whose sessions speak German; `None` when that cannot
/// be had (the reason is printed).
async fn spawn_german_app(configure: impl FnOnce(&mut Settings)) -> Option<TestApp> {
    let mut refused = None;
    let app = spawn_app_with(|settings| {
        configure(settings);
        refused = speak_german(&settings.database_url).err();
    })
    .await;
    match refused {
        None => Some(app),
        Some(reason) => {
            eprintln!("skipped: the test database cannot speak German ({reason})");
            None
        }
    }
}

/// Sets `lc_messages` of the database at `url` to German for the sessions that start from now on, and checks that
/// a new session's errors are German.
fn speak_german(url: &str) -> Result<(), String> {
    let mut conn = PgConnection::establish(url).map_err(|error| error.to_string())?;
    sql_query(format!(
        "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET lc_messages = %L', current_database(), '{LOCALE}'); END $$"
    ))
    .execute(&mut conn)
    .map_err(|error| error.to_string())?;
    let mut fresh = PgConnection::establish(url).map_err(|error| error.to_string())?;
    match sql_query("SELECT 1 / 0").execute(&mut fresh) {
        Err(error) if error.to_string() == "division by zero" => Err("the server has no German messages".into()),
        Err(_) => Ok(()),
        Ok(_) => Err("1 / 0 did not fail".into()),
    }
}

#[tokio::test]
async fn a_statement_cancelled_by_the_timeout_answers_503_in_german() {
    let Some(app) = spawn_german_app(|settings| settings.statement_timeout = Duration::from_millis(1500)).await else {
        return;
    };
    app.post("/accounts/categories", json!({"name": "Vorher"})).await.expect(201);
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

#[tokio::test]
async fn a_lost_connection_answers_503_never_500_in_german() {
    let Some(app) = spawn_german_app(|settings| settings.pool_size = 4).await else {
        return;
    };
    for round in 0..2 {
        // Every pooled connection serves once. After a round, a connection that the last round's requests did not
        // reach may still be a terminated one: taking it is a 503 (never a 500), and the pool drops it.
        for attempt in 0.. {
            let warm: Vec<_> = (0..8).map(|_| app.get("/surveys")).collect();
            let statuses: Vec<u16> =
                futures::future::join_all(warm).await.iter().map(|reply| reply.status.as_u16()).collect();
            assert!(statuses.iter().all(|s| [200, 503].contains(s)), "round {round}: {statuses:?}");
            if statuses.iter().all(|s| *s == 200) {
                break;
            }
            assert!(attempt < 5, "the pool did not recover: {statuses:?}");
        }
        // Every connection the server holds is ended: the server says why in German before it closes them.
        sql_query(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .execute(&mut app.db.connect())
        .unwrap();
        let mut statuses = Vec::new();
        for index in 0..8 {
            let reply = match index % 2 {
                0 => app.get("/surveys").await,
                _ => app.post("/accounts/categories", json!({"name": format!("K{round}-{index}")})).await,
            };
            statuses.push(reply.status.as_u16());
        }
        assert!(statuses.iter().all(|s| [200, 201, 503].contains(s)), "round {round}: {statuses:?}");
        assert!(statuses[statuses.len() - 2..].iter().all(|s| *s != 503), "the pool did not recover: {statuses:?}");
    }
}
