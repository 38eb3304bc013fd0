//! The SMTP sink: accepts mail, keeps every message, and answers chosen recipients with a permanent (5xx) or
//! transient (4xx) refusal; it can also act as a relay that speaks TLS (STARTTLS or implicit) and requires AUTH.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use rustls::{ServerConfig, ServerConnection, StreamOwned};

use crate::tls::TestCa;

/// A running sink.
#[derive(Clone)]
pub struct SmtpSink {
    /// `smtp://127.0.0.1:<port>`, or `smtps://127.0.0.1:<port>` for a sink with implicit TLS.
    pub url: String,
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    connections: Arc<AtomicUsize>,
    resets: Arc<AtomicUsize>,
    /// While set, every new session is greeted with this reply and closed (a relay in maintenance).
    refusing: Arc<Mutex<Option<String>>>,
}

/// A message the sink kept, and how it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// Headers and body as sent.
    pub message: String,
    /// Whether the session was encrypted (after STARTTLS, or implicit TLS).
    pub tls: bool,
    /// The user that authenticated on the session, if any.
    pub user: Option<String>,
    /// The envelope sender (`MAIL FROM`), where bounces go.
    pub mail_from: String,
    /// When it arrived.
    pub at: std::time::SystemTime,
    /// Whether its `MAIL FROM` had already arrived when the session's previous message ended: the client sent it
    /// with that message's content (RFC 2920 pipelining across messages).
    pub came_with_previous: bool,
}

impl SmtpSink {
    /// Starts a sink; recipients containing `refuse_5xx` get 550, those containing `refuse_4xx` get 451.
    pub fn start(refuse_5xx: &'static str, refuse_4xx: &'static str) -> Self {
        Self::with_delay(refuse_5xx, refuse_4xx, Duration::ZERO)
    }

    /// A sink that takes `delay` to accept each message, like a relay under load.
    pub fn with_delay(refuse_5xx: &'static str, refuse_4xx: &'static str, delay: Duration) -> Self {
        Self::builder().refuse_5xx(refuse_5xx).refuse_4xx(refuse_4xx).delay(delay).start()
    }

    /// A sink to configure: refusals, delay, TLS and AUTH.
    pub fn builder() -> SmtpSinkBuilder {
        SmtpSinkBuilder::default()
    }

    /// From now on greets every new session with `greeting` (`421 4.3.2 maintenance`, say) and closes it, as a
    /// relay that refuses for a while; `None` takes sessions again.
    pub fn refuse_sessions(&self, greeting: Option<&str>) {
        *self.refusing.lock().unwrap() = greeting.map(str::to_owned);
    }

    /// The local port the sink listens on (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// How many messages were received so far.
    pub fn count(&self) -> usize {
        self.received.lock().unwrap().len()
    }

    /// Every message received so far (headers and body as sent).
    pub fn messages(&self) -> Vec<String> {
        self.received.lock().unwrap().iter().map(|r| r.message.clone()).collect()
    }

    /// Every message received so far, with whether it came over TLS and who authenticated.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// How many `RSET` commands the sink took so far, over all sessions.
    pub fn resets(&self) -> usize {
        self.resets.load(Ordering::SeqCst)
    }

