//! The SMS adapter: implements the domain's [`SmsSender`] port by POSTing JSON to a provider's endpoint
//! (`SMS_URL`), or by appending JSON lines to a file for development.
//!
//! The endpoint receives `{"to", "from", "text", "idempotencyKey"}`. A 2xx answer is a hand-over, a 4xx a refusal
//! of that number (permanent), anything else (5xx, no answer) worth trying again later.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use canvass_domain::delivery::{OutgoingMessage, SendError, SmsSender};
use serde_json::json;

fn payload(message: &OutgoingMessage) -> serde_json::Value {
    json!({"to": message.to, "from": message.from, "text": message.body, "idempotencyKey": message.idempotency_key})
}

/// Sends through a provider's HTTP endpoint.
pub struct HttpSmsSender {
    agent: ureq::Agent,
    endpoint: String,
}

impl HttpSmsSender {
    /// A sender posting to `endpoint`.
    pub fn new(endpoint: &str) -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build();
        Self { agent: config.into(), endpoint: endpoint.to_owned() }
    }
}

impl SmsSender for HttpSmsSender {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        let response = self
            .agent
            .post(&self.endpoint)
            .send_json(payload(message))
            .map_err(|e| SendError::Transient(format!("SMS endpoint: {e}")))?;
        let status = response.status();
        match status.as_u16() {
            200..=299 => Ok(()),
            400..=499 => Err(SendError::Permanent(format!("SMS endpoint refused the message: {status}"))),
            _ => Err(SendError::Transient(format!("SMS endpoint answered {status}"))),
        }
    }
}

/// Appends each message as a JSON line to `sms.jsonl` in a folder, for development (`just run`).
pub struct FileSmsSender {
    path: PathBuf,
    lock: Mutex<()>,
}

impl FileSmsSender {
    /// A sender writing into `dir`, created when missing.
    pub fn new(dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(Self { path: dir.join("sms.jsonl"), lock: Mutex::new(()) })
    }
}

impl SmsSender for FileSmsSender {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        let _guard = self.lock.lock().map_err(|_| SendError::Transient("SMS file lock poisoned".into()))?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| SendError::Transient(e.to_string()))?;
        writeln!(file, "{}", payload(message)).map_err(|e| SendError::Transient(e.to_string()))
    }
}
