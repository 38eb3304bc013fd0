//! The SMS adapter: implements the domain's [`SmsSender`] port by POSTing JSON to a provider's endpoint
//! (`SMS_URL`), or by appending JSON lines to a file for development.
//!
//! The endpoint receives `{"to", "from", "text", "idempotencyKey"}`. A 2xx answer is a hand-over, a 4xx a refusal
//! of that number (permanent), anything else (5xx, no answer) worth trying again later.
//!
//! The endpoint's URL may carry the provider's token (in its path, query or user info), so it is kept as a
//! [`SmsEndpoint`]: its Debug output, its Display and every error message show only its scheme and host.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use canvass_domain::delivery::{blame_sms, Accepted, Hold, HoldKind, OutgoingMessage, SendError, SmsSender};
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;

/// The provider's endpoint URL, kept secret: only [`SmsEndpoint::shown`] (scheme and host) is ever printed.
pub struct SmsEndpoint {
    url: SecretString,
    shown: String,
}

impl SmsEndpoint {
    /// Wraps an endpoint URL.
    pub fn new(url: &str) -> Self {
        let shown = match url::Url::parse(url) {
            Ok(parsed) => match (parsed.host_str(), parsed.port()) {
                (Some(host), Some(port)) => format!("{}://{host}:{port}", parsed.scheme()),
                (Some(host), None) => format!("{}://{host}", parsed.scheme()),
                (None, _) => format!("{}:", parsed.scheme()),
            },
            Err(_) => "(not a URL)".to_owned(),
        };
        Self { url: SecretString::from(url.to_owned()), shown }
    }

    /// The scheme and host, safe to log.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `text` with the URL, and each of its parts that may hold the token, replaced by the scheme and host.
    fn redact(&self, text: &str) -> String {
        let url = self.url.expose_secret();
        let mut redacted = text.replace(url, &self.shown);
        if let Ok(parsed) = url::Url::parse(url) {
            let secrets = [parsed.password(), Some(parsed.username()), parsed.query(), Some(parsed.path())];
            for secret in secrets.into_iter().flatten().filter(|part| part.len() > 1) {
                redacted = redacted.replace(secret, "***");
            }
        }
        redacted
    }
}

impl std::fmt::Debug for SmsEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SmsEndpoint({})", self.shown)
    }
}

impl std::fmt::Display for SmsEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

fn payload(message: &OutgoingMessage) -> serde_json::Value {
    json!({"to": message.to, "from": message.from, "text": message.body, "idempotencyKey": message.idempotency_key})
}

/// Sends through a provider's HTTP endpoint.
pub struct HttpSmsSender {
    agent: ureq::Agent,
    endpoint: SmsEndpoint,
}

impl std::fmt::Debug for HttpSmsSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpSmsSender").field("endpoint", &self.endpoint).finish_non_exhaustive()
    }
}

impl HttpSmsSender {
    /// A sender posting to `endpoint`.
    pub fn new(endpoint: &str) -> Self {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build();
        Self { agent: config.into(), endpoint: SmsEndpoint::new(endpoint) }
    }

    /// The endpoint, which prints as its scheme and host only.
    pub fn endpoint(&self) -> &SmsEndpoint {
        &self.endpoint
    }
}

impl SmsSender for HttpSmsSender {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        let response = self.agent.post(self.endpoint.url.expose_secret()).send_json(payload(message)).map_err(|e| {
            // The endpoint cannot be reached (connection, TLS): the configuration is blamed, the message held.
            let reason = self.endpoint.redact(&format!("SMS endpoint {}: {e}", self.endpoint));
            SendError::Held(Hold::new(HoldKind::Relay, reason))
        })?;
        // Whom a refusal blames (`blame_sms`): 400 and 422 the number, 401/403/404/407 the configuration (never a
        // bounce), 429 and 503 a slow-down (after the endpoint's `Retry-After`, in seconds), other 5xx a later try,
        // any other status this message.
        let status = response.status();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse::<u32>().ok())
            .map(|seconds| time::Duration::seconds(i64::from(seconds)));
        match status.as_u16() {
            200..=299 => Ok(Accepted(format!("SMS endpoint answered {status}"))),
            code => match blame_sms(code).error(format!("SMS endpoint answered {status}")) {
                SendError::Held(hold) => Err(SendError::Held(Hold { retry_after, ..hold })),
                other => Err(other),
            },
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
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        let _guard = self.lock.lock().map_err(|_| SendError::Transient("SMS file lock poisoned".into()))?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| SendError::Transient(e.to_string()))?;
        writeln!(file, "{}", payload(message)).map_err(|e| SendError::Transient(e.to_string()))?;
        Ok(Accepted("appended to sms.jsonl".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://api-user:pa55word@sms.example:8443/v1/tok3n-in-path/send?token=s3cret-token";

    #[test]
    fn debug_and_display_show_only_scheme_and_host() {
        let sender = HttpSmsSender::new(URL);
        for shown in [format!("{sender:?}"), format!("{:?}", sender.endpoint()), sender.endpoint().to_string()] {
            for secret in ["s3cret-token", "pa55word", "api-user", "tok3n-in-path"] {
                assert!(!shown.contains(secret), "{secret} in {shown}");
            }
            assert!(shown.contains("https://sms.example:8443"), "{shown}");
        }
    }

    #[test]
    fn errors_never_carry_the_url() {
        let endpoint = SmsEndpoint::new(URL);
        let redacted = endpoint.redact(&format!("cannot reach {URL}; token=s3cret-token"));
        assert!(!redacted.contains("s3cret-token") && !redacted.contains("pa55word"), "{redacted}");
    }
}