    /// How many connections the sink accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

#[derive(Clone, Default)]
enum TlsMode {
    #[default]
    None,
    StartTls(Arc<ServerConfig>),
    Implicit(Arc<ServerConfig>),
}

/// Configures a sink before it starts: see [`SmtpSink::builder`].
#[derive(Default)]
pub struct SmtpSinkBuilder {
    refuse_5xx: String,
    refuse_4xx: String,
    /// The reply to every `MAIL FROM`, when set.
    refuse_mail: Option<String>,
    /// Recipients containing the pattern get the reply at the end of `DATA`, after the message was sent.
    refuse_data: Option<(String, String)>,
    /// Recipients containing the pattern get the reply to `RCPT TO`.
    refuse_rcpt: Option<(String, String)>,
    /// At most this many messages a second; recipients beyond get `454 4.7.0 Throttling failure`.
    throttle: Option<usize>,
    delay: Duration,
    tls: TlsMode,
    auth: Option<(String, String)>,
    max_sessions: Option<usize>,
    /// Closes a session once it has taken this many messages (after replying to the last one's content).
    messages_per_session: Option<usize>,
    /// Answers `DATA` with 354 even when no recipient was taken, as a careless server does.
    data_without_recipients: bool,
}

impl SmtpSinkBuilder {
    /// Answers `DATA` with `354` even when no recipient was taken (and keeps the empty message that follows), as a
    /// careless server does; by default `DATA` without recipients gets `554`, as from Postfix.
    pub fn take_data_without_recipients(mut self) -> Self {
        self.data_without_recipients = true;
        self
    }

    /// Recipients containing `pattern` get `550 5.1.1` (empty: none).
    pub fn refuse_5xx(mut self, pattern: impl Into<String>) -> Self {
        self.refuse_5xx = pattern.into();
        self
    }

    /// Recipients containing `pattern` get `451 4.3.0` (empty: none).
    pub fn refuse_4xx(mut self, pattern: impl Into<String>) -> Self {
        self.refuse_4xx = pattern.into();
        self
    }

    /// Answers every `MAIL FROM` with `reply` (`553 5.7.1 sender not owned`, say), as a relay that refuses the sender.
    pub fn refuse_mail(mut self, reply: impl Into<String>) -> Self {
        self.refuse_mail = Some(reply.into());
        self
    }

    /// Answers the end of `DATA` with `reply` (`554 5.7.1 refused as spam`, say) for messages to a recipient
    /// containing `pattern`, keeping nothing of them.
    pub fn refuse_data(mut self, pattern: impl Into<String>, reply: impl Into<String>) -> Self {
        self.refuse_data = Some((pattern.into(), reply.into()));
        self
    }

    /// Answers `RCPT TO` with `reply` (`454 4.7.0 Throttling failure`, `452 4.2.2 mailbox full`, say) for
    /// recipients containing `pattern`.
    pub fn refuse_rcpt(mut self, pattern: impl Into<String>, reply: impl Into<String>) -> Self {
        self.refuse_rcpt = Some((pattern.into(), reply.into()));
        self
    }

    /// Takes at most `per_second` messages in any second, as Amazon SES does; a recipient beyond that gets
    /// `454 4.7.0 Throttling failure: Maximum sending rate exceeded.`.
    pub fn throttle(mut self, per_second: usize) -> Self {
        self.throttle = Some(per_second);
        self
    }

    /// Takes `delay` to accept each message, like a relay under load.
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Offers STARTTLS with a certificate issued by `ca` (like port 587), and refuses `MAIL` before it.
    pub fn starttls(mut self, ca: &TestCa) -> Self {
        self.tls = TlsMode::StartTls(ca.server_config());
        self
    }

    /// Speaks TLS from the first byte (smtps, like port 465) with a certificate issued by `ca`.
    pub fn implicit_tls(mut self, ca: &TestCa) -> Self {
        self.tls = TlsMode::Implicit(ca.server_config());
        self
    }

    /// Offers `AUTH PLAIN LOGIN` (after TLS when TLS is configured) and refuses `MAIL` until these credentials
    /// are given.
    pub fn require_auth(mut self, user: impl Into<String>, password: impl Into<String>) -> Self {
        self.auth = Some((user.into(), password.into()));
        self
    }

    /// Takes at most `sessions` connections at once, like a relay with a connection limit; one more is greeted
    /// with `421 4.7.0 Too many connections` and closed.
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = Some(sessions);
        self
    }

    /// Closes each session after it has taken `messages` messages, right after the reply to the last one's
    /// content, whatever the client sent after it (as a relay with a per-connection message limit may).
    pub fn messages_per_session(mut self, messages: usize) -> Self {
        self.messages_per_session = Some(messages);
        self
    }

