//! One message through an open SMTP session (mail-send's client): `MAIL FROM`, `RCPT TO` and `DATA` in one write
//! when the relay offers PIPELINING (RFC 2920), else one by one, then the message. Each refusal names the stage it
//! answered (`MAIL FROM`, `RCPT TO` or `DATA`), so it can be judged by whom it blames
//! (`canvass_domain::delivery::blame_smtp`).

use std::fmt;

use canvass_domain::delivery::SmtpStage;
use lettre::address::Envelope;
use mail_send::SmtpClient;
use smtp_proto::Response;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufStream};

/// A connection to the relay, plain or TLS.
pub(crate) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// A connection's bytes, buffered so that a pipelined group of commands leaves in one segment.
pub(crate) type Stream = BufStream<Box<dyn Io>>;

/// What the relay offered in its answer to `EHLO`, as far as sending needs it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Offers {
    pub(crate) pipelining: bool,
    pub(crate) smtputf8: bool,
    pub(crate) eight_bit_mime: bool,
}

/// An open session: the client, what the relay offers, and whether the session can carry another message.
pub(crate) struct Connection {
    pub(crate) client: SmtpClient<Stream>,
    pub(crate) offers: Offers,
    broken: bool,
}

/// Why the relay did not take a message at a stage: its reply, or the connection failing.
#[derive(Debug)]
pub(crate) enum Failure {
    Reply(Response<String>),
    Connection(String),
}

impl Failure {
    /// The reply's code, if the relay replied.
    pub(crate) fn code(&self) -> Option<u16> {
        match self {
            Failure::Reply(reply) => Some(reply.code),
            Failure::Connection(_) => None,
        }
    }

    /// The reply's text with its enhanced status code (`5.1.1 no such user`); empty for a failed connection.
    pub(crate) fn reply_text(&self) -> String {
        match self {
            Failure::Reply(reply) => reply_text(reply),
            Failure::Connection(_) => String::new(),
        }
    }
}

/// A reply's text with its enhanced status code (`2.0.0 Ok: queued as 4F2A`).
fn reply_text(reply: &Response<String>) -> String {
    match reply.esc {
        [0, 0, 0] => reply.message.clone(),
        [class, subject, detail] => format!("{class}.{subject}.{detail} {}", reply.message),
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Reply(reply) => write!(f, "{} {}", reply.code, reply_text(reply)),
            Failure::Connection(error) => write!(f, "the connection failed: {error}"),
        }
    }
}

/// Why a message was not taken.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// A fault of this side found before anything was sent: an address or a body this relay cannot take.
    Unsendable(&'static str),
    /// The relay's refusal at this stage (a reply, or the connection failing).
    At(SmtpStage, Failure),
}

impl Connection {
    /// A session over `client` whose relay offers `offers`.
    pub(crate) fn new(client: SmtpClient<Stream>, offers: Offers) -> Self {
        Self { client, offers, broken: false }
    }

    /// Whether the session failed and must not carry another message.
    pub(crate) fn has_broken(&self) -> bool {
        self.broken
    }

    /// Whether the relay still answers (`NOOP`).
    pub(crate) async fn test_connected(&mut self) -> bool {
        let alive = matches!(self.client.cmd(b"NOOP\r\n").await, Ok(reply) if reply.is_positive_completion());
        self.broken |= !alive;
        alive
    }

    /// Sends `email` to the envelope's recipients (SMTPUTF8 and 8BITMIME when needed and offered), ending the
    /// transaction with `RSET` after a refusal; the relay's reply to the message (`250 2.0.0 Ok: queued as 4F2A`).
    pub(crate) async fn send(&mut self, envelope: &Envelope, email: &[u8]) -> Result<String, Refusal> {
        let mut parameters = String::new();
        let non_ascii = envelope
            .from()
            .into_iter()
            .chain(envelope.to())
            .any(|address: &lettre::Address| !AsRef::<str>::as_ref(address).is_ascii());
        if non_ascii {
            if !self.offers.smtputf8 {
                return Err(Refusal::Unsendable(
                    "the envelope has non-ASCII addresses and the relay offers no SMTPUTF8",
                ));
            }
            parameters.push_str(" SMTPUTF8");
        }
        if !email.is_ascii() {
            if !self.offers.eight_bit_mime {
                return Err(Refusal::Unsendable("the message is not ASCII and the relay offers no 8BITMIME"));
            }
            parameters.push_str(" BODY=8BITMIME");
        }
        let from = envelope.from().map(|address| address.to_string()).unwrap_or_default();
        let mut commands = vec![format!("MAIL FROM:<{from}>{parameters}\r\n")];
        commands.extend(envelope.to().iter().map(|to| format!("RCPT TO:<{to}>\r\n")));
        commands.push("DATA\r\n".to_owned());
        let stage = |index: usize| match index {
            0 => SmtpStage::MailFrom,
            index if index + 1 == commands.len() => SmtpStage::Data,
            _ => SmtpStage::RcptTo,
        };
        let replies = self.commands(&commands).await.map_err(|error| Refusal::At(SmtpStage::MailFrom, error))?;
        let refused = replies.iter().enumerate().find(|(index, reply)| match stage(*index) {
            SmtpStage::Data => reply.code != 354,
            _ => !reply.is_positive_completion(),
        });
        if let Some((index, reply)) = refused {
            let (stage, reply) = (stage(index), reply.clone());
            if replies.last().is_some_and(|data| data.code == 354) {
                // The relay took DATA after refusing an earlier command of the group: end the empty message.
                let _ = self.client.cmd(b".\r\n").await;
            }
            self.abort().await;
            return Err(Refusal::At(stage, Failure::Reply(reply)));
        }
        let written = self.client.write_message(email).await;
        let reply = match written {
            Ok(()) => self.client.read().await.map_err(|error| self.failed(&error)),
            Err(error) => Err(self.failed(&mail_send::Error::Io(error))),
        };
        match reply {
            Ok(reply) if reply.is_positive_completion() => Ok(format!("{} {}", reply.code, reply_text(&reply))),
            Ok(reply) => {
                self.abort().await;
                Err(Refusal::At(SmtpStage::Data, Failure::Reply(reply)))
            }
            Err(failure) => Err(Refusal::At(SmtpStage::Data, failure)),
        }
    }

    /// The replies to `commands`: all in one group when the relay offers PIPELINING, else one by one up to the
    /// first refusal.
    async fn commands(&mut self, commands: &[String]) -> Result<Vec<Response<String>>, Failure> {
        if self.offers.pipelining {
            return self.client.cmds(commands).await.map_err(|error| self.failed(&error));
        }
        let mut replies = Vec::with_capacity(commands.len());
        for command in commands {
            let reply = self.client.cmd(command).await.map_err(|error| self.failed(&error))?;
            let refused = !reply.is_positive_completion() && reply.code != 354;
            replies.push(reply);
            if refused {
                break;
            }
        }
        Ok(replies)
    }

    /// Ends a refused transaction with `RSET`; a session that cannot is closed.
    async fn abort(&mut self) {
        let reset = matches!(self.client.cmd(b"RSET\r\n").await, Ok(reply) if reply.is_positive_completion());
        if !reset {
            self.broken = true;
            let _ = self.client.stream.shutdown().await;
        }
    }

    /// Marks the session broken after its connection failed.
    fn failed(&mut self, error: &mail_send::Error) -> Failure {
        self.broken = true;
        Failure::Connection(error.to_string())
    }
}
