//! A response as the tests read it: status, headers and the JSON body, with the assertions they make on it.

use reqwest::StatusCode;
use serde_json::Value;

/// A response: status, headers and the JSON body (`Value::Null` when empty or not JSON).
pub struct Reply {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: reqwest::header::HeaderMap,
    /// The JSON body, `Value::Null` when empty or not JSON.
    pub body: Value,
}

impl Reply {
    /// Reads a response whole.
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.expect("read body");
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Self { status, headers, body }
    }

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