    /// Starts the sink on a free local port.
    pub fn start(self) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let scheme = if matches!(self.tls, TlsMode::Implicit(_)) { "smtps" } else { "smtp" };
        let sink = SmtpSink {
            url: format!("{scheme}://127.0.0.1:{port}"),
            port,
            received: Arc::new(Mutex::new(Vec::new())),
            connections: Arc::new(AtomicUsize::new(0)),
            resets: Arc::new(AtomicUsize::new(0)),
            refusing: Arc::new(Mutex::new(None)),
        };
        let config = Arc::new(self);
        let (kept, connections, refusing) = (sink.received.clone(), sink.connections.clone(), sink.refusing.clone());
        let (active, resets) = (Arc::new(AtomicUsize::new(0)), sink.resets.clone());
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                connections.fetch_add(1, Ordering::SeqCst);
                if let Some(greeting) = refusing.lock().unwrap().clone() {
                    let _ = stream.write_all(format!("{greeting}\r\n").as_bytes());
                    continue;
                }
                if config.max_sessions.is_some_and(|max| active.load(Ordering::SeqCst) >= max) {
                    let _ = stream.write_all(b"421 4.7.0 Too many connections\r\n");
                    continue;
                }
                active.fetch_add(1, Ordering::SeqCst);
                let (kept, config, active, resets) = (kept.clone(), config.clone(), active.clone(), resets.clone());
                std::thread::spawn(move || {
                    serve(stream, &kept, &config, &resets);
                    active.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        sink
    }
}

/// A connection, before or after TLS.
enum Conn {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ServerConnection, TcpStream>>),
}

impl Conn {
    fn tcp(&self) -> &TcpStream {
        match self {
            Conn::Plain(tcp) => tcp,
            Conn::Tls(tls) => tls.get_ref(),
        }
    }

    /// Completes a server handshake on `tcp`; `None` if it fails (say, the client does not trust the CA).
    fn handshake(mut tcp: TcpStream, config: &Arc<ServerConfig>) -> Option<Conn> {
        let mut tls = ServerConnection::new(config.clone()).ok()?;
        while tls.is_handshaking() {
            tls.complete_io(&mut tcp).ok()?;
        }
        Some(Conn::Tls(Box::new(StreamOwned::new(tls, tcp))))
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(tcp) => tcp.read(buf),
            Conn::Tls(tls) => tls.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(tcp) => tcp.write(buf),
            Conn::Tls(tls) => tls.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Conn::Plain(tcp) => tcp.flush(),
            Conn::Tls(tls) => tls.flush(),
        }
    }
}

/// Acknowledges received data at once instead of after the delayed-ACK timer, so a client that writes a
/// message in several small segments (Nagle) is not held up by this sink; Linux resets it after each read.
fn quick_ack(stream: &TcpStream) {
    #[cfg(target_os = "linux")]
    let _ = socket2::SockRef::from(stream).set_tcp_quickack(true);
    #[cfg(not(target_os = "linux"))]
    let _ = stream;
}

fn reply(reader: &mut BufReader<Conn>, text: &str) -> io::Result<()> {
    let conn = reader.get_mut();
    conn.write_all(format!("{text}\r\n").as_bytes())?;
    conn.flush()
}

