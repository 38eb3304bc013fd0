//! Sending over SMTP to a relay. A mailer keeps up to `concurrency` SMTP sessions open (mail-send's client),
//! reuses them across messages and rounds, pipelines each message's commands when the relay offers PIPELINING
//! (`staged.rs`), and sends a round through all of them at once. Each session's socket sends without
//! Nagle's delay, so the end of a message (`.`) leaves at once instead of waiting for the relay's delayed ACK.
//! The sessions live on a thread of the mailer's own with a single-threaded tokio runtime; [`Mailer::send_all`]
//! hands it a round and waits for the outcomes, so callers need no runtime.

use std::cell::{Cell, RefCell};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use canvass_domain::delivery::{
    blame_smtp, Accepted, Blame, Hold, HoldKind, Mailer, OutgoingMessage, SendError, SmtpStage,
};
use futures_util::future::join_all;
use lettre::address::{Address, Envelope};
use lettre::transport::smtp::extension::ClientId;
use mail_send::SmtpClient;
use smtp_proto::{EXT_8BIT_MIME, EXT_PIPELINING, EXT_SMTP_UTF8, EXT_START_TLS};
use tokio::io::BufStream;
use tokio::net::TcpStream;
use tokio::time::error::Elapsed;
use tokio::time::timeout;

use crate::message::email;
use crate::relay::{Relay, Security};
use crate::staged::{Connection, Failure, Io, Offers, Outgoing, Refusal, Stream};
use crate::tls::RelayTls;

/// A session's buffers: replies are short; a message's content and the next one's commands fit in one write.
const READ_BUFFER: usize = 8 * 1024;
const WRITE_BUFFER: usize = 64 * 1024;
/// How long a relay may take to accept a connection, or to answer one step of a message.
const NETWORK_TIMEOUT: Duration = Duration::from_secs(30);
/// A session idle for longer is checked with NOOP before it carries a message (the relay may have closed it).
const CHECK_AFTER_IDLE: Duration = Duration::from_secs(5);
/// How long a relay's limit on sessions is remembered before more are tried again.
const RELAY_LIMIT_MEMORY: Duration = Duration::from_secs(60);
/// How often a lane with nothing left to send looks whether a lane that is opening a session gave a message back.
const WAIT_FOR_OPENING: Duration = Duration::from_millis(2);

/// A round for the session thread, and where its outcomes go. Its messages are put on the wire by the lanes that
/// send them, so that the first goes out at once and the rest are formatted while the relay answers; the round is
/// the thread's own, so each message's texts go into its email without a copy.
struct Job {
    messages: Vec<OutgoingMessage>,
    bounce_address: Option<Address>,
    reply: mpsc::Sender<Vec<Result<Accepted, SendError>>>,
}

/// Sends over SMTP to a relay: `smtp://`, STARTTLS, or `smtps://`, with AUTH when the URL has credentials.
pub struct SmtpMailer {
    jobs: mpsc::Sender<Job>,
    relay: Relay,
    bounce_address: Option<Address>,
}

impl std::fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpMailer").field("relay", &self.relay).finish_non_exhaustive()
    }
}

impl SmtpMailer {
    /// A mailer for `url` (one of the forms of [`Relay::parse`]) that trusts the system's roots plus the PEM
    /// certificates `ca_pem`, and sends through up to `concurrency` sessions at once. Refuses a URL that would
    /// send credentials unencrypted.
    pub fn new(url: &str, ca_pem: Option<&[u8]>, concurrency: usize) -> Result<Self, String> {
        let relay = Relay::parse(url)?;
        let tls = match relay.security {
            Security::Plain => Secured::None,
            Security::StartTlsRequired | Security::StartTlsOpportunistic => {
                Secured::StartTls(RelayTls::new(&relay.host, ca_pem)?)
            }
            Security::Implicit => Secured::Implicit(RelayTls::new(&relay.host, ca_pem)?),
        };
        let client = Client {
            relay: relay.clone(),
            tls,
            hello: ClientId::default(),
            lanes: concurrency.max(1),
            accepted: Cell::new(None),
        };
        let (jobs, incoming) = mpsc::channel();
        std::thread::Builder::new()
            .name("smtp-sessions".into())
            .spawn(move || client.serve(incoming))
            .map_err(|e| format!("cannot start the SMTP session thread: {e}"))?;
        Ok(Self { jobs, relay, bounce_address: None })
    }

