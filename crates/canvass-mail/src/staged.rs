//! One message through an open SMTP session (mail-send's client): `MAIL FROM`, `RCPT TO` and `DATA` in one write
//! when the relay offers PIPELINING (RFC 2920), else one by one, then the message. With PIPELINING the next
//! message's commands leave in the same write as this message's content (RFC 2920 allows content to begin a
//! group), so a message costs the relay and this side one exchange, not two; their replies are read when the next
//! message is sent. Each refusal names the stage it answered (`MAIL FROM`, `RCPT TO` or `DATA`), so it can be
//! judged by whom it blames (`canvass_domain::delivery::blame_smtp`).

use std::fmt;

use canvass_domain::delivery::SmtpStage;
use lettre::address::Envelope;
use mail_send::SmtpClient;
use smtp_proto::response::parser::ResponseReceiver;
use smtp_proto::Response;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufStream};

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

/// A message ready for the wire: its envelope, its content as it follows `DATA` (dot-stuffed and ended with
/// `.`), and whether the content is ASCII (else it needs 8BITMIME).
pub(crate) struct Outgoing {
    pub(crate) envelope: Envelope,
    pub(crate) data: Vec<u8>,
    pub(crate) ascii: bool,
}

impl Outgoing {
    /// `email` (a formatted message) for `envelope`, dot-stuffed.
    pub(crate) fn new(envelope: Envelope, email: &[u8]) -> Self {
        Self { envelope, data: dot_stuffed(email), ascii: email.is_ascii() }
    }
}

/// `email` as it follows `DATA` (RFC 5321 4.5.2): a period that starts a line doubled, as mail-send's
/// transparency does it (a line starts after a CR or an LF, and at the start), then `CRLF.CRLF`. Written over a
/// search for the periods: mail-send's, a byte at a time through its writer, was a fifth of the worker's
/// instructions a message, this a twentieth of that (docs/decisions.md, "Messages built by mail-builder").
fn dot_stuffed(email: &[u8]) -> Vec<u8> {
    const END: &[u8] = b"\r\n.\r\n";
    let mut data = Vec::with_capacity(email.len() + email.len() / 64 + END.len());
    let mut copied = 0;
    for period in memchr::memchr_iter(b'.', email) {
        if period == 0 || matches!(email[period - 1], b'\r' | b'\n') {
            data.extend_from_slice(&email[copied..period]);
            data.push(b'.');
            copied = period;
        }
    }
    data.extend_from_slice(&email[copied..]);
    data.extend_from_slice(END);
    data
}

/// An open session: the client, what the relay offers, and whether the session can carry another message.
pub(crate) struct Connection {
    pub(crate) client: SmtpClient<Stream>,
    pub(crate) offers: Offers,
    broken: bool,
    /// What the relay sent past the last reply read: a pipelined group's later replies.
    unread: Vec<u8>,
    /// The next message's commands sent with the last message's content, whose replies are not read yet.
    ahead: Option<usize>,
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
    /// The connection failed before the relay answered the commands sent with the previous message's content:
    /// nothing of this message was taken, and it can go on another session.
    Unanswered(Failure),
}

impl Connection {
    /// A session over `client` whose relay offers `offers`.
    pub(crate) fn new(client: SmtpClient<Stream>, offers: Offers) -> Self {
        Self { client, offers, broken: false, unread: Vec::new(), ahead: None }
    }

    /// Whether the session failed and must not carry another message.
    pub(crate) fn has_broken(&self) -> bool {
        self.broken
    }

    /// Whether the relay still answers (`NOOP`).
    pub(crate) async fn test_connected(&mut self) -> bool {
        let alive = self.ahead.is_none()
            && matches!(self.command("NOOP\r\n").await, Ok(reply) if reply.is_positive_completion());
        self.broken |= !alive;
        alive
    }