/// The next line, with its line ending; `None` when the client went away.
fn read_line(reader: &mut BufReader<Conn>) -> Option<String> {
    let mut line = String::new();
    quick_ack(reader.get_ref().tcp());
    match reader.read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<Received>>, config: &SmtpSinkBuilder, resets: &AtomicUsize) {
    let _ = stream.set_nodelay(true);
    let conn = match &config.tls {
        TlsMode::Implicit(tls) => match Conn::handshake(stream, tls) {
            Some(conn) => conn,
            None => return,
        },
        _ => Conn::Plain(stream),
    };
    let mut reader = BufReader::new(conn);
    if reply(&mut reader, "220 sink ready").is_err() {
        return;
    }
    let starttls = match &config.tls {
        TlsMode::StartTls(tls) => Some(tls),
        _ => None,
    };
    let mut user: Option<String> = None;
    let mut mail_from = String::new();
    // The recipients of the transaction, as their `RCPT TO` lines.
    let mut rcpt_to = String::new();
    // Whether a `MAIL FROM` was taken and its transaction not yet ended.
    let mut in_transaction = false;
    // Whether the next `MAIL FROM` was in the buffer when the last message ended, and whether this transaction's was.
    let (mut next_came_with_content, mut came_with_previous) = (false, false);
    let mut taken = 0;
    loop {
        let Some(line) = read_line(&mut reader) else { return };
        let tls = matches!(reader.get_ref(), Conn::Tls(_));
        let command = line.trim_end().to_ascii_uppercase();
        let tls_missing = starttls.is_some() && !tls;
        let answer: String = if command.starts_with("EHLO") {
            // PIPELINING as real relays offer it: the client may send MAIL, RCPT and DATA in one write.
            let mut features = vec!["sink", "PIPELINING"];
            if tls_missing {
                features.push("STARTTLS");
            } else if config.auth.is_some() {
                features.push("AUTH PLAIN LOGIN");
            }
            let last = features.len() - 1;
            let lines: Vec<String> = features
                .iter()
                .enumerate()
                .map(|(i, feature)| format!("250{}{feature}", if i == last { ' ' } else { '-' }))
                .collect();
            lines.join("\r\n")
        } else if command.starts_with("HELO") {
            "250 sink".into()
        } else if command == "STARTTLS" {
            match starttls {
                Some(tls_config) if !tls => {
                    if reply(&mut reader, "220 2.0.0 ready").is_err() {
                        return;
                    }
                    // Anything the client sent before the handshake is dropped with the buffer, as it must be.
                    let Conn::Plain(tcp) = reader.into_inner() else { return };
                    let Some(conn) = Conn::handshake(tcp, tls_config) else { return };
                    reader = BufReader::new(conn);
                    user = None;
                    continue;
                }
                Some(_) => "503 5.5.1 TLS already active".into(),
                None => "502 5.5.1 STARTTLS not supported".into(),
            }
        } else if command.starts_with("AUTH") {
            match &config.auth {
                None => "503 5.5.1 AUTH not enabled".into(),
                Some(_) if tls_missing => "530 5.7.0 Must issue a STARTTLS command first".into(),
                Some(_) if user.is_some() => "503 5.5.1 Already authenticated".into(),
                Some(credentials) => {
                    let Some((answer, name)) = authenticate(&mut reader, line.trim_end(), credentials) else { return };
                    user = name;
                    answer.into()
                }
            }
        } else if command.starts_with("MAIL") && tls_missing {
            "530 5.7.0 Must issue a STARTTLS command first".into()
        } else if command.starts_with("MAIL") && config.auth.is_some() && user.is_none() {
            "530 5.7.0 Authentication required".into()
        } else if let (true, Some(refusal)) = (command.starts_with("MAIL"), &config.refuse_mail) {
            (mail_from, in_transaction) = (String::new(), false);
            refusal.clone()
        } else if command.starts_with("MAIL") {
            rcpt_to.clear();
            in_transaction = true;
            came_with_previous = std::mem::take(&mut next_came_with_content);
            mail_from =
                line.split_once('<').and_then(|(_, rest)| rest.split_once('>')).map_or("", |(a, _)| a).to_owned();
            "250 ok".into()
        } else if command.starts_with("RCPT") && !in_transaction {
            "503 5.5.1 need MAIL command".into()
        } else if let (true, Some((_, refusal))) = (
            command.starts_with("RCPT"),
            config.refuse_rcpt.as_ref().filter(|(pattern, _)| line.contains(pattern.as_str())),
        ) {
            refusal.clone()
        } else if command.starts_with("RCPT") && over_the_rate(kept, config.throttle) {
            "454 4.7.0 Throttling failure: Maximum sending rate exceeded.".into()
        } else if command.starts_with("RCPT") && !config.refuse_5xx.is_empty() && line.contains(&config.refuse_5xx) {
            "550 5.1.1 no such user".into()
        } else if command.starts_with("RCPT") && !config.refuse_4xx.is_empty() && line.contains(&config.refuse_4xx) {
            "451 4.3.0 try again later".into()
        } else if command.starts_with("RCPT") {
            rcpt_to.push_str(&line);
            "250 ok".into()
        } else if command == "DATA" && rcpt_to.is_empty() && !config.data_without_recipients {
            // As Postfix answers DATA when no recipient was taken (a pipelining client sends it regardless).
            "554 5.5.1 no valid recipients".into()
        } else if command == "DATA" {
            if reply(&mut reader, "354 go ahead").is_err() {
                return;
            }
            let mut message = String::new();
            loop {
                // The client went away in the middle of the message: like a real relay, keep nothing.
                let Some(data) = read_line(&mut reader) else { return };
                if data == ".\r\n" {
                    next_came_with_content = reader.buffer().starts_with(b"MAIL");
                    break;
                }
                message.push_str(&data);
            }
            std::thread::sleep(config.delay);
            let answer = match &config.refuse_data {
                Some((pattern, refusal)) if rcpt_to.contains(pattern.as_str()) => refusal.clone(),
                _ => {
                    let at = std::time::SystemTime::now();
                    let received = Received {
                        message,
                        tls,
                        user: user.clone(),
                        mail_from: mail_from.clone(),
                        at,
                        came_with_previous,
                    };
                    kept.lock().unwrap().push(received);
                    taken += 1;
                    if config.messages_per_session == Some(taken) {
                        let _ = reply(&mut reader, "250 queued");
                        return;
                    }
                    "250 queued".into()
                }
            };
            (in_transaction, rcpt_to) = (false, String::new());
            answer
        } else if command == "RSET" {
            resets.fetch_add(1, Ordering::SeqCst);
            (in_transaction, rcpt_to) = (false, String::new());
            "250 ok".into()
        } else if command == "QUIT" {
            let _ = reply(&mut reader, "221 bye");
            return;
        } else {
            "250 ok".into()
        };
        // A 421 closes the session, as RFC 5321 has it.
        if reply(&mut reader, &answer).is_err() || answer.starts_with("421") {
            return;
        }
    }
}