    /// Sends every email with `address` as its envelope sender (`MAIL FROM`, the `Return-Path`), so that bounces
    /// go to a mailbox that hands them to `canvass dsn` instead of to the sendout's sender.
    pub fn with_bounce_address(mut self, address: &str) -> Result<Self, String> {
        self.bounce_address = Some(address.parse().map_err(|e| format!("BOUNCE_ADDRESS: {e}"))?);
        Ok(self)
    }

    /// A mailer for `url` with one session and the system's roots.
    pub fn from_url(url: &str) -> Result<Self, String> {
        Self::new(url, None, 1)
    }
}

/// The email on the wire and its envelope: from the bounce address when there is one, else from the sender.
fn prepare(message: OutgoingMessage, bounce_address: Option<&Address>) -> Result<Outgoing, SendError> {
    let email = email(message)?;
    let envelope = match bounce_address {
        Some(sender) => Envelope::new(Some(sender.clone()), email.envelope.to().to_vec())
            .map_err(|e| SendError::Unsendable(format!("envelope: {e}")))?,
        None => email.envelope,
    };
    Ok(Outgoing::new(envelope, &email.content))
}

impl Mailer for SmtpMailer {
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError> {
        self.send_all(vec![message.clone()]).pop().unwrap_or_else(|| Err(stopped()))
    }

    fn send_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        let count = messages.len();
        if count == 0 {
            return Vec::new();
        }
        let (reply, replied) = mpsc::channel();
        let job = Job { messages, bounce_address: self.bounce_address.clone(), reply };
        match self.jobs.send(job).ok().and_then(|()| replied.recv().ok()) {
            Some(outcomes) => outcomes,
            None => (0..count).map(|_| Err(stopped())).collect(),
        }
    }
}

fn stopped() -> SendError {
    SendError::Transient("the SMTP session thread has stopped".into())
}

/// How sessions to the relay are encrypted.
enum Secured {
    None,
    StartTls(RelayTls),
    Implicit(RelayTls),
}

/// An open session and when it last carried a message.
struct Session {
    connection: Connection,
    last_used: Instant,
}

/// The session thread's side: opens, reuses and drops sessions, and sends rounds through them.
struct Client {
    relay: Relay,
    tls: Secured,
    hello: ClientId,
    lanes: usize,
    /// How many sessions the relay took when it last refused one more, and when: rounds open no more than that
    /// for a while, instead of knocking again with every round.
    accepted: Cell<Option<(usize, Instant)>>,
}

