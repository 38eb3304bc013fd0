//! `scripts/pg-cluster.sh`, the private PostgreSQL cluster behind `just run` and `just test`, works from a folder
//! only its owner may enter (for root: a checkout under /root, which the postgres OS user cannot reach).
//! A system test: it runs the script and connects to the cluster it starts with diesel.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use diesel::{Connection, PgConnection, RunQueryDsl};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pg-cluster.sh")
}

fn has_initdb() -> bool {
    let on_path = Command::new("sh").args(["-c", "command -v initdb"]).output().is_ok_and(|o| o.status.success());
    on_path || std::fs::read_dir("/usr/lib/postgresql").is_ok_and(|mut versions| versions.next().is_some())
}

fn cluster(command: &str, folder: &Path) -> Output {
    Command::new(script()).args([command, ".canvass/pg"]).current_dir(folder).output().unwrap()
}

#[test]
fn the_private_cluster_starts_from_a_folder_only_its_owner_may_enter() {
    if !has_initdb() {
        eprintln!("skipped: the PostgreSQL server binaries (initdb, pg_ctl) are not installed");
        return;
    }
    let folder = std::env::temp_dir().join(format!("canvass-private-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();

    let started = cluster("start", &folder);
    let url = String::from_utf8_lossy(&started.stdout).trim().to_owned();
    let connected = PgConnection::establish(&url).map(|mut conn| diesel::sql_query("SELECT 1").execute(&mut conn));
    let destroyed = cluster("destroy", &folder);
    let left_behind = folder.join(".canvass/pg").exists();
    std::fs::remove_dir_all(&folder).unwrap();

    assert!(started.status.success(), "start failed: {}", String::from_utf8_lossy(&started.stderr));
    assert!(matches!(connected, Ok(Ok(1))), "{url}: {connected:?}");
    assert!(destroyed.status.success(), "destroy failed: {}", String::from_utf8_lossy(&destroyed.stderr));
    assert!(!left_behind, "destroy left the cluster's folder behind");
}
