//! Starting the application on a fresh database, the operator's actions the API has no endpoint for (accounts,
//! keys, sender numbers: what `canvass account`, `canvass key` and `canvass sender` do), and a small JSON client.
//! These helpers are the only code the `api/` and `security/` tests reach that uses the domain: a test there speaks
//! HTTP and leaves to them what the operator does. The delivery round of [`worker`] is for `system/` tests.

mod fixtures;
mod worker;

pub use fixtures::*;
pub use worker::deliver_on;

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::{accounts, senders};
use canvass_server::{Application, Settings};
use canvass_testdb::TestDatabase;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The secret of the test server's `/inbound/dsn`.
pub const DSN_SECRET: &str = "dsn-secret";

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

/// Starts the server on a fresh database and creates an account.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the server with settings changed by `configure`, on a fresh database, and creates an account. Its logs
/// go to stderr when `TEST_LOG` is set.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    canvass_server::telemetry::init_for_tests();
    let db = TestDatabase::new();
    let mut settings = Settings {
        database_url: db.url().to_owned(),
        bind: "127.0.0.1:0".into(),
        pool_size: 4,
        workers: Some(2),
        public_url: None,
        retention_interval: std::time::Duration::ZERO,
        delivery: None,
        sms_inbound_secret: Some("inbound-secret".into()),
        inbound_secret: Some(DSN_SECRET.into()),
        webhook_allow_private: false,
        statement_timeout: std::time::Duration::from_secs(30),
        protection: canvass_server::Protection::default(),
        metrics_token: None,
        keep_alive: canvass_server::settings::DEFAULT_KEEP_ALIVE,
    };
    configure(&mut settings);
    let app = Application::build(&settings).expect("build the application");
    let address = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let mut test_app = TestApp { address, key: String::new(), account_id: 0, client: test_client(), db };
    // actix starts the server's workers (each building the app) when the server's future is first polled, on this
    // test's thread: wait for that here, so that no test's first request pays for it (or times it).
    let live = test_app.client.get(format!("{}/health/live", test_app.address)).send().await;
    assert_eq!(live.map(|live| live.status().as_u16()).ok(), Some(200), "the server serves");
    (test_app.account_id, test_app.key) = test_app.new_account("Acme", "owner@acme.example");
    test_app
}

/// The tests' HTTP client. It drops a pooled connection after a second idle, well inside the server's keep-alive
/// (75 s, or less where a test sets it): a test that works for seconds between two requests (filling a long list through the store on a
/// loaded machine) would otherwise send its next request on a connection the server is closing at that moment, and
/// read `IncompleteMessage`.
fn test_client() -> reqwest::Client {
    reqwest::Client::builder().pool_idle_timeout(std::time::Duration::from_secs(1)).build().expect("a client")
}

/// A response: status, headers and the JSON body (`Value::Null` when empty or not JSON).
pub struct Reply {
    pub status: StatusCode,
    pub headers: reqwest::header::HeaderMap,
    pub body: Value,
}

impl Reply {
    /// Whether the answer is a kept one served again (`Idempotent-Replayed: true`).
    pub fn replayed(&self) -> bool {
        self.headers.get("idempotent-replayed").is_some_and(|value| value == "true")
    }

    /// Asserts the status and returns the body.
    #[track_caller]
    pub fn expect(self, status: u16) -> Value {
        assert_eq!(self.status.as_u16(), status, "unexpected status; body: {}", self.body);
        self.body
    }

    /// Asserts a problem+json answer with this status and `type` ending, and returns the body.
    #[track_caller]
    pub fn problem(self, status: u16, type_ending: &str) -> Value {
        let content_type =
            self.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        let body = self.expect(status);
        assert_eq!(content_type, "application/problem+json", "{body}");
        let kind = body["type"].as_str().unwrap_or_default();
        assert!(kind.ends_with(type_ending), "type {kind} does not end with {type_ending}: {body}");
        assert_eq!(body["status"], status);
        body
    }