impl Client {
    /// Serves rounds until the mailer is dropped; idle sessions wait between rounds.
    fn serve(self, jobs: mpsc::Receiver<Job>) {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(runtime) => runtime,
            Err(error) => {
                tracing::error!(error.message = %error, "cannot start the SMTP session runtime");
                return;
            }
        };
        let mut idle = Vec::new();
        while let Ok(job) = jobs.recv() {
            let outcomes = runtime.block_on(self.send_round(&mut idle, job.messages, job.bounce_address.as_ref()));
            let _ = job.reply.send(outcomes);
        }
    }

    /// Sends a round through up to `lanes` sessions at once; each lane takes the next message when it is free.
    async fn send_round(
        &self,
        idle: &mut Vec<Session>,
        messages: Vec<OutgoingMessage>,
        bounce_address: Option<&Address>,
    ) -> Vec<Result<Accepted, SendError>> {
        let cap = match self.accepted.get() {
            Some((sessions, since)) if since.elapsed() < RELAY_LIMIT_MEMORY => sessions.max(1),
            _ => self.lanes,
        };
        let lanes = self.lanes.min(cap).min(messages.len());
        let sessions: Vec<Option<Session>> = (0..lanes).map(|_| idle.pop()).collect();
        let round = Round {
            outcomes: RefCell::new(vec![None; messages.len()]),
            messages: RefCell::new(messages.into_iter().enumerate()),
            bounce_address,
            open: Cell::new(sessions.iter().flatten().count()),
            opening: Cell::new(0),
            most_open: Cell::new(sessions.iter().flatten().count()),
            refused_one_more: Cell::new(false),
            returned: RefCell::new(Vec::new()),
            relay_down: RefCell::new(None),
        };
        let kept = join_all(sessions.into_iter().map(|session| self.lane(session, &round))).await;
        if round.refused_one_more.get() && round.most_open.get() > 0 {
            self.accepted.set(Some((round.most_open.get(), Instant::now())));
        }
        idle.extend(kept.into_iter().flatten());
        round.outcomes.into_inner().into_iter().map(|outcome| outcome.unwrap_or_else(|| Err(stopped()))).collect()
    }

    /// One session's share of a round; returns the session when it is still good for the next round. A lane that
    /// cannot open a session leaves its messages to the lanes that have one (a relay may allow fewer sessions
    /// than `DELIVERY_CONCURRENCY`); when no lane has one, the rest of the round is put off. A lane whose session
    /// pipelines takes the round's next message before it sends one, so that the next one's commands go with this
    /// one's content (`staged.rs`).
    async fn lane(&self, mut session: Option<Session>, round: &Round<'_>) -> Option<Session> {
        let mut carried: Option<(usize, Outgoing)> = None;
        loop {
            let (index, email, mut open) = match (carried.take(), session.take()) {
                (Some((index, email)), Some(open)) => (index, email, open),
                (carried, held) => {
                    round.returned.borrow_mut().extend(carried);
                    let Some((index, email)) = self.next_message(round, held.is_some()).await else {
                        return held;
                    };
                    if let Some(reason) = round.relay_down.borrow().clone() {
                        round.settle(index, Err(SendError::Held(reason)));
                        session = held;
                        continue;
                    }
                    match self.lane_session(held, round, index).await {
                        LaneSession::Open(open) => (index, email, open),
                        LaneSession::Settled => continue,
                        LaneSession::GaveUp => {
                            round.returned.borrow_mut().push((index, email));
                            return None;
                        }
                    }
                }
            };
            // Without PIPELINING the next message's commands cannot go with this one's content: it stays in the
            // round, free for whichever lane comes first.
            let next = if open.connection.offers.pipelining { prepared_next(round) } else { None };
            let sent =
                timeout(NETWORK_TIMEOUT, open.connection.send(&email, next.as_ref().map(|(_, next)| next))).await;
            // A session whose connection failed is closed; one that timed out is in an unknown state. The message
            // taken beside it goes back to the round, unsent.
            let broken = sent.is_err() || open.connection.has_broken();
            match sent {
                Ok(Err(Refusal::Unanswered(_))) => round.returned.borrow_mut().push((index, email)),
                sent => round.settle(index, outcome(sent)),
            }
            if broken {
                round.open.set(round.open.get() - 1);
                round.returned.borrow_mut().extend(next);
            } else {
                open.last_used = Instant::now();
                session = Some(open);
                carried = next;
            }
        }
    }

    /// The round's next message, ready for the wire; a message this side cannot put on the wire fails whatever
    /// the relay's state.
    async fn next_message(&self, round: &Round<'_>, has_session: bool) -> Option<(usize, Outgoing)> {
        loop {
            let taken = round.take_next(has_session).await?;
            if let Some(ready) = round.ready(taken) {
                return Some(ready);
            }
        }
    }

    /// A session for the lane's message `index`: the lane's own if it is still good, else a new one. When none
    /// opens, the message goes to a lane that has one (the caller gives it back to the round), or, with none open,
    /// is held and the relay noted as down.
    async fn lane_session(&self, held: Option<Session>, round: &Round<'_>, index: usize) -> LaneSession {
        let had_session = held.is_some();
        round.opening.set(round.opening.get() + 1);
        let ready = self.ready(held).await;
        round.opening.set(round.opening.get() - 1);
        match ready {
            Ok(open) => {
                if !had_session {
                    round.open.set(round.open.get() + 1);
                    round.most_open.set(round.most_open.get().max(round.open.get()));
                }
                LaneSession::Open(open)
            }
            Err(reason) => {
                if had_session {
                    round.open.set(round.open.get() - 1);
                }
                tracing::warn!(relay.host = %self.relay.host, relay.port = self.relay.port,
                    error.message = %reason, "cannot open an SMTP session");
                if round.open.get() + round.opening.get() > 0 {
                    // Other lanes have sessions: they take this message, and the relay's limit is noted.
                    round.refused_one_more.set(true);
                    return LaneSession::GaveUp;
                }
                // The session could not be opened: the relay is blamed, the message is held.
                round.settle(index, Err(SendError::Held(reason.clone())));
                round.relay_down.replace(Some(reason));
                LaneSession::Settled
            }
        }
    }

    /// A session ready to carry a message: the one given, if it is still open, else a new one.
    async fn ready(&self, session: Option<Session>) -> Result<Session, Hold> {
        if let Some(mut session) = session {
            if session.last_used.elapsed() < CHECK_AFTER_IDLE
                || timeout(NETWORK_TIMEOUT, session.connection.test_connected()).await.unwrap_or(false)
            {
                return Ok(session);
            }
        }
        let connection = timeout(NETWORK_TIMEOUT, self.open()).await.map_err(|_| {
            Hold::new(HoldKind::Relay, format!("the relay did not answer within {} s", NETWORK_TIMEOUT.as_secs()))
        })??;
        Ok(Session { connection, last_used: Instant::now() })
    }

    /// Opens a session: TCP without Nagle's delay, TLS as the URL asks, EHLO, and AUTH when there are credentials.
    async fn open(&self) -> Result<Connection, Hold> {
        let failed = |step: &str, error: &dyn std::fmt::Display| Hold::new(HoldKind::Relay, format!("{step}: {error}"));
        let tcp = TcpStream::connect((self.relay.host.as_str(), self.relay.port))
            .await
            .map_err(|e| failed("cannot connect to the relay", &e))?;
        tcp.set_nodelay(true).map_err(|e| failed("cannot set up the connection", &e))?;
        let stream: Box<dyn Io> = match &self.tls {
            Secured::Implicit(tls) => {
                Box::new(tls.connect(tcp).await.map_err(|e| failed("TLS with the relay failed", &e))?)
            }
            Secured::None | Secured::StartTls(_) => Box::new(tcp),
        };
        let mut client = client(stream);
        let greeting = client.read().await.map_err(|e| failed("the relay refused the session", &e))?;
        if greeting.code != 220 {
            return Err(refused("the relay refused the session", greeting));
        }
        let hello = self.hello.to_string();
        let mut ehlo = client.ehlo(&hello).await.map_err(|e| refused_with("the relay refused EHLO", e))?;
        if let Secured::StartTls(tls) = &self.tls {
            if ehlo.has_capability(EXT_START_TLS) {
                let reply =
                    client.cmd(b"STARTTLS\r\n").await.map_err(|e| failed("STARTTLS with the relay failed", &e))?;
                if reply.code != 220 {
                    return Err(refused("STARTTLS with the relay failed", reply));
                }
                let plain = client.stream.into_inner();
                let secured = tls.connect(plain).await.map_err(|e| failed("STARTTLS with the relay failed", &e))?;
                client = self::client(Box::new(secured));
                ehlo = client.ehlo(&hello).await.map_err(|e| refused_with("the relay refused EHLO", e))?;
            } else if self.relay.security == Security::StartTlsRequired {
                let reason = "the relay does not offer STARTTLS, which SMTP_URL requires (tls=required)";
                return Err(Hold::new(HoldKind::Relay, reason));
            }
        }
        if let Some(credentials) = &self.relay.credentials {
            client.authenticate(credentials, &ehlo).await.map_err(|e| refused_with("the relay refused AUTH", e))?;
        }
        let offers = Offers {
            pipelining: ehlo.has_capability(EXT_PIPELINING),
            smtputf8: ehlo.has_capability(EXT_SMTP_UTF8),
            eight_bit_mime: ehlo.has_capability(EXT_8BIT_MIME),
        };
        Ok(Connection::new(client, offers))
    }
}

