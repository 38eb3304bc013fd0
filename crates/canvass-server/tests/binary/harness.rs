//! The binary under test, a server started in-process on a fresh database, and a small JSON client for it.

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use actix_web::dev::ServerHandle;
use canvass_server::{Application, Settings};
use canvass_testdb::TestDatabase;
use serde_json::{json, Value};
use tokio::task::JoinHandle;

/// The secret of the test server's `/inbound/dsn`.
pub const DSN_SECRET: &str = "dsn-secret";
/// The public URL the workers build survey links with.
pub const PUBLIC: &str = "https://survey.example";

/// The `canvass` binary that cargo built for this test run.
pub fn canvass_binary() -> &'static str {
    env!("CARGO_BIN_EXE_canvass")
}

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
        delivery: None,
        sms_inbound_secret: None,
        inbound_secret: Some(DSN_SECRET.into()),
        webhook_allow_private: false,
        statement_timeout: Duration::from_secs(30),
        protection: canvass_server::Protection::default(),
        metrics_token: None,
        keep_alive: canvass_server::settings::DEFAULT_KEEP_ALIVE,
    }
}

/// Starts the server on a fresh database and creates an account with the binary.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await.0
}

/// The server of a [`TestApp`]: a handle that stops it, and the task that serves until it has stopped.
pub struct Serving {
    /// Stops the server as SIGTERM does.
    pub handle: ServerHandle,
    /// Ends when the server, and its delivery worker, have stopped.
    pub task: JoinHandle<std::io::Result<()>>,
}

/// Starts the server with settings changed by `configure`, on a fresh database, and creates an account with the
/// binary. Its logs go to stderr when `TEST_LOG` is set.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> (TestApp, Serving) {
    spawn_app_on(TestDatabase::new(), configure).await
}

/// Starts the server with settings changed by `configure` on `db`, and creates an account with the binary.
pub async fn spawn_app_on(db: TestDatabase, configure: impl FnOnce(&mut Settings)) -> (TestApp, Serving) {
    canvass_server::telemetry::init_for_tests();
    let mut settings = settings(&db);
    configure(&mut settings);
    let app = Application::build(&settings).expect("build the application");
    let address = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    let task = tokio::spawn(app.run_until_stopped());
    let mut test_app = TestApp { address, key: String::new(), account_id: 0, client: reqwest::Client::new(), db };
    (test_app.account_id, test_app.key) = test_app.new_account("Acme", "owner@acme.example");
    (test_app, Serving { handle, task })
}

impl TestApp {
    /// Runs the binary on this app's database with these arguments.
    pub fn canvass(&self, args: &[&str]) -> Output {
        Command::new(canvass_binary()).args(args).env("DATABASE_URL", self.db.url()).output().unwrap()
    }

    /// Creates another account with `canvass account create`; returns its id and key.
    pub fn new_account(&self, name: &str, email: &str) -> (i64, String) {
        let output = self.canvass(&["account", "create", "--name", name, "--email", email]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let created: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
        (created["accountId"].as_i64().expect("accountId"), created["apiKey"].as_str().expect("apiKey").to_owned())
    }

    /// Starts `canvass worker` on this app's database, its stderr piped, with these variables set.
    pub fn worker(&self, args: &[&str], envs: &[(&str, &str)]) -> Child {
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

    /// Sends a request under `/api/v1` with the given key; returns the status and the JSON body (`Null` if none).
    pub async fn call_as(&self, key: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request =
            self.client.request(method, format!("{}/api/v1{path}", self.address)).header("X-API-KEY", key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("send");
        let status = response.status().as_u16();
        let bytes = response.bytes().await.expect("read body");
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// GET under `/api/v1` with this app's key; asserts 200.
    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.call_as(&self.key, "GET", path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    /// POST under `/api/v1` with this app's key; asserts the status.
    pub async fn post(&self, path: &str, body: Value, expected: u16) -> Value {
        let (status, body) = self.call_as(&self.key, "POST", path, Some(body)).await;
        assert_eq!(status, expected, "POST {path}: {body}");
        body
    }

    /// The statuses of a sendout's respondents (`base` is `/surveys/{id}/sendouts/{id}`), in id order.
    pub async fn statuses(&self, base: &str) -> Vec<String> {
        let list = self.get(&format!("{base}/respondents")).await;
        list.as_array().expect("a list").iter().map(|r| r["status"].as_str().expect("status").to_owned()).collect()
    }

    /// Waits until every respondent of the sendout is Sent.
    pub async fn all_sent(&self, base: &str, within: Duration) {
        let started = Instant::now();
        while !self.statuses(base).await.iter().all(|s| s == "Sent") {
            assert!(started.elapsed() < within, "not every invitation was sent: {:?}", self.statuses(base).await);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// An EMAIL sendout (sent from 2020-01-01) of a survey without required items, with these respondents,
    /// activated; returns the sendout's base path.
    pub async fn activated(&self, contacts: &[String]) -> String {
        let survey = self.post("/surveys", json!({"name": "Pulse"}), 201).await["surveyId"].as_i64().unwrap();
        let body = json!({"name": "Invite", "type": "EMAIL", "sendDate": "2020-01-01T08:00:00Z",
            "sender": "hr@acme.example", "subject": "Your view", "message": "Answer: {{surveyLink}}\nStop: {{optOutLink}}"});
        let sendout = self.post(&format!("/surveys/{survey}/sendouts"), body, 201).await["sendoutId"].as_i64().unwrap();
        let base = format!("/surveys/{survey}/sendouts/{sendout}");
        let people: Vec<Value> = contacts.iter().map(|c| json!({"contactDetails": c, "sendMail": true})).collect();
        self.post(&format!("{base}/respondents/batch"), json!({"surveyRespondents": people}), 200).await;
        self.post(&format!("{base}/activate"), json!({}), 200).await;
        base
    }
}

/// `count` email addresses starting with `prefix`.
pub fn contacts(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|n| format!("{prefix}{n}@example.com")).collect()
}

/// The `name:` header value of a raw message.
pub fn header<'m>(message: &'m str, name: &str) -> &'m str {
    message.lines().find_map(|l| l.strip_prefix(name)).map(str::trim).unwrap_or_default()
}
