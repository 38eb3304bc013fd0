//! The binary under test, run on a [`TestApp`]'s database. The server started in-process, its account and the JSON
//! client are the one test kit's (crates/dev/canvass-testkit), which the black-box suite uses too.

use std::process::{Child, Command, Output, Stdio};

pub use canvass_testkit::{contacts, header, spawn_app, spawn_app_on, TestApp, DSN_SECRET, PUBLIC};

/// The `canvass` binary that cargo built for this test run.
pub fn canvass_binary() -> &'static str {
    env!("CARGO_BIN_EXE_canvass")
}

/// The binary run on an app's database.
pub trait RunsBinary {
    /// Runs the binary on this app's database with these arguments.
    fn canvass(&self, args: &[&str]) -> Output;

    /// Starts `canvass worker` on this app's database, its stderr piped, with these variables set.
    fn worker(&self, args: &[&str], envs: &[(&str, &str)]) -> Child;
}

impl RunsBinary for TestApp {
    fn canvass(&self, args: &[&str]) -> Output {
        Command::new(canvass_binary()).args(args).env("DATABASE_URL", self.db.url()).output().unwrap()
    }

    fn worker(&self, args: &[&str], envs: &[(&str, &str)]) -> Child {
        Command::new(canvass_binary())
            .arg("worker")
            .args(args)
            .env("DATABASE_URL", self.db.url())
            .envs(envs.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }
}
