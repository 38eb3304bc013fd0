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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::tests::message;

    #[test]
    fn each_message_is_an_eml_file_a_mail_reader_opens() {
        let dir = tempfile::tempdir().unwrap();
        let mailer = FileMailer::new(dir.path().join("outbox")).unwrap();
        let accepted = mailer.send(&message("HR <hr@acme.example>", "ann@example.com")).unwrap();
        let files: Vec<_> = std::fs::read_dir(mailer.dir()).unwrap().map(|entry| entry.unwrap().path()).collect();
        let eml = files.iter().find(|path| path.extension().is_some_and(|ext| ext == "eml")).expect("an .eml file");
        assert!(accepted.0.contains(eml.file_stem().unwrap().to_str().unwrap()), "{}", accepted.0);
        let content = std::fs::read(eml).unwrap();
        let read = mail_parser::MessageParser::default().parse(&content).unwrap();
        assert_eq!(read.subject(), Some("Your view"));
        assert_eq!(read.body_text(0).as_deref(), Some("Answer: https://survey.example/r/t"));
        assert_eq!(read.to().and_then(|to| to.first()).and_then(|to| to.address()), Some("ann@example.com"));
    }
}
