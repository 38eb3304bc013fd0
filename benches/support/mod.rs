//! What the benchmarks that run the real `canvass` binary share: building it, and child processes that are
//! killed when the benchmark ends or panics.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::process::{Child, Command};

/// A child process killed and reaped when dropped, also when the benchmark panics.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Whether the benchmark runs as root (PostgreSQL and Postfix programs then run as their own users).
pub fn running_as_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// The `canvass` binary built in release from the current source (the benchmark runs from target/release/deps).
pub fn canvass_binary() -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "-p", "canvass-server", "--bin", "canvass"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "cannot build the canvass binary");
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(|deps| deps.parent()).unwrap().join("canvass")
}