    /// The fields named by a validation problem.
    pub fn fields(&self) -> Vec<String> {
        self.body["errors"]
            .as_array()
            .map(|errors| errors.iter().filter_map(|e| e["field"].as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    }
}

impl TestApp {
    /// Creates another account through the domain; returns its id and key.
    pub fn new_account(&self, name: &str, email: &str) -> (i64, String) {
        let created = self
            .db
            .store()
            .with_uow(|uow| accounts::create_account(uow, &SystemClock, name, email))
            .expect("create an account");
        (created.account_id.get(), created.api_key.secret().to_owned())
    }

    /// Provisions an SMS sender number to an account, as `canvass sender add` does.
    pub fn provision_sender(&self, account: i64, number: &str) {
        let account = canvass_domain::AccountId::new(account);
        let store = self.db.store();
        store.with_uow(|uow| senders::add(uow, &SystemClock, account, number)).expect("provision a sender");
    }

    /// Takes a sender number from an account, as `canvass sender remove` does.
    pub fn remove_sender(&self, account: i64, number: &str) {
        let account = canvass_domain::AccountId::new(account);
        let remove = |uow: &mut dyn UnitOfWork| senders::remove(uow, account, number);
        self.db.store().with_uow(remove).expect("remove a sender");
    }

    /// Revokes the key whose prefix (its first 16 characters) is `prefix`, as `canvass key revoke` does.
    pub fn revoke_key(&self, prefix: &str) {
        self.db.store().with_uow(|uow| accounts::revoke_key(uow, &SystemClock, prefix)).expect("revoke a key");
    }

    /// Sends a request under `/api/v1` with this app's key.
    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        self.call_as(&self.key, method, path, body).await
    }

    /// Sends a request under `/api/v1` with the given key.
    pub async fn call_as(&self, key: &str, method: &str, path: &str, body: Option<Value>) -> Reply {
        self.versioned(key, "v1", method, path, body).await
    }

    /// Sends a request under `/api/v1.5` (the retention rules) with this app's key.
    pub async fn v1_5(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        self.versioned(&self.key, "v1.5", method, path, body).await
    }

    /// Sends a request under `/api/<version>` with the given key.
    pub async fn versioned(&self, key: &str, version: &str, method: &str, path: &str, body: Option<Value>) -> Reply {
        let url = format!("{}/api/{version}{path}", self.address);
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = self.client.request(method, url).header("X-API-KEY", key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        read(request.send().await.expect("send")).await
    }

    /// GET under `/api/v1`.
    pub async fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None).await
    }

