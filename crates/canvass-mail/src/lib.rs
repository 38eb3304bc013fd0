//! The mail adapter: implements the domain's [`Mailer`] port with lettre, over plain SMTP to a relay
//! (`SMTP_URL`, `smtp://host:port`, credentials only when the URL has them), or into `.eml` files for development.

use std::path::PathBuf;

use canvass_domain::delivery::{Mailer, OutgoingMessage, SendError};
use lettre::message::{header::ContentType, Mailbox};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{FileTransport, Message, SmtpTransport, Transport};

/// Builds the email for a message: a recipient address that cannot be parsed can never be delivered (permanent);
/// a sender address or message that cannot be built fails whoever receives it (unsendable).
fn email(message: &OutgoingMessage) -> Result<Message, SendError> {
    let from: Mailbox = message.from.parse().map_err(|e| SendError::Unsendable(format!("sender address: {e}")))?;
    let to: Mailbox = message.to.parse().map_err(|e| SendError::Permanent(format!("recipient address: {e}")))?;
    Message::builder()
        .from(from)
        .to(to)
        .subject(message.subject.clone().unwrap_or_default())
        .message_id(Some(format!("<{}@canvass>", message.idempotency_key)))
        .header(ContentType::TEXT_PLAIN)
        .body(message.body.clone())
        .map_err(|e| SendError::Unsendable(format!("message: {e}")))
}

/// Sends over SMTP to a relay.
pub struct SmtpMailer {
    transport: SmtpTransport,
}

impl SmtpMailer {
    /// A mailer for `smtp://host:port` (plain SMTP; `smtp://user:pass@host:port` adds credentials).
    pub fn from_url(text: &str) -> Result<Self, String> {
        let url = url::Url::parse(text).map_err(|e| format!("SMTP_URL is not a URL: {e}"))?;
        if url.scheme() != "smtp" {
            return Err("SMTP_URL must be smtp://host:port (plain SMTP to a relay)".into());
        }
        let host = url.host_str().ok_or("SMTP_URL has no host")?;
        let mut builder = SmtpTransport::builder_dangerous(host).port(url.port().unwrap_or(25));
        if !url.username().is_empty() {
            let password = url.password().unwrap_or_default().to_owned();
            builder = builder.credentials(Credentials::new(url.username().to_owned(), password));
        }
        Ok(Self { transport: builder.timeout(Some(std::time::Duration::from_secs(30))).build() })
    }
}

impl Mailer for SmtpMailer {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        self.transport.send(&email(message)?).map(|_| ()).map_err(|error| {
            if error.is_permanent() {
                SendError::Permanent(error.to_string())
            } else {
                SendError::Transient(error.to_string())
            }
        })
    }
}

/// Writes each message as an `.eml` file into a folder, for development (`just run`).
pub struct FileMailer {
    transport: FileTransport,
    dir: PathBuf,
}

impl FileMailer {
    /// A mailer writing into `dir`, created when missing.
    pub fn new(dir: impl Into<PathBuf>) -> std::io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(Self { transport: FileTransport::new(&dir), dir })
    }

    /// The folder messages are written to.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }
}

impl Mailer for FileMailer {
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError> {
        self.transport.send(&email(message)?).map(|_| ()).map_err(|e| SendError::Transient(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(from: &str, to: &str) -> OutgoingMessage {
        OutgoingMessage {
            idempotency_key: "inv-1-1".into(),
            to: to.into(),
            from: from.into(),
            subject: Some("Your view".into()),
            body: "Answer".into(),
        }
    }

    #[test]
    fn a_bad_sender_fails_the_message_and_a_bad_recipient_bounces() {
        assert!(email(&message("hr@acme.example", "ann@example.com")).is_ok());
        assert!(matches!(email(&message("hr@@acme", "ann@example.com")), Err(SendError::Unsendable(_))));
        assert!(matches!(email(&message("hr@acme.example", "ann@@example")), Err(SendError::Permanent(_))));
    }
}
