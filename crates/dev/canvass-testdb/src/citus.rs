//! Test databases on a Citus cluster (`just test-citus`): when `TEST_CITUS_WORKERS` names the workers' servers, each
//! test database is made on the coordinator and on every worker, Citus is created in each, the workers are
//! registered, the migrations run on the coordinator and `docs/citus-distribute.sql` distributes the tables, as an
//! operator does (docs/scaling.md, "Testing on a real Citus cluster"). No template: a Citus database's shards live
//! in the workers' databases of the same name, which a template copy on one node cannot make.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::PgConnection;

/// The operator's distribution script, run as it is.
const DISTRIBUTE: &str = include_str!("../../../../docs/citus-distribute.sql");

/// The workers' server URLs, when the tests run on a Citus cluster.
pub(crate) fn workers() -> Option<Vec<String>> {
    let workers = std::env::var("TEST_CITUS_WORKERS").ok()?;
    let workers: Vec<String> = workers.split_whitespace().map(str::to_owned).collect();
    (!workers.is_empty()).then_some(workers)
}

/// Makes `name` on the coordinator (`server_url`) and every worker, and leaves it migrated and distributed; on
/// failure, drops what it made.
pub(crate) fn create(server_url: &str, workers: &[String], name: &str) -> Result<(), String> {
    let made = make(server_url, workers, name);
    if made.is_err() {
        drop(server_url, workers, name);
    }
    made
}

fn make(server_url: &str, workers: &[String], name: &str) -> Result<(), String> {
    for server in std::iter::once(server_url).chain(workers.iter().map(String::as_str)) {
        let mut admin = connect(server)?;
        execute(&mut admin, &format!("CREATE DATABASE {name}"))?;
        execute(&mut connect(&crate::with_database(server, name))?, "CREATE EXTENSION citus")?;
    }
    let mut coordinator = connect(&crate::with_database(server_url, name))?;
    let (host, port) = host_and_port(server_url)?;
    execute(&mut coordinator, &format!("SELECT citus_set_coordinator_host('{host}', {port})"))?;
    for worker in workers {
        let (host, port) = host_and_port(worker)?;
        add_node(&mut coordinator, &host, port)?;
    }
    canvass_postgres::run_migrations(&mut coordinator).map_err(|e| format!("migrate: {e}"))?;
    execute(&mut coordinator, DISTRIBUTE)
}

/// Drops `name` on the coordinator and every worker.
pub(crate) fn drop(server_url: &str, workers: &[String], name: &str) {
    for server in std::iter::once(server_url).chain(workers.iter().map(String::as_str)) {
        if let Ok(mut admin) = PgConnection::establish(server) {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin);
        }
    }
}

/// Registers a worker. Now and then (about one database in ten while others are made and dropped beside it) Citus
/// answers "failure on connection marked as essential" for a worker that is up; the call is idempotent, so it is
/// tried again.
fn add_node(coordinator: &mut PgConnection, host: &str, port: u16) -> Result<(), String> {
    let sql = format!("SELECT citus_add_node('{host}', {port})");
    let mut attempt = 1;
    loop {
        match execute(coordinator, &sql) {
            Err(error) if attempt < 5 && error.contains("marked as essential") => {
                std::thread::sleep(std::time::Duration::from_millis(200 * attempt));
                attempt += 1;
            }
            result => return result,
        }
    }
}

fn connect(url: &str) -> Result<PgConnection, String> {
    PgConnection::establish(url).map_err(|e| format!("connect to a Citus node: {e}"))
}

fn execute(conn: &mut PgConnection, sql: &str) -> Result<(), String> {
    conn.batch_execute(sql).map_err(|e| format!("{e} (in: {})", sql.lines().next().unwrap_or_default()))
}

/// A node's host and port as the other nodes reach it.
fn host_and_port(server_url: &str) -> Result<(String, u16), String> {
    let url = url::Url::parse(server_url).map_err(|e| format!("a Citus node's URL: {e}"))?;
    let host = url.host_str().ok_or("a Citus node's URL names no host")?.to_owned();
    Ok((host, url.port().unwrap_or(5432)))
}