    /// POST under `/api/v1`.
    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call("POST", path, Some(body)).await
    }

    /// POST under `/api/v1` as the holder of `api_key`, with `idempotency_key` as the Idempotency-Key.
    pub async fn post_keyed_as(&self, api_key: &str, path: &str, idempotency_key: &str, body: &Value) -> Reply {
        let url = format!("{}/api/v1{path}", self.address);
        let request =
            self.client.post(url).header("X-API-KEY", api_key).header("Idempotency-Key", idempotency_key).json(body);
        read(request.send().await.expect("send")).await
    }

    /// POSTs `body` to `/api/v1{path}` with this app's key and `idempotency_key`: status, whether it was
    /// replayed, body.
    pub async fn post_keyed(&self, path: &str, idempotency_key: &str, body: &Value) -> (StatusCode, bool, Value) {
        let reply = self.post_keyed_as(&self.key, path, idempotency_key, body).await;
        (reply.status, reply.replayed(), reply.body)
    }

    /// The contacts of a sendout's respondents, and its `respondentCount`.
    pub async fn sendout_contacts(&self, survey: i64, sendout: i64) -> (Vec<String>, Value) {
        let listed = self.get(&format!("/surveys/{survey}/sendouts/{sendout}/respondents")).await.expect(200);
        let contacts = listed.as_array().unwrap().iter().map(|r| r["contactDetails"].as_str().unwrap().to_owned());
        let sendout = self.get(&format!("/surveys/{survey}/sendouts/{sendout}")).await.expect(200);
        (contacts.collect(), sendout["respondentCount"].clone())
    }

    /// PUT under `/api/v1`.
    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.call("PUT", path, Some(body)).await
    }

    /// DELETE under `/api/v1`.
    pub async fn delete(&self, path: &str) -> Reply {
        self.call("DELETE", path, None).await
    }

    /// A raw request to any path (no `/api/v1` prefix), with the key, a body and a content type.
    pub async fn raw(&self, method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request =
            self.client.request(method, format!("{}{path}", self.address)).header("X-API-KEY", &self.key).body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        read(request.send().await.expect("send")).await
    }

    /// The statuses of a sendout's respondents (`base` is `/surveys/{id}/sendouts/{id}`), in id order.
    pub async fn statuses(&self, base: &str) -> Vec<String> {
        let list = self.get(&format!("{base}/respondents")).await.expect(200);
        list.as_array().expect("a list").iter().map(|r| r["status"].as_str().expect("status").to_owned()).collect()
    }

    /// In the account behind `key`: a survey made of `survey`, a sendout made of `sendout` and one respondent
    /// made of `person`; returns `(surveyId, sendout base path, sendoutId, respondent)`.
    pub async fn one_respondent_sendout(
        &self,
        key: &str,
        survey: Value,
        sendout: Value,
        person: Value,
    ) -> (i64, String, i64, Value) {
        let survey = self.call_as(key, "POST", "/surveys", Some(survey)).await.expect(201)["surveyId"].as_i64();
        let survey = survey.expect("surveyId");
        let path = format!("/surveys/{survey}/sendouts");
        let sendout = self.call_as(key, "POST", &path, Some(sendout)).await.expect(201)["sendoutId"].as_i64();
        let sendout = sendout.expect("sendoutId");
        let base = format!("{path}/{sendout}");
        let respondent = self.call_as(key, "POST", &format!("{base}/respondents"), Some(person)).await.expect(201);
        (survey, base, sendout, respondent)
    }

    /// An active LOGIN sendout of a one-question survey whose one respondent logs in with `identifier`; returns
    /// the sendout's id.
    pub async fn active_login_sendout(&self, identifier: &str) -> i64 {
        let survey = json!({"name": "Staff", "pages": [{"items": [{"type": "OpenText", "text": "Why?"}]}]});
        let person = json!({"contactDetails": identifier, "sendMail": false});
        let login = json!({"name": "Login", "type": "LOGIN"});
        let (_, base, sendout, _) = self.one_respondent_sendout(&self.key, survey, login, person).await;
        self.post(&format!("{base}/activate"), json!({})).await.expect(200);
        sendout
    }

    /// A client that does not follow redirects, to read a page's `Location`.
    pub fn client_without_redirects() -> reqwest::Client {
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("a client")
    }

    /// Creates the sample survey of the tests and returns `(surveyId, tree)`.
    pub async fn sample_survey(&self) -> (i64, Value) {
        let survey = self.post("/surveys", sample_survey_body()).await.expect(201);
        let id = survey["surveyId"].as_i64().expect("surveyId");
        let tree = self.get(&format!("/surveys/{id}/questions")).await.expect(200);
        (id, tree)
    }
}

async fn read(response: reqwest::Response) -> Reply {
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.expect("read body");
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply { status, headers, body }
}

/// A survey of three pages with every question type.
pub fn sample_survey_body() -> Value {
    json!({
        "name": "Pulse",
        "description": "weekly",
        "pages": [
            {"title": "One", "items": [
                {"type": "SingleChoice", "text": "Happy?", "required": true,
                 "options": [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]},
                {"type": "MultipleChoice", "text": "Why?", "options": [{"value": "pay"}, {"value": "team"}]},
                {"type": "Info", "text": "Next, numbers."}
            ]},
            {"title": "Two", "items": [
                {"type": "Numeric", "text": "Hours?"},
                {"type": "Rating", "text": "Rate us", "required": true}
            ]},
            {"title": "Three", "items": [
                {"type": "OpenText", "text": "Anything else?"}
            ]}
        ]
    })
}

/// The id of item `index` of page `page` in a question tree.
pub fn item_id(tree: &Value, page: usize, index: usize) -> i64 {
    tree["pages"][page]["items"][index]["questionItemId"].as_i64().expect("questionItemId")
}

/// The id of page `page` in a question tree.
pub fn page_id(tree: &Value, page: usize) -> i64 {
    tree["pages"][page]["pageId"].as_i64().expect("pageId")
}