    /// Sends `message`, SMTPUTF8 and 8BITMIME when needed and offered, ending the transaction with `RSET` after a
    /// refused command; the relay's reply to the message (`250 2.0.0 Ok: queued as 4F2A`). When the relay
    /// pipelines, `next`'s commands leave with the content (unless `next` cannot go to this relay): the next call
    /// must send `next`, and reads their replies.
    pub(crate) async fn send(&mut self, message: &Outgoing, next: Option<&Outgoing>) -> Result<String, Refusal> {
        let (commands, replies) = match self.ahead.take() {
            Some(count) => (count, self.read_group(count, Refusal::Unanswered).await?),
            None => {
                let commands = self.commands_for(message)?;
                (commands.len(), self.exchange(&commands).await?)
            }
        };
        let stage = |index: usize| match index {
            0 => SmtpStage::MailFrom,
            index if index + 1 == commands => SmtpStage::Data,
            _ => SmtpStage::RcptTo,
        };
        let refused = replies.iter().enumerate().find(|(index, reply)| match stage(*index) {
            SmtpStage::Data => reply.code != 354,
            _ => !reply.is_positive_completion(),
        });
        if let Some((index, reply)) = refused {
            let (stage, reply) = (stage(index), reply.clone());
            if replies.len() == commands && replies.last().is_some_and(|data| data.code == 354) {
                // The relay took DATA after refusing an earlier command of the group: end the empty message.
                let _ = self.command(".\r\n").await;
            }
            self.abort().await;
            return Err(Refusal::At(stage, Failure::Reply(reply)));
        }
        let chained = next.filter(|_| self.offers.pipelining).and_then(|next| self.commands_for(next).ok());
        let reply = match self.write_content(&message.data, chained.as_deref()).await {
            Ok(()) => self.read_reply().await,
            Err(error) => Err(self.failed(error)),
        };
        // A 421 says the relay is closing the session.
        self.broken |= reply.as_ref().is_ok_and(|reply| reply.code == 421);
        self.ahead = chained.filter(|_| !self.broken).map(|commands| commands.len());
        // The reply to the content ends the transaction, refused or not: no `RSET` (it would reach the relay after
        // the next message's commands).
        match reply {
            Ok(reply) if reply.is_positive_completion() => Ok(format!("{} {}", reply.code, reply_text(&reply))),
            Ok(reply) => Err(Refusal::At(SmtpStage::Data, Failure::Reply(reply))),
            Err(failure) => Err(Refusal::At(SmtpStage::Data, failure)),
        }
    }

    /// `message`'s commands, or why this relay cannot take it: a non-ASCII address without SMTPUTF8, non-ASCII
    /// content without 8BITMIME.
    fn commands_for(&self, message: &Outgoing) -> Result<Vec<String>, Refusal> {
        let envelope = &message.envelope;
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
        if !message.ascii {
            if !self.offers.eight_bit_mime {
                return Err(Refusal::Unsendable("the message is not ASCII and the relay offers no 8BITMIME"));
            }
            parameters.push_str(" BODY=8BITMIME");
        }
        let from = envelope.from().map(|address| address.to_string()).unwrap_or_default();
        let mut commands = vec![format!("MAIL FROM:<{from}>{parameters}\r\n")];
        commands.extend(envelope.to().iter().map(|to| format!("RCPT TO:<{to}>\r\n")));
        commands.push("DATA\r\n".to_owned());
        Ok(commands)
    }

    /// The replies to `commands`: all in one group when the relay offers PIPELINING, else one by one up to the
    /// first refusal.
    async fn exchange(&mut self, commands: &[String]) -> Result<Vec<Response<String>>, Refusal> {
        let failed = |failure| Refusal::At(SmtpStage::MailFrom, failure);
        if self.offers.pipelining {
            for command in commands {
                self.write(command.as_bytes()).await.map_err(failed)?;
            }
            self.flush().await.map_err(failed)?;
            return self.read_group(commands.len(), failed).await;
        }
        let mut replies = Vec::with_capacity(commands.len());
        for command in commands {
            let reply = self.command(command).await.map_err(failed)?;
            let refused = !reply.is_positive_completion() && reply.code != 354;
            replies.push(reply);
            if refused {
                break;
            }
        }
        Ok(replies)
    }

    /// The content, then `commands` (the next message's), in one write.
    async fn write_content(&mut self, data: &[u8], commands: Option<&[String]>) -> Result<(), std::io::Error> {
        self.client.stream.write_all(data).await?;
        for command in commands.unwrap_or_default() {
            self.client.stream.write_all(command.as_bytes()).await?;
        }
        self.client.stream.flush().await
    }