/// Whether `per_second` messages or more arrived within the last second.
fn over_the_rate(kept: &Mutex<Vec<Received>>, per_second: Option<usize>) -> bool {
    let Some(per_second) = per_second else { return false };
    let now = std::time::SystemTime::now();
    let recent = |received: &&Received| now.duration_since(received.at).is_ok_and(|ago| ago < Duration::from_secs(1));
    kept.lock().unwrap().iter().rev().filter(recent).count() >= per_second
}

/// Runs an `AUTH PLAIN` or `AUTH LOGIN` exchange that began with `command`: the answer and, on success, the user;
/// `None` when the client went away.
fn authenticate(
    reader: &mut BufReader<Conn>,
    command: &str,
    (expected_user, expected_password): &(String, String),
) -> Option<(&'static str, Option<String>)> {
    let mut words = command.split_whitespace().skip(1);
    let mechanism = words.next().unwrap_or_default().to_ascii_uppercase();
    let initial = words.next().map(str::to_owned);
    // Sends `challenge` unless the client already gave its response, and decodes the response.
    let mut ask = |challenge: &str, given: Option<String>| -> Option<Option<String>> {
        let response = match given {
            Some(response) => response,
            None => {
                reply(reader, challenge).ok()?;
                read_line(reader)?
            }
        };
        let decoded = BASE64.decode(response.trim()).ok().and_then(|bytes| String::from_utf8(bytes).ok());
        Some(decoded)
    };
    let (user, password) = match mechanism.as_str() {
        "PLAIN" => {
            let Some(decoded) = ask("334 ", initial)? else { return Some((DECODE_FAILED, None)) };
            // authorization identity NUL authentication identity NUL password
            let mut parts = decoded.splitn(3, '\0').skip(1);
            (parts.next().unwrap_or_default().to_owned(), parts.next().unwrap_or_default().to_owned())
        }
        "LOGIN" => {
            let Some(user) = ask("334 VXNlcm5hbWU6", initial)? else { return Some((DECODE_FAILED, None)) };
            let Some(password) = ask("334 UGFzc3dvcmQ6", None)? else { return Some((DECODE_FAILED, None)) };
            (user, password)
        }
        _ => return Some(("504 5.5.4 Unrecognized authentication type", None)),
    };
    if &user == expected_user && &password == expected_password {
        Some(("235 2.7.0 Authentication successful", Some(user)))
    } else {
        Some(("535 5.7.8 Authentication credentials invalid", None))
    }
}

