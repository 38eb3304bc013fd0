//! The JSON client of a [`TestApp`]: requests under a version prefix with a key, raw requests, and the reads
//! several tests repeat (a sendout's statuses, waiting until every invitation is sent).

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use crate::{Reply, TestApp};

impl TestApp {
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
        Reply::read(request.send().await.expect("send")).await
    }

    /// POST of a CSV body (`text/csv`) under `/api/v1`: bytes, or a stream of them.
    pub async fn post_csv(&self, path: &str, body: impl Into<reqwest::Body>) -> Reply {
        let url = format!("{}/api/v1{path}", self.address);
        let request = self.client.post(url).header("X-API-KEY", &self.key).header("Content-Type", "text/csv");
        Reply::read(request.body(body).send().await.expect("send")).await
    }

    /// GET under `/api/v1`.
    pub async fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None).await
    }

    /// POST under `/api/v1`.
    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.call("POST", path, Some(body)).await
    }

    /// PUT under `/api/v1`.
    pub async fn put(&self, path: &str, body: Value) -> Reply {
        self.call("PUT", path, Some(body)).await
    }

    /// DELETE under `/api/v1`.
    pub async fn delete(&self, path: &str) -> Reply {
        self.call("DELETE", path, None).await
    }

    /// POST under `/api/v1` as the holder of `api_key`, with `idempotency_key` as the Idempotency-Key.
    pub async fn post_keyed_as(&self, api_key: &str, path: &str, idempotency_key: &str, body: &Value) -> Reply {
        let url = format!("{}/api/v1{path}", self.address);
        let request =
            self.client.post(url).header("X-API-KEY", api_key).header("Idempotency-Key", idempotency_key).json(body);
        Reply::read(request.send().await.expect("send")).await
    }

    /// POSTs `body` to `/api/v1{path}` with this app's key and `idempotency_key`: status, whether it was
    /// replayed, body.
    pub async fn post_keyed(&self, path: &str, idempotency_key: &str, body: &Value) -> (StatusCode, bool, Value) {
        let reply = self.post_keyed_as(&self.key, path, idempotency_key, body).await;
        (reply.status, reply.replayed(), reply.body)
    }

    /// A raw request to any path (no `/api/v1` prefix), with the key, a body and a content type.
    pub async fn raw(&self, method: &str, path: &str, content_type: Option<&str>, body: Vec<u8>) -> Reply {
        self.raw_as(&self.key, method, path, content_type, body).await
    }

    /// [`Self::raw`] with another key.
    pub async fn raw_as(
        &self,
        key: &str,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request =
            self.client.request(method, format!("{}{path}", self.address)).header("X-API-KEY", key).body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        Reply::read(request.send().await.expect("send")).await
    }

    /// A client that does not follow redirects, to read a page's `Location`.
    pub fn client_without_redirects() -> reqwest::Client {
        reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("a client")
    }

    /// The statuses of a sendout's respondents (`base` is `/surveys/{id}/sendouts/{id}`), in id order.
    pub async fn statuses(&self, base: &str) -> Vec<String> {
        let list = self.get(&format!("{base}/respondents")).await.expect(200);
        list.as_array().expect("a list").iter().map(|r| r["status"].as_str().expect("status").to_owned()).collect()
    }

    /// Waits until every respondent of the sendout (`base` as for [`Self::statuses`]) is Sent.
    pub async fn all_sent(&self, base: &str, within: Duration) {
        let started = Instant::now();
        while !self.statuses(base).await.iter().all(|s| s == "Sent") {
            assert!(started.elapsed() < within, "not every invitation was sent: {:?}", self.statuses(base).await);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