    /// One command and its reply.
    async fn command(&mut self, command: &str) -> Result<Response<String>, Failure> {
        self.write(command.as_bytes()).await?;
        self.flush().await?;
        self.read_reply().await
    }

    async fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        let written = self.client.stream.write_all(bytes).await;
        written.map_err(|error| self.failed(error))
    }

    async fn flush(&mut self) -> Result<(), Failure> {
        let flushed = self.client.stream.flush().await;
        flushed.map_err(|error| self.failed(error))
    }

    /// The replies to a pipelined group of `count` commands. When the connection fails before they are all in, a
    /// refusal among those read is the relay's answer (a `421` before it closes); without one, `unanswered` says
    /// what the failure means.
    async fn read_group(
        &mut self,
        count: usize,
        unanswered: fn(Failure) -> Refusal,
    ) -> Result<Vec<Response<String>>, Refusal> {
        let mut replies = Vec::with_capacity(count);
        while replies.len() < count {
            match self.read_reply().await {
                Ok(reply) => replies.push(reply),
                Err(failure) => {
                    return match replies.iter().position(|reply| !reply.is_positive_completion()) {
                        Some(0) => Err(Refusal::At(SmtpStage::MailFrom, Failure::Reply(replies.swap_remove(0)))),
                        Some(index) => Err(Refusal::At(SmtpStage::RcptTo, Failure::Reply(replies.swap_remove(index)))),
                        None => Err(unanswered(failure)),
                    };
                }
            }
        }
        Ok(replies)
    }

    /// The next reply (smtp-proto's parser), keeping what the relay sent after it for the next read.
    async fn read_reply(&mut self) -> Result<Response<String>, Failure> {
        let mut parser = ResponseReceiver::default();
        loop {
            if !self.unread.is_empty() {
                let mut bytes = self.unread.iter();
                match parser.parse(&mut bytes) {
                    Ok(reply) => {
                        let used = self.unread.len() - bytes.as_slice().len();
                        self.unread.drain(..used);
                        return Ok(reply);
                    }
                    // The parser keeps what it read so far.
                    Err(smtp_proto::Error::NeedsMoreData { .. }) => self.unread.clear(),
                    Err(_) => return Err(self.failed(mail_send::Error::UnparseableReply)),
                }
            }
            let mut chunk = [0u8; 1024];
            let read = match self.client.stream.read(&mut chunk).await {
                Ok(0) => return Err(self.failed(std::io::Error::from(std::io::ErrorKind::UnexpectedEof))),
                Ok(read) => read,
                Err(error) => return Err(self.failed(error)),
            };
            self.unread.extend_from_slice(&chunk[..read]);
        }
    }

    /// Ends a refused transaction with `RSET`; a session that cannot is closed.
    async fn abort(&mut self) {
        let reset = matches!(self.command("RSET\r\n").await, Ok(reply) if reply.is_positive_completion());
        if !reset {
            self.broken = true;
            let _ = self.client.stream.shutdown().await;
        }
    }

    /// Marks the session broken after its connection failed.
    fn failed(&mut self, error: impl fmt::Display) -> Failure {
        self.broken = true;
        self.ahead = None;
        Failure::Connection(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What mail-send's own transparency writes for `email`.
    fn by_mail_send(email: &[u8]) -> Vec<u8> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let memory = tokio::io::join(tokio::io::empty(), Vec::new());
            let mut client = SmtpClient { stream: memory, timeout: std::time::Duration::MAX };
            client.write_message(email).await.unwrap();
            client.stream.into_inner().1
        })
    }

    #[test]
    fn a_period_that_starts_a_line_is_doubled_as_mail_send_does_it() {
        let emails: [&[u8]; 6] = [
            b"Subject: x\r\n\r\n.hidden\r\n..two\r\nend.\r\n",
            b"a\r.b\n.c\r\n",
            b"a.\r\n.\r\n.",
            b"no periods at all",
            b"",
            "caf\u{e9}.\r\n.\u{e9}".as_bytes(),
        ];
        for email in emails {
            assert_eq!(dot_stuffed(email), by_mail_send(email), "{}", String::from_utf8_lossy(email));
        }
        assert_eq!(dot_stuffed(b"x\r\n.y"), b"x\r\n..y\r\n.\r\n");
        assert_eq!(dot_stuffed(b".first line"), b"..first line\r\n.\r\n", "the first line too");
    }
}
