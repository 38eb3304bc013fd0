//! A PostgreSQL cluster of a test's own (scripts/pg-cluster.sh), for what cannot be done to the shared test server.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A cluster of a test's own, for restarting it. Destroyed when dropped.
pub struct PrivateCluster {
    dir: PathBuf,
    /// The URL of its `postgres` database.
    pub url: String,
}

impl PrivateCluster {
    /// Starts a new cluster under the workspace's `.canvass/`.
    pub fn start() -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = workspace().join(format!(".canvass/test-private-pg-{}-{n}", std::process::id()));
        let url = Self::script(&dir, "start");
        Self { dir, url }
    }

    /// Restarts it as `pg_ctl restart -m fast` does: every session is ended, and the server is back when this
    /// returns.
    pub fn restart(&self) {
        Self::script(&self.dir, "restart");
    }

    fn script(dir: &Path, command: &str) -> String {
        let output = Command::new(workspace().join("scripts/pg-cluster.sh")).arg(command).arg(dir).output().unwrap();
        assert!(output.status.success(), "pg-cluster.sh {command}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }
}

impl Drop for PrivateCluster {
    fn drop(&mut self) {
        let _ = Command::new(workspace().join("scripts/pg-cluster.sh")).arg("destroy").arg(&self.dir).output();
    }
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
