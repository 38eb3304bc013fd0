//! The baseline binary: `BENCH_CANVASS_BASELINE`, or `canvass` built in release from `BENCH_BASELINE_COMMIT` in a
//! worktree under target/, its dependencies reused from this build's (a hard-linked copy of target/release).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The last commit before roles, permissions and the audit log.
const DEFAULT_COMMIT: &str = "7a79f12";

pub fn binary() -> PathBuf {
    if let Some(binary) = std::env::var_os("BENCH_CANVASS_BASELINE") {
        return PathBuf::from(binary);
    }
    let commit = std::env::var("BENCH_BASELINE_COMMIT").unwrap_or_else(|_| DEFAULT_COMMIT.to_owned());
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = repo.join("target");
    let tree = target.join(format!("baseline-{commit}"));
    let built = target.join(format!("baseline-{commit}-target"));
    let binary = built.join("release/canvass");
    if binary.exists() {
        return binary;
    }
    if !tree.exists() {
        run(Command::new("git").current_dir(repo).args(["worktree", "add", "--detach"]).arg(&tree).arg(&commit));
    }
    if !built.exists() {
        // The dependencies are the same build: a hard-linked copy spares building them again.
        std::fs::create_dir_all(&built).expect("make the baseline's target directory");
        run(Command::new("cp").arg("-al").arg(target.join("release")).arg(built.join("release")));
    }
    run(Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "-p", "canvass-server", "--bin", "canvass", "--target-dir"])
        .arg(&built)
        .current_dir(&tree));
    binary
}

fn run(command: &mut Command) {
    let status = command.status().expect("run a command");
    assert!(status.success(), "{command:?} failed");
}
