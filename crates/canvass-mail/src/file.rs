//! The development transport: each email written as an `.eml` file into a folder (`just run` without SMTP_URL).

use std::path::{Path, PathBuf};

use canvass_domain::delivery::{Accepted, Mailer, OutgoingMessage, SendError};
use lettre::{FileTransport, Transport};

use crate::message::email;

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
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Mailer for FileMailer {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        let email = email(message.clone())?;
        let id = self.transport.send_raw(&email.envelope, &email.content);
        let id = id.map_err(|e| SendError::Transient(e.to_string()))?;
        Ok(Accepted(format!("written to {id}.eml")))
    }
}