const DECODE_FAILED: &str = "501 5.5.2 Cannot decode response";

#[cfg(test)]
mod tests {
    use lettre::message::Mailbox;
    use lettre::transport::smtp::authentication::{Credentials, Mechanism};
    use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
    use lettre::{Message, SmtpTransport, Transport};

    use super::*;

    fn params(ca: &TestCa) -> TlsParameters {
        TlsParameters::builder("127.0.0.1".into())
            .add_root_certificate(Certificate::from_pem(ca.cert_pem().as_bytes()).unwrap())
            .build_rustls()
            .unwrap()
    }

    fn client(sink: &SmtpSink, tls: Tls, password: &str) -> SmtpTransport {
        SmtpTransport::builder_dangerous("127.0.0.1")
            .port(sink.port())
            .tls(tls)
            .credentials(Credentials::new("user".into(), password.into()))
            .timeout(Some(Duration::from_secs(10)))
            .build()
    }

    fn message(subject: &str) -> Message {
        let from: Mailbox = "Canvass <noreply@example.org>".parse().unwrap();
        let to: Mailbox = "someone@example.org".parse().unwrap();
        Message::builder().from(from).to(to).subject(subject).body("hello".to_owned()).unwrap()
    }

    #[test]
    fn starttls_with_auth_delivers() {
        let ca = TestCa::new();
        let sink = SmtpSink::builder().starttls(&ca).require_auth("user", "secret").start();
        assert_eq!(sink.url, format!("smtp://127.0.0.1:{}", sink.port()));
        client(&sink, Tls::Required(params(&ca)), "secret").send(&message("first")).unwrap();
        let received = sink.received();
        assert_eq!(received.len(), 1);
        assert!(received[0].tls);
        assert_eq!(received[0].user.as_deref(), Some("user"));
        assert!(received[0].message.contains("Subject: first"));
        assert_eq!(sink.messages(), vec![received[0].message.clone()]);
        assert_eq!(sink.connections(), 1);
    }

    #[test]
    fn auth_login_works_too() {
        let ca = TestCa::new();
        let sink = SmtpSink::builder().starttls(&ca).require_auth("user", "secret").start();
        let transport = SmtpTransport::builder_dangerous("127.0.0.1")
            .port(sink.port())
            .tls(Tls::Required(params(&ca)))
            .credentials(Credentials::new("user".into(), "secret".into()))
            .authentication(vec![Mechanism::Login])
            .build();
        transport.send(&message("login")).unwrap();
        assert_eq!(sink.received()[0].user.as_deref(), Some("user"));
    }

    #[test]
    fn wrong_password_is_refused_permanently() {
        let ca = TestCa::new();
        let sink = SmtpSink::builder().starttls(&ca).require_auth("user", "secret").start();
        let error = client(&sink, Tls::Required(params(&ca)), "wrong").send(&message("x")).unwrap_err();
        assert!(error.is_permanent(), "{error}");
        assert_eq!(error.status().map(|code| code.to_string()).as_deref(), Some("535"));
        assert_eq!(sink.count(), 0);
    }

