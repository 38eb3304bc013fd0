//! Per-test PostgreSQL databases. The first use in a process migrates a template database (under an advisory
//! lock, so parallel test processes agree); every [`TestDatabase`] is then a fresh `CREATE DATABASE ... TEMPLATE`
//! copy, dropped when the handle drops. No test shares a database, none needs cleaning up after.
//!
//! The server is named by `TEST_DATABASE_URL`, else `DATABASE_URL` (`just test` sets one). With
//! `TEST_CITUS_WORKERS` that server is a Citus coordinator and each database is made on every node ([`citus`]).
//! [`TestRedis`] is a private Redis for the tests of the shared limits.

mod citus;
mod redis;

pub use redis::TestRedis;

use std::collections::BTreeSet;
use std::sync::Mutex;

use diesel::prelude::*;
use diesel::PgConnection;
use rand::distr::{Alphanumeric, SampleString};

const TEMPLATE: &str = "canvass_test_template";
/// Serialises template set-up across test processes.
const TEMPLATE_LOCK: i64 = 0x0063_616e_7661_7373;

/// A database of its own for one test.
pub struct TestDatabase {
    name: String,
    url: String,
    server_url: String,
    /// The workers' server URLs when `server_url` is a Citus coordinator.
    citus_workers: Option<Vec<String>>,
}

impl TestDatabase {
    /// Creates a fresh, migrated database on the server the environment names (on every node of a Citus cluster
    /// when `TEST_CITUS_WORKERS` is set). Panics (failing the test) when no server is configured or reachable.
    pub fn new() -> Self {
        Self::on(&server_url(), citus::workers())
    }

    /// Creates a fresh, migrated database on `server_url`, a plain PostgreSQL server, or with `citus_workers` a
    /// Citus coordinator whose workers' servers these are (the database is then also distributed). For a
    /// benchmark that compares the two in one run.
    #[expect(clippy::expect_used)]
    pub fn on(server_url: &str, citus_workers: Option<Vec<String>>) -> Self {
        let name = format!("canvass_test_{}", Alphanumeric.sample_string(&mut rand::rng(), 12).to_lowercase());
        let url = with_database(server_url, &name);
        let database = Self { name, url, server_url: server_url.to_owned(), citus_workers };
        if let Some(workers) = &database.citus_workers {
            if let Err(error) = citus::create(server_url, workers, &database.name) {
                panic!("cannot prepare a test database on the Citus cluster: {error}");
            }
            return database;
        }
        if let Err(error) = prepare_template_once(server_url) {
            panic!("cannot prepare the test template database: {error}");
        }
        let mut admin = PgConnection::establish(server_url).expect("connect to the test server");
        diesel::sql_query(format!("CREATE DATABASE {} TEMPLATE {TEMPLATE}", database.name))
            .execute(&mut admin)
            .expect("create a test database");
        database
    }

    /// The URL of this test's database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The name of this test's database.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A new connection to the server's own database (not this test's), for what cannot be done from inside it.
    #[expect(clippy::expect_used)]
    pub fn connect_admin(&self) -> PgConnection {
        PgConnection::establish(&self.server_url).expect("connect to the test server")
    }

    /// A new connection to this test's database.
    #[expect(clippy::expect_used)]
    pub fn connect(&self) -> PgConnection {
        PgConnection::establish(&self.url).expect("connect to the test database")
    }

    /// A store over a new connection to this test's database: how tests open units of work, as the server does.
    #[expect(clippy::expect_used)]
    pub fn store(&self) -> canvass_postgres::PgStore {
        canvass_postgres::PgStore::connect_one(&self.url).expect("connect to the test database")
    }
}

impl Default for TestDatabase {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some(workers) = &self.citus_workers {
            return citus::drop(&self.server_url, workers, &self.name);
        }
        if let Ok(mut admin) = PgConnection::establish(&self.server_url) {
            let _ =
                diesel::sql_query(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name)).execute(&mut admin);
        }
    }
}

/// The servers whose template this process has prepared.
static TEMPLATES_READY: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Prepares `server_url`'s template the first time this process uses that server.
fn prepare_template_once(server_url: &str) -> Result<(), String> {
    let mut ready = TEMPLATES_READY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !ready.contains(server_url) {
        prepare_template(server_url)?;
        ready.insert(server_url.to_owned());
    }
    Ok(())
}

#[expect(clippy::expect_used)]
fn server_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .or_else(|_| std::env::var("DATABASE_URL"))
        .expect("set TEST_DATABASE_URL or DATABASE_URL (`just test` does) to a PostgreSQL server for tests")
}

/// Makes sure the template exists and has every migration, holding an advisory lock meanwhile. The template's
/// connection is closed before the lock is released: `CREATE DATABASE ... TEMPLATE` needs it unused.
fn prepare_template(server_url: &str) -> Result<(), String> {
    let mut admin = PgConnection::establish(server_url).map_err(|e| e.to_string())?;
    diesel::sql_query(format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})"))
        .execute(&mut admin)
        .map_err(|e| e.to_string())?;
    let result = (|| {
        let exists: bool = diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
            "EXISTS (SELECT 1 FROM pg_database WHERE datname = '{TEMPLATE}')"
        )))
        .get_result(&mut admin)
        .map_err(|e| e.to_string())?;
        if !exists {
            diesel::sql_query(format!("CREATE DATABASE {TEMPLATE}")).execute(&mut admin).map_err(|e| e.to_string())?;
        }
        let mut template = PgConnection::establish(&with_database(server_url, TEMPLATE)).map_err(|e| e.to_string())?;
        canvass_postgres::run_migrations(&mut template).map_err(|e| e.to_string())?;
        Ok(())
    })();
    let _ = diesel::sql_query(format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})")).execute(&mut admin);
    result
}

/// The server URL with its database replaced.
fn with_database(server_url: &str, database: &str) -> String {
    match url::Url::parse(server_url) {
        Ok(mut url) => {
            url.set_path(database);
            url.to_string()
        }
        Err(_) => format!("{server_url} dbname={database}"),
    }
}
