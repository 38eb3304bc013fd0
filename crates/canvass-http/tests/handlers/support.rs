//! The application over a [`MemoryStore`] with a fixed clock and one seeded account, and the requests and answers
//! the tests speak in.
#![expect(clippy::expect_used, reason = "a helper that cannot do its part fails the test that called it")]

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use actix_web::http::header::HeaderMap;
use actix_web::http::{Method, StatusCode};
use actix_web::test::{self, TestRequest};
use actix_web::web::{self, Bytes};
use canvass_domain::ports::{Readiness, Store, UnitOfWork};
use canvass_domain::testing::{At, MemoryStore, NOW};
use canvass_domain::DomainError;
use canvass_http::problem::{ProblemKind, PROBLEM_JSON};
use canvass_http::{AppState, Protection};
use serde_json::Value;

/// Where the API is asked in these tests (every version serves the same handlers).
pub const API: &str = "/api/v1";

/// Sends one request through the application and reads its whole answer.
type SendRequest = Box<dyn Fn(TestRequest) -> Pin<Box<dyn Future<Output = Reply>>>>;

/// The application in process over an in-memory store, with one account (`Acme`) whose key [`Self::key`] is.
pub struct TestApp {
    /// What the handlers read and write; tests seed it, break it and look into it.
    pub store: Arc<MemoryStore>,
    /// The secret of the seeded account's key.
    pub key: String,
    /// The first 16 characters of that key, as the store keeps them (what revoking names).
    pub key_prefix: String,
    /// Units of work the application borrowed from the store (its blocking hops).
    lends: Arc<AtomicUsize>,
    send: SendRequest,
}

/// The store as the application sees it: the in-memory store, counting the units of work it lends.
struct Counted {
    store: Arc<MemoryStore>,
    lends: Arc<AtomicUsize>,
}

impl Store for Counted {
    fn lend(&self, work: &mut dyn FnMut(&mut dyn UnitOfWork) -> Result<(), DomainError>) -> Result<(), DomainError> {
        self.lends.fetch_add(1, Ordering::SeqCst);
        self.store.lend(work)
    }

    fn readiness(&self) -> Result<Readiness, DomainError> {
        self.store.readiness()
    }
}

impl TestApp {
    /// The application under the default limits.
    pub async fn new() -> Self {
        Self::with_protection(Protection::default()).await
    }

    /// The application under other limits (a small rate, a short key cache).
    pub async fn with_protection(protection: Protection) -> Self {
        let store = Arc::new(MemoryStore::new());
        let owner = store.seed_account("Acme", "owner@acme.example").expect("the account is seeded");
        let lends = Arc::new(AtomicUsize::new(0));
        let counted = Arc::new(Counted { store: store.clone(), lends: lends.clone() });
        let state = AppState::new(counted, Arc::new(At(NOW)), "https://canvass.test").with_protection(protection);
        let service = Rc::new(test::init_service(canvass_http::app(web::Data::new(state))).await);
        let send: SendRequest = Box::new(move |request: TestRequest| {
            let service = Rc::clone(&service);
            Box::pin(async move {
                let response = test::call_service(&*service, request.to_request()).await;
                let (status, headers) = (response.status(), response.headers().clone());
                Reply { status, headers, body: test::read_body(response).await }
            })
        });
        let key = owner.api_key.secret().to_owned();
        Self { store, key, key_prefix: owner.api_key.lookup_prefix().to_owned(), lends, send }
    }

    /// How many units of work the application has borrowed from the store so far.
    pub fn lends(&self) -> usize {
        self.lends.load(Ordering::SeqCst)
    }

    /// Seeds another account and answers its key.
    pub fn other_account(&self, name: &str, email: &str) -> String {
        let created = self.store.seed_account(name, email).expect("the other account is seeded");
        created.api_key.secret().to_owned()
    }

    /// Sends a request as it is.
    pub async fn call(&self, request: TestRequest) -> Reply {
        (self.send)(request).await
    }

    /// A request to `{API}{path}` with the seeded key as `X-API-KEY`.
    pub fn api(&self, method: Method, path: &str) -> TestRequest {
        as_key(&self.key, method, path)
    }

    /// `GET {API}{path}` with the seeded key.
    pub async fn get(&self, path: &str) -> Reply {
        self.call(self.api(Method::GET, path)).await
    }

    /// `POST {API}{path}` with the seeded key and a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> Reply {
        self.call(self.api(Method::POST, path).set_json(body)).await
    }

    /// The names of the seeded account's surveys, as `GET /surveys` lists them.
    pub async fn survey_names(&self) -> Vec<String> {
        let list = self.get("/surveys").await.expect(200);
        let surveys = list.as_array().expect("a list of surveys");
        surveys.iter().map(|survey| survey["name"].as_str().unwrap_or_default().to_owned()).collect()
    }
}

/// A request to `{API}{path}` with `key` as `X-API-KEY`.
pub fn as_key(key: &str, method: Method, path: &str) -> TestRequest {
    TestRequest::default().method(method).uri(&format!("{API}{path}")).insert_header(("X-API-KEY", key))
}

/// A whole answer.
#[derive(Debug)]
pub struct Reply {
    /// Its status.
    pub status: StatusCode,
    /// Its headers.
    pub headers: HeaderMap,
    /// Its body.
    pub body: Bytes,
}

impl Reply {
    /// A header's value; empty when it is missing.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or_default()
    }

    /// The body as JSON, after checking the status.
    #[track_caller]
    pub fn expect(&self, status: u16) -> Value {
        assert_eq!(self.status.as_u16(), status, "answered {}", String::from_utf8_lossy(&self.body));
        serde_json::from_slice(&self.body).expect("the body is JSON")
    }

    /// The problem+json body, after checking that it is a problem of `kind` with that kind's status.
    #[track_caller]
    pub fn problem(&self, kind: ProblemKind) -> Value {
        let problem = self.expect(kind.status().as_u16());
        assert_eq!(self.header("content-type"), PROBLEM_JSON);
        assert_eq!(problem["type"], format!("/problems/{}", kind.name()), "{problem}");
        assert_eq!(problem["status"], kind.status().as_u16());
        problem
    }

    /// A validation problem, answering the field its first error names.
    #[track_caller]
    pub fn invalid_field(&self) -> String {
        let problem = self.problem(ProblemKind::Validation);
        problem["errors"][0]["field"].as_str().unwrap_or_default().to_owned()
    }
}
