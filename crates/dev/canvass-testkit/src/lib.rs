//! The one test kit of the black-box tests (tests/) and the binary's tests (crates/canvass-server/tests/binary):
//! a server started in-process on a fresh database with one account ([`TestApp`]), a JSON client for it
//! ([`Reply`]), the operator's actions the API has no endpoint for (accounts, keys, sender numbers), the delivery
//! worker's round, and the fixtures both suites build over HTTP.
#![expect(clippy::unwrap_used, clippy::expect_used, reason = "a test kit: a failure is the test's failure")]

mod calls;
mod fixtures;
mod mail;
mod operator;
mod reply;
mod worker;

use std::time::Duration;

use actix_web::dev::ServerHandle;
use canvass_server::{Application, Settings};
use canvass_testdb::TestDatabase;
use tokio::sync::oneshot;

pub use fixtures::{contacts, header, item_id, page_id, sample_survey_body};
pub use mail::{html_part, recipient, sender, subject, text_part};
pub use reply::Reply;

/// The secret of the test server's `/inbound/dsn`.
pub const DSN_SECRET: &str = "dsn-secret";
/// The secret of the test server's `/sms/inbound`.
pub const SMS_INBOUND_SECRET: &str = "inbound-secret";
/// The public address the delivery rounds of the tests put in links.
pub const PUBLIC: &str = "https://survey.example";

/// A running server on its own database, with one account and its key.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The key of the first account.
    pub key: String,
    /// The id of the first account.
    pub account_id: i64,
    /// The HTTP client.
    pub client: reqwest::Client,
    /// The database; dropped (and removed) with the app.
    pub db: TestDatabase,
    /// Stops the server when the app is dropped.
    server: ServerHandle,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // The stop is sent at once; the server's thread ends when it has stopped.
        drop(self.server.stop(false));
    }
}

/// The server of a [`TestApp`]: a handle that stops it, and what it answers once it has stopped.
pub struct Serving {
    /// Stops the server as SIGTERM does.
    pub handle: ServerHandle,
    /// Answers when the server, and its delivery worker, have stopped.
    pub task: oneshot::Receiver<std::io::Result<()>>,
}

/// Settings for a server on `db` that listens on a free port and runs no background job.
pub fn settings(db: &TestDatabase) -> Settings {
    Settings {
        database_url: db.url().to_owned(),
        bind: "127.0.0.1:0".into(),
        pool_size: 4,
        workers: Some(2),
        public_url: None,
        retention_interval: Duration::ZERO,
        audit_retention_days: canvass_domain::audit::DEFAULT_RETENTION_DAYS,
        delivery: None,
        sms_inbound_secret: Some(SMS_INBOUND_SECRET.into()),
        inbound_secret: Some(DSN_SECRET.into()),
        webhook_allow_private: false,
        statement_timeout: Duration::from_secs(30),
        protection: canvass_server::Protection::default(),
        limits_url: None,
        metrics_token: None,
        cookie_key: None,
        keep_alive: canvass_server::settings::DEFAULT_KEEP_ALIVE,
    }
}

/// Starts the server on a fresh database and creates an account.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the server with settings changed by `configure`, on a fresh database, and creates an account. Its logs
/// go to stderr when `TEST_LOG` is set.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    spawn_app_on(TestDatabase::new(), configure).await.0
}

/// Starts the server with settings changed by `configure` on `db`, and creates an account; returns the app and
/// its server, for a test that stops it.
pub async fn spawn_app_on(db: TestDatabase, configure: impl FnOnce(&mut Settings)) -> (TestApp, Serving) {
    canvass_server::telemetry::init_for_tests();
    let mut settings = settings(&db);
    configure(&mut settings);
    let (address, handle, task) = serve_on_its_own_thread(settings);
    let server = handle.clone();
    let mut test_app = TestApp { address, key: String::new(), account_id: 0, client: test_client(), db, server };
    let live = test_app.client.get(format!("{}/health/live", test_app.address)).send().await;
    assert_eq!(live.map(|live| live.status().as_u16()).ok(), Some(200), "the server serves");
    (test_app.account_id, test_app.key) = test_app.new_account("Acme", "owner@acme.example");
    (test_app, Serving { handle, task })
}

/// Builds and runs the server on a thread and an actix system of its own; returns its address, its handle and what
/// it answers once stopped. On the test's own runtime, the server's first poll (which starts the workers, each
/// building the app) blocked the test's thread for seconds on a loaded machine, while the test's first request
/// sat on a connection a worker had already accepted: actix answered 408 after 5 s without its headers.
fn serve_on_its_own_thread(settings: Settings) -> (String, ServerHandle, oneshot::Receiver<std::io::Result<()>>) {
    let (started, ready) = std::sync::mpsc::channel();
    let (stopped, task) = oneshot::channel();
    std::thread::Builder::new()
        .name("test-server".into())
        .spawn(move || {
            let served = actix_web::rt::System::new().block_on(async move {
                let app = Application::build(&settings).expect("build the application");
                started.send((app.port(), app.handle())).expect("the test waits for its server");
                app.run_until_stopped().await
            });
            let _ = stopped.send(served);
        })
        .expect("a thread for the server");
    let (port, handle) = ready.recv().expect("the server starts");
    (format!("http://127.0.0.1:{port}"), handle, task)
}

/// The tests' HTTP client. It drops a pooled connection after a second idle, well inside the server's keep-alive
/// (75 s, or less where a test sets it): a test that works for seconds between two requests (filling a long list
/// through the store on a loaded machine) would otherwise send its next request on a connection the server is
/// closing at that moment, and read `IncompleteMessage`.
fn test_client() -> reqwest::Client {
    reqwest::Client::builder().pool_idle_timeout(Duration::from_secs(1)).build().expect("a client")
}