/// Every endpoint of the interface under a version prefix, as the OpenAPI document names it.
pub const ENDPOINTS: [(&str, &str); 65] = [
    ("get", "/surveys"),
    ("post", "/surveys"),
    ("get", "/surveys/{surveyId}"),
    ("get", "/surveys/{surveyId}/copy"),
    ("get", "/surveys/{surveyId}/questions"),
    ("put", "/surveys/{surveyId}/logic"),
    ("delete", "/surveys/{surveyId}/questions/{questionItemId}"),
    ("get", "/surveys/{surveyId}/answers"),
    ("post", "/surveys/{surveyId}/answers"),
    ("get", "/surveys/{surveyId}/answersWithData"),
    ("get", "/surveys/{surveyId}/answers/{answerSetId}"),
    ("put", "/surveys/{surveyId}/answers/{answerSetId}"),
    ("get", "/surveys/{surveyId}/answers/respondent/{respondentId}"),
    ("get", "/surveys/{surveyId}/answers/export"),
    ("get", "/surveys/{surveyId}/answers/{answerSetId}/questionitem/{questionItemId}"),
    ("get", "/surveys/{surveyId}/results"),
    ("get", "/accounts/categories"),
    ("post", "/accounts/categories"),
    ("get", "/accounts/categories/{categoryId}"),
    ("get", "/accounts/users"),
    ("get", "/accounts/users/{userId}"),
    ("get", "/surveys/{surveyId}/sendouts"),
    ("post", "/surveys/{surveyId}/sendouts"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/activate"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/deactivate"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/respondents/batch"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/reminders"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/reminders"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/labels"),
    ("post", "/surveys/{surveyId}/sendouts/{sendoutId}/labels"),
    ("get", "/surveys/{surveyId}/sendouts/{sendoutId}/statistics"),
    ("get", "/bgdata/bgdocuments"),
    ("get", "/bgdata/bgdocuments/{bgDocumentId}"),
    ("get", "/bgdata/bgdocuments/{bgDocumentId}/labels"),
    ("post", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("put", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("post", "/bgdata/bgdocuments/{bgDocumentId}/rows"),
    ("delete", "/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}"),
    ("get", "/accounts/blocklist"),
    ("post", "/accounts/blocklist"),
    ("delete", "/accounts/blocklist/{contactDetails}"),
    ("post", "/accounts/erasure"),
    ("get", "/email-bounces/permanent-failures"),
    ("post", "/email-bounces/permanent-failures"),
    ("get", "/webhooks"),
    ("post", "/webhooks"),
    ("get", "/webhooks/{webhookId}"),
    ("delete", "/webhooks/{webhookId}"),
    ("post", "/webhooks/{webhookId}/test"),
    ("get", "/webhooks/{webhookId}/deliveries"),
    ("get", "/surveys/frequency"),
    ("put", "/surveys/frequency"),
    ("patch", "/surveys/frequency/enable"),
    ("patch", "/surveys/frequency/disable"),
    ("get", "/surveys/{surveyId}/frequency"),
    ("put", "/surveys/{surveyId}/frequency"),
    ("patch", "/surveys/{surveyId}/frequency/enable"),
    ("patch", "/surveys/{surveyId}/frequency/disable"),
    ("get", "/data-retention/account"),
    ("post", "/data-retention/account"),
    ("get", "/data-retention/surveys/{surveyId}"),
    ("post", "/data-retention/surveys/{surveyId}"),
];

/// The endpoints that exist only under `/api/v1.5`.
pub const RULE_ENDPOINTS: [(&str, &str); 13] = [
    ("post", "/data-retention/rules/account"),
    ("post", "/data-retention/rules/surveys/{surveyId}"),
    ("post", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("get", "/data-retention/rules"),
    ("get", "/data-retention/rules/account"),
    ("get", "/data-retention/rules/surveys/{surveyId}"),
    ("get", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}"),
    ("patch", "/data-retention/rules/account/actions/{action}"),
    ("patch", "/data-retention/rules/surveys/{surveyId}/actions/{action}"),
    ("patch", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}"),
    ("delete", "/data-retention/rules/account/actions/{action}"),
    ("delete", "/data-retention/rules/surveys/{surveyId}/actions/{action}"),
    ("delete", "/data-retention/rules/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}"),
];
