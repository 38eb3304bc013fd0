//! The two backends the benchmark compares: a plain PostgreSQL cluster and a Citus coordinator with two workers,
//! both started by the project's scripts with the same server settings, and destroyed when dropped.

use std::path::PathBuf;
use std::process::Command;

/// Shards a distributed table gets on the benchmark's cluster (`CITUS_SHARD_COUNT`, as scripts/citus.sh reads it).
pub const SHARDS: &str = "32";

/// A backend: the server to make databases on, and its workers when it is a Citus coordinator.
pub struct Nodes {
    dir: PathBuf,
    script: &'static str,
    pub coordinator: String,
    pub workers: Option<Vec<String>>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(script: &str, args: &[&str]) -> Vec<String> {
    let output =
        Command::new(root().join("scripts").join(script)).args(args).env("CITUS_SHARD_COUNT", SHARDS).output().unwrap();
    assert!(output.status.success(), "{script} {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_owned).collect()
}

/// Whether citus.so is installed in the PostgreSQL on this machine.
pub fn citus_installed() -> bool {
    Command::new(root().join("scripts/citus.sh")).arg("installed").output().is_ok_and(|o| o.status.success())
}

impl Nodes {
    /// A plain PostgreSQL cluster.
    pub fn plain() -> Self {
        let dir = root().join(format!(".canvass/bench-plain-{}", std::process::id()));
        let urls = run("pg-cluster.sh", &["start", dir.to_str().unwrap()]);
        Self { dir, script: "pg-cluster.sh", coordinator: urls[0].clone(), workers: None }
    }

    /// A Citus coordinator with two workers, registered.
    pub fn citus() -> Self {
        let dir = root().join(format!(".canvass/bench-citus-{}", std::process::id()));
        let urls = run("citus.sh", &["start", dir.to_str().unwrap()]);
        Self { dir, script: "citus.sh", coordinator: urls[0].clone(), workers: Some(urls[1..].to_vec()) }
    }
}

impl Drop for Nodes {
    fn drop(&mut self) {
        let _ = Command::new(root().join("scripts").join(self.script))
            .args(["destroy", self.dir.to_str().unwrap()])
            .output();
    }
}