/// A client over `stream`, buffered so that a pipelined group, and a message's content with the next message's
/// commands, leave in one write.
fn client(stream: Box<dyn Io>) -> SmtpClient<Stream> {
    SmtpClient { stream: BufStream::with_capacity(READ_BUFFER, WRITE_BUFFER, stream), timeout: NETWORK_TIMEOUT }
}

/// A relay's refusal while a session opens: a `421` or `454` asks to slow down; any other refusal is its own.
fn refused(step: &str, reply: smtp_proto::Response<String>) -> Hold {
    let failure = Failure::Reply(reply);
    let kind = match failure.code() {
        Some(code) if blame_smtp(SmtpStage::Session, code, "") == Blame::Throttled => HoldKind::Throttled,
        _ => HoldKind::Relay,
    };
    Hold::new(kind, format!("{step}: {failure}"))
}

/// [`refused`] for an error of mail-send's: a reply it did not expect, or the connection failing.
fn refused_with(step: &str, error: mail_send::Error) -> Hold {
    match error {
        mail_send::Error::UnexpectedReply(reply) | mail_send::Error::AuthenticationFailed(reply) => {
            refused(step, reply)
        }
        other => Hold::new(HoldKind::Relay, format!("{step}: {other}")),
    }
}

/// What became of a message the relay was given, judged by whom its refusal blames (the stage it answered and its
/// enhanced status code: `blame_smtp`); a fault of this side (an address the relay cannot take, such as a non-ASCII
/// one without SMTPUTF8) fails it without blaming the recipient; a connection that fails blames the relay.
fn outcome(sent: Result<Result<String, Refusal>, Elapsed>) -> Result<Accepted, SendError> {
    match sent {
        Ok(Ok(reply)) => Ok(Accepted(reply)),
        Ok(Err(Refusal::Unsendable(reason))) => Err(SendError::Unsendable(reason.to_owned())),
        Ok(Err(Refusal::Unanswered(failure))) => Err(Blame::Relay.error(failure.to_string())),
        Ok(Err(Refusal::At(stage, failure))) => {
            // A reply's own text (`5.1.1 no such user`) decides with its code; a failed connection has neither.
            let blame = match failure.code() {
                Some(code) => blame_smtp(stage, code, &failure.reply_text()),
                None => Blame::Relay,
            };
            Err(blame.error(failure.to_string()))
        }
        Err(_) => Err(SendError::Transient(format!("the relay did not answer within {} s", NETWORK_TIMEOUT.as_secs()))),
    }
}

