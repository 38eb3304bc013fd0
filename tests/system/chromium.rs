//! Headless Chromium through chromedriver, shared by the browser tests (`browser`, `accessibility`): starting the
//! driver and a session, and skipping a test where a tool it needs is missing, except in CI (`CI` set), where
//! every tool is installed and a missing one fails the test.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder};
use serde_json::json;

/// A chromedriver process, stopped when dropped (with the browser profile it made).
pub struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Driver {
    /// Where chromedriver listens: the WebDriver endpoint, and under a session `/goog/cdp/execute` (Chrome DevTools
    /// commands).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Says on stderr that `test` is skipped because `missing` is not installed (`install` says how to get it); in CI,
/// where `.ci/run` installs everything, fails the test instead.
pub fn skip(test: &str, missing: &str, install: &str) {
    assert!(std::env::var_os("CI").is_none(), "{missing} is not installed, and CI must have it ({install})");
    eprintln!("{test} skipped: {missing} is not installed ({install})");
}

/// Starts chromedriver on a free port; `None` where it is not installed.
fn start_chromedriver() -> Option<Driver> {
    let binary = ["chromedriver", "/usr/bin/chromedriver"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok())?;
    let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
    let child =
        Command::new(binary).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().ok()?;
    let profile = std::env::temp_dir().join(format!("canvass-chromium-{port}"));
    Some(Driver { child, port, profile })
}

/// Starts chromedriver for `test`; where it is not installed, skips the test (see [`skip`]) and answers `None`.
pub fn chromedriver(test: &str) -> Option<Driver> {
    let driver = start_chromedriver();
    if driver.is_none() {
        skip(test, "chromedriver", "Debian: chromium chromium-driver");
    }
    driver
}

/// A new headless Chromium session on `driver`.
pub async fn browser(driver: &Driver) -> Client {
    // Two TLS back ends are linked into this test binary; the WebDriver client needs one chosen.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        // A browser language no survey here has: an open link then speaks its sendout's language (it would take
        // the browser's where the survey has it), which is what the pages are checked in.
        "--accept-lang=ja",
    ];
    let mut args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    args.push(format!("--user-data-dir={}", driver.profile.display()));
    let mut options = json!({"args": args});
    if std::path::Path::new("/usr/bin/chromium").exists() {
        options["binary"] = json!("/usr/bin/chromium");
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    let url = driver.url();
    for _ in 0..100 {
        if let Ok(client) = ClientBuilder::rustls().expect("TLS").capabilities(capabilities.clone()).connect(&url).await
        {
            return client;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver did not start");
}
