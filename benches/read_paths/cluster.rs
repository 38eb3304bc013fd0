//! The benchmark's own PostgreSQL cluster (scripts/pg-cluster.sh), whose server log it reads.

use std::path::PathBuf;
use std::process::Command;

use diesel::{Connection, PgConnection, RunQueryDsl};

/// A throwaway cluster under `.canvass/`, destroyed when dropped.
pub struct Cluster {
    dir: PathBuf,
    /// The URL of its `postgres` database.
    pub url: String,
    /// Its server log (stderr of the postmaster).
    pub log: PathBuf,
}

fn script(args: &[&str]) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = Command::new(format!("{root}/scripts/pg-cluster.sh")).args(args).output().unwrap();
    assert!(output.status.success(), "pg-cluster.sh {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

impl Cluster {
    /// Starts a new cluster with the PostgreSQL binaries on PATH.
    pub fn start() -> Self {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-pg-{}", std::process::id()));
        let dir_text = dir.to_str().unwrap().to_owned();
        let url = script(&["start", &dir_text]);
        let log = PathBuf::from(script(&["log", &dir_text]));
        Self { dir, url, log }
    }

    /// The URL of another database of this cluster.
    pub fn database_url(&self, name: &str) -> String {
        format!("{}/{name}", self.url.rsplit_once('/').unwrap().0)
    }

    /// A new connection to the `postgres` database.
    pub fn connect(&self) -> PgConnection {
        PgConnection::establish(&self.url).unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        script(&["destroy", self.dir.to_str().unwrap()]);
    }
}

/// Runs one statement (or several separated by `;`) for its effect.
pub fn exec(conn: &mut PgConnection, sql: &str) {
    diesel::sql_query(sql).execute(conn).unwrap_or_else(|e| panic!("{sql}: {e}"));
}