/// What a lane's attempt at a session came to.
enum LaneSession {
    Open(Session),
    /// The message was settled (held: the relay is down); the lane goes on with the next.
    Settled,
    /// The message goes to a lane with a session; this lane stops.
    GaveUp,
}

/// The round's next message there now, ready for the wire, to go beside the one being sent; messages this side
/// cannot put on the wire are failed on the way.
fn prepared_next(round: &Round<'_>) -> Option<(usize, Outgoing)> {
    while let Some(taken) = round.try_take() {
        if let Some(ready) = round.ready(taken) {
            return Some(ready);
        }
    }
    None
}

/// A message a lane takes from the round: one given back by another lane, ready for the wire, or the next one,
/// still to be formatted.
enum Taken {
    Ready(usize, Outgoing),
    Fresh(usize, OutgoingMessage),
}

/// A round in progress: its messages not taken yet, each with its place in the round, and the outcomes so far.
struct Round<'a> {
    messages: RefCell<std::iter::Enumerate<std::vec::IntoIter<OutgoingMessage>>>,
    bounce_address: Option<&'a Address>,
    outcomes: RefCell<Vec<Option<Result<Accepted, SendError>>>>,
    /// Lanes holding an open session, and lanes opening one now.
    open: Cell<usize>,
    opening: Cell<usize>,
    /// The most sessions open at once, and whether the relay refused one more while some were open.
    most_open: Cell<usize>,
    refused_one_more: Cell<bool>,
    /// Messages given back, ready for the wire, by a lane that could not open a session or lost its own.
    returned: RefCell<Vec<(usize, Outgoing)>>,
    /// Set when no lane could open a session: the rest of the round is put off instead of trying each message.
    relay_down: RefCell<Option<Hold>>,
}

impl Round<'_> {
    /// The next message to send: one given back by a lane that could not open a session, else the next in
    /// order. A lane with a session waits while another is still opening one, as that one may give its message
    /// back.
    async fn take_next(&self, has_session: bool) -> Option<Taken> {
        loop {
            if let Some(taken) = self.try_take() {
                return Some(taken);
            }
            if !has_session || self.opening.get() == 0 {
                return None;
            }
            tokio::time::sleep(WAIT_FOR_OPENING).await;
        }
    }

    /// The next message if one is there now (without waiting for a lane that is opening a session).
    fn try_take(&self) -> Option<Taken> {
        if let Some((index, email)) = self.returned.borrow_mut().pop() {
            return Some(Taken::Ready(index, email));
        }
        let (index, message) = self.messages.borrow_mut().next()?;
        Some(Taken::Fresh(index, message))
    }

    /// A message taken, ready for the wire; one this side cannot put on the wire is failed instead, whatever the
    /// relay's state.
    fn ready(&self, taken: Taken) -> Option<(usize, Outgoing)> {
        match taken {
            Taken::Ready(index, email) => Some((index, email)),
            Taken::Fresh(index, message) => match prepare(message, self.bounce_address) {
                Ok(email) => Some((index, email)),
                Err(error) => {
                    self.settle(index, Err(error));
                    None
                }
            },
        }
    }

    fn settle(&self, index: usize, outcome: Result<Accepted, SendError>) {
        self.outcomes.borrow_mut()[index] = Some(outcome);
    }
}