    #[test]
    fn implicit_tls_delivers() {
        let ca = TestCa::new();
        let sink = SmtpSink::builder().implicit_tls(&ca).require_auth("user", "secret").start();
        assert_eq!(sink.url, format!("smtps://127.0.0.1:{}", sink.port()));
        client(&sink, Tls::Wrapper(params(&ca)), "secret").send(&message("smtps")).unwrap();
        let received = sink.received();
        assert_eq!(received.len(), 1);
        assert!(received[0].tls);
        assert_eq!(received[0].user.as_deref(), Some("user"));
    }

    #[test]
    fn untrusted_certificate_delivers_nothing_and_the_sink_goes_on() {
        let (ca, other) = (TestCa::new(), TestCa::new());
        for sink in [
            SmtpSink::builder().starttls(&ca).require_auth("user", "secret").start(),
            SmtpSink::builder().implicit_tls(&ca).require_auth("user", "secret").start(),
        ] {
            let wrap = |p| if sink.url.starts_with("smtps") { Tls::Wrapper(p) } else { Tls::Required(p) };
            assert!(client(&sink, wrap(params(&other)), "secret").send(&message("x")).is_err());
            assert_eq!(sink.count(), 0);
            client(&sink, wrap(params(&ca)), "secret").send(&message("good")).unwrap();
            assert_eq!(sink.count(), 1);
            assert_eq!(sink.connections(), 2);
        }
    }

    #[test]
    fn mail_without_starttls_is_refused() {
        let ca = TestCa::new();
        let sink = SmtpSink::builder().starttls(&ca).start();
        let transport = SmtpTransport::builder_dangerous("127.0.0.1").port(sink.port()).build();
        let error = transport.send(&message("plain")).unwrap_err();
        assert!(error.is_permanent(), "{error}");
        assert!(error.to_string().contains("STARTTLS"), "{error}");
        assert_eq!(sink.count(), 0);
    }

    #[test]
    fn auth_without_tls_required_before_mail() {
        let sink = SmtpSink::builder().require_auth("user", "secret").start();
        let anonymous = SmtpTransport::builder_dangerous("127.0.0.1").port(sink.port()).build();
        let error = anonymous.send(&message("anonymous")).unwrap_err();
        assert!(error.to_string().contains("Authentication required"), "{error}");
        client(&sink, Tls::None, "secret").send(&message("plain auth")).unwrap();
        let received = sink.received();
        assert_eq!((received.len(), received[0].tls, received[0].user.as_deref()), (1, false, Some("user")));
    }

    #[test]
    fn plain_sink_still_refuses_chosen_recipients() {
        let sink = SmtpSink::start("bounce@", "later@");
        let transport = SmtpTransport::builder_dangerous("127.0.0.1").port(sink.port()).build();
        let to = |address: &str| {
            Message::builder()
                .from("noreply@example.org".parse().unwrap())
                .to(address.parse().unwrap())
                .body("hi".to_owned())
                .unwrap()
        };
        assert!(transport.send(&to("bounce@example.org")).unwrap_err().is_permanent());
        assert!(transport.send(&to("later@example.org")).unwrap_err().is_transient());
        transport.send(&to("fine@example.org")).unwrap();
        assert!(!sink.received()[0].tls);
        assert_eq!(sink.count(), 1);
    }

    #[test]
    fn distinct_cas_and_localhost_certificates() {
        let (a, b) = (TestCa::new(), TestCa::new());
        assert_ne!(a.cert_pem(), b.cert_pem());
        let (cert, key) = a.issue_localhost_pem();
        assert!(cert.starts_with("-----BEGIN CERTIFICATE-----"));
        assert!(key.contains("PRIVATE KEY"));
    }
}
