//! Delivery: the messages the outbox holds, how they are rendered, the mail port, and the retry policy.

mod alert_mail;
mod blame;
pub mod dsn;
mod pace;
pub(crate) mod placeholders;
pub mod ports;
mod render;
#[cfg(test)]
mod transports_tests;

use time::{Duration, OffsetDateTime};

use crate::distribution::DispatchType;
use crate::ids::{AccountId, RespondentId, SendoutId};

pub use alert_mail::{ClaimedAlert, SettledAlert};
pub use blame::{blame_sms, blame_smtp, Blame, SmtpStage};
pub use pace::{Pace, PaceGrant, PaceLimits, THROTTLE_STEP};
pub use placeholders::{fill_html, fill_line, fill_text, unknown_placeholders, Invitation, Personal, Values};
pub use render::{render, render_html, LinkBase, OPT_OUT_PLACEHOLDER};

/// How long to wait before attempt `attempts + 1` after `attempts` transient failures: 30 s doubled each time,
/// at most one hour.
///
/// ```
/// use canvass_domain::delivery::retry_delay;
/// use time::Duration;
///
/// assert_eq!(retry_delay(1), Duration::seconds(30));
/// assert_eq!(retry_delay(3), Duration::seconds(120));
/// assert_eq!(retry_delay(20), Duration::hours(1));
/// ```
pub fn retry_delay(attempts: i32) -> Duration {
    backoff(Duration::seconds(30), attempts.saturating_sub(1), Duration::hours(1))
}

/// `first` doubled `doublings` times, at most `cap`.
fn backoff(first: Duration, doublings: i32, cap: Duration) -> Duration {
    (first * 2i32.pow(doublings.clamp(0, 20) as u32)).min(cap)
}

/// How long a message keeps being retried, and how far apart: the contract's `DELIVERY_MAX_AGE` (default five
/// days, as Postfix's `maximal_queue_lifetime`) and `DELIVERY_MAX_BACKOFF` (default one hour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The sendable time a message may spend waiting for its retries before it fails.
    pub max_age: Duration,
    /// The longest wait between two tries after a transient failure.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { max_age: Duration::days(5), max_backoff: Duration::hours(1) }
    }
}

impl RetryPolicy {
    /// What follows a transient failure of a message that has used `aged` of its lifetime in `attempts` tries
    /// (this one included): the wait before the next try (30 s, doubling, at most `max_backoff`, and never past
    /// the end of its lifetime), or `None` when its lifetime is used up.
    ///
    /// ```
    /// use canvass_domain::delivery::RetryPolicy;
    /// use time::Duration;
    ///
    /// let policy = RetryPolicy { max_age: Duration::minutes(10), max_backoff: Duration::minutes(4) };
    /// assert_eq!(policy.next_try(1, Duration::ZERO), Some(Duration::seconds(30)));
    /// assert_eq!(policy.next_try(6, Duration::minutes(3)), Some(Duration::minutes(4)));
    /// assert_eq!(policy.next_try(7, Duration::minutes(7)), Some(Duration::minutes(3)));
    /// assert_eq!(policy.next_try(8, Duration::minutes(10)), None);
    /// ```
    pub fn next_try(&self, attempts: i32, aged: Duration) -> Option<Duration> {
        let left = self.max_age - aged;
        (left > Duration::ZERO)
            .then(|| backoff(Duration::seconds(30), attempts.saturating_sub(1), self.max_backoff).min(left))
    }
}

/// How long a message held by relay or sender trouble waits after its `holds`-th hold (counted from 0): 5 s,
/// doubling, at most 5 minutes (the contract's "Whom a refusal blames").
///
/// ```
/// use canvass_domain::delivery::hold_delay;
/// use time::Duration;
///
/// assert_eq!(hold_delay(0), Duration::seconds(5));
/// assert_eq!(hold_delay(3), Duration::seconds(40));
/// assert_eq!(hold_delay(40), Duration::minutes(5));
/// ```
pub fn hold_delay(holds: i32) -> Duration {
    backoff(Duration::seconds(5), holds, Duration::minutes(5))
}

/// Whose trouble holds a message (the contract's `deliveryIssue.kind`, the pace's daily limit apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HoldKind {
    /// The relay or the SMS endpoint: a connection, certificate, greeting, `EHLO`, `STARTTLS` or `AUTH` failure,
    /// an SMS endpoint refusing the service's credentials.
    Relay,
    /// The envelope sender: a refusal of `MAIL FROM`.
    Sender,
    /// The relay asks to slow down: `421`, `454`, an SMS 429 or 503.
    Throttled,
}

impl HoldKind {
    /// The name the API shows.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Relay => "relay",
            Self::Sender => "sender",
            Self::Throttled => "throttled",
        }
    }

    /// The kind named so.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Relay, Self::Sender, Self::Throttled].into_iter().find(|kind| kind.as_str() == name)
    }
}

/// Relay or sender trouble that holds a message: whose it is, the reply, and how long the relay asked to be left
/// alone (an SMS endpoint's `Retry-After`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hold {
    /// Whose trouble.
    pub kind: HoldKind,
    /// The relay's reply or the failure (never a password).
    pub reason: String,
    /// The relay's own `Retry-After`, when it gave one.
    pub retry_after: Option<Duration>,
}

impl Hold {
    /// A hold of this kind for `reason`, with no `Retry-After`.
    pub fn new(kind: HoldKind, reason: impl Into<String>) -> Self {
        Self { kind, reason: reason.into(), retry_after: None }
    }

    /// When a message held `holds` times before is due again: after the relay's `Retry-After` when it gave one
    /// (at most an hour), else after [`hold_delay`].
    pub fn due_again(&self, holds: i32, now: OffsetDateTime) -> OffsetDateTime {
        now + self.retry_after.map_or_else(|| hold_delay(holds), |wait| wait.clamp(Duration::SECOND, Duration::HOUR))
    }
}

impl std::fmt::Display for Hold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// A message claimed from the outbox, with what sending it needs.
#[derive(Clone, PartialEq, Eq)]
pub struct ClaimedMessage {
    /// The owning account.
    pub account_id: AccountId,
    /// The outbox row.
    pub id: i64,
    /// The respondent it goes to.
    pub respondent_id: RespondentId,
    /// The respondent's sendout.
    pub sendout_id: SendoutId,
    /// The sendout's survey.
    pub survey_id: crate::ids::SurveyId,
    /// Whether it is a reminder (else an invitation, or a message of its own text).
    pub is_reminder: bool,
    /// Whether it carries its own text (a TWOWAY question or thank-you) rather than the sendout's or reminder's.
    pub own_text: bool,
    /// Stable key across retries (the SMS provider's idempotency key).
    pub idempotency_key: String,
    /// Random, stable across retries: the local part of the email's Message-ID, by which a late bounce finds it.
    pub message_token: String,
    /// Attempts so far, this one included.
    pub attempts: i32,
    /// Times it was held so far (relay or sender trouble, which counts no attempt): its next hold waits
    /// [`hold_delay`] of this.
    pub holds: i32,
    /// The part of its lifetime used so far: the waits between its tries after transient failures (holds and the
    /// pace use none).
    pub aged: Duration,
    /// Whether its sendout has a delivery issue now (a hand-over clears it).
    pub sendout_held: bool,
    /// Until when this worker holds the message (`None` for a message already sent): its outcome is recorded
    /// only while the lease is still this one, so a worker whose lease ran out never overwrites another's record.
    pub lease_until: Option<OffsetDateTime>,
    /// How the sendout reaches respondents.
    pub channel: DispatchType,
    /// The respondent's contact details.
    pub recipient: String,
    /// The respondent's link token.
    pub token: String,
    /// The sender.
    pub sender: String,
    /// The subject.
    pub subject: Option<String>,
    /// The message template, with placeholders.
    pub template: String,
    /// After this the survey link no longer works.
    pub expiry_date: Option<OffsetDateTime>,
    /// The language the respondent is shown (its own, else its sendout's): its invitation's, and a TWOWAY
    /// conversation's.
    pub language: crate::language::Language,
    /// Whether the contact is on the account's blocklist now.
    pub blocklisted: bool,
    /// What the personal placeholders are filled with.
    pub personal: Personal,
}

/// A rendered message, ready for a transport.
#[derive(Clone, PartialEq, Eq)]
pub struct OutgoingMessage {
    /// Stable key across retries.
    pub idempotency_key: String,
    /// The email's Message-ID, `<token@host of PUBLIC_URL>`: stable across retries, no ids in it.
    pub message_id: String,
    /// Recipient address or number.
    pub to: String,
    /// Sender address or SMS sender.
    pub from: String,
    /// Subject.
    pub subject: Option<String>,
    /// Body with the links filled in (the `text/plain` part of an email).
    pub body: String,
    /// The same text as HTML, user text escaped (the `text/html` part); none for messages of their own text.
    pub html: Option<String>,
    /// The one-click opt-out URL (RFC 8058 `List-Unsubscribe`) of invitations and reminders.
    pub unsubscribe_url: Option<String>,
}

impl ClaimedMessage {
    /// Whether this is a respondent's invitation (its outcome is the respondent's status).
    pub fn is_invitation(&self) -> bool {
        !self.is_reminder && !self.own_text
    }

    /// The message rendered with links under `base`: invitations and reminders in text and HTML with a one-click
    /// opt-out, messages of their own text (TWOWAY questions) as they are.
    pub fn render(&self, base: &LinkBase) -> OutgoingMessage {
        let (survey_link, opt_out_link) = base.links(&self.token);
        let from_template = !self.own_text;
        let values = Values { survey_link: &survey_link, opt_out_link: &opt_out_link, personal: &self.personal };
        let (body, html, subject) = if from_template {
            let subject = self.subject.as_deref().map(|subject| fill_line(subject, values));
            (fill_text(&self.template, values), Some(fill_html(&self.template, values)), subject)
        } else {
            (render(&self.template, &survey_link, &opt_out_link), None, self.subject.clone())
        };
        OutgoingMessage {
            idempotency_key: self.idempotency_key.clone(),
            message_id: base.message_id(&self.message_token),
            to: self.recipient.clone(),
            from: self.sender.clone(),
            subject,
            body,
            html,
            unsubscribe_url: from_template.then_some(opt_out_link),
        }
    }
}

/// A transport's word that it took a message: the relay's or provider's reply (`250 2.0.0 Ok: queued as 4F2A`,
/// `202 Accepted`), kept in the respondent's `sent` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted(pub String);

/// What became of one claimed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Handed to the relay or provider, with its reply.
    Sent(Accepted),
    /// Refused for good (SMTP 5xx, or a late bounce): the reason.
    Bounced(String),
    /// Given up: the last attempt failed, or the message cannot be sent as written.
    Failed(String),
    /// A transient failure: due again at this time.
    DueAgain(OffsetDateTime, String),
    /// Relay or sender trouble: due again at this time, and the attempt is not counted.
    Held(OffsetDateTime, Hold),
    /// Not sent: the respondent is Blocklisted or Expired by now.
    Cancelled(crate::distribution::RespondentStatus),
}

/// A claimed message and what became of it, recorded with the rest of its round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The message.
    pub message: ClaimedMessage,
    /// Its outcome.
    pub outcome: Outcome,
}

/// Why a transport did not hand a message over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The relay refused the recipient for good (SMTP 5xx): a bounce.
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// Worth trying this message again later (a 4xx reply to `RCPT TO` or `DATA`).
    #[error("transient failure: {0}")]
    Transient(String),
    /// The relay or the sender is in trouble (a connection, TLS, greeting, `EHLO`, `STARTTLS`, `AUTH` or `MAIL FROM`
    /// refusal, `421`/`454`, an SMS endpoint refusing the service): the message waits, no attempt is counted and no
    /// recipient is blamed.
    #[error("relay or sender trouble: {0}")]
    Held(Hold),
    /// The message cannot be sent as written (its sender address, say), whoever receives it: it fails at once,
    /// and the recipient is not blamed with a bounce.
    #[error("unsendable: {0}")]
    Unsendable(String),
}

/// Hands email to a relay. Implementations MUST judge each refusal by whom it blames ([`blame_smtp`], from the
/// stage it answered and its enhanced status code): only a refusal of the recipient is [`SendError::Permanent`].
pub trait Mailer: Send + Sync {
    /// Sends one email.
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError>;

    /// Sends a round of emails, each with its own outcome in the same order. A transport that can send several at
    /// once (over several sessions) does so; by default they go one after another. The round is handed over, so
    /// that a transport that sends from a thread of its own takes the messages without copying them.
    fn send_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        messages.iter().map(|message| self.send(message)).collect()
    }
}

/// Hands text messages to an SMS provider. Implementations MUST judge each refusal by whom it blames
/// ([`blame_sms`]): only a refused number is [`SendError::Permanent`].
pub trait SmsSender: Send + Sync {
    /// Sends one text message (the subject, if any, is not part of it).
    fn send(&self, message: &OutgoingMessage) -> Result<Accepted, SendError>;

    /// Sends a round of text messages, each with its own outcome in the same order; by default one after another.
    fn send_all(&self, messages: Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>> {
        messages.iter().map(|message| self.send(message)).collect()
    }
}

/// The transports of every channel the worker sends on.
#[derive(Clone, Copy)]
pub struct Transports<'a> {
    /// EMAIL.
    pub email: &'a dyn Mailer,
    /// SMS.
    pub sms: &'a dyn SmsSender,
}

impl Transports<'_> {
    /// Sends a round, each message on its channel: the emails together, the text messages (SMS and TWOWAY)
    /// together. LOGIN and LINK send nothing, so a message of theirs fails transiently. Outcomes keep the order of `messages`.
    pub fn send_all(&self, messages: Vec<(DispatchType, OutgoingMessage)>) -> Vec<Result<Accepted, SendError>> {
        let mut outcomes = Vec::with_capacity(messages.len());
        let mut channels = Vec::with_capacity(messages.len());
        let (mut emails, mut texts) = (Group::default(), Group::default());
        for (position, (channel, message)) in messages.into_iter().enumerate() {
            outcomes.push(None);
            channels.push(channel);
            match channel {
                DispatchType::Email => emails.add(position, message),
                DispatchType::Sms | DispatchType::TwoWay => texts.add(position, message),
                DispatchType::Login | DispatchType::Link => {}
            }
        }
        emails.send(|group| self.email.send_all(group), &mut outcomes);
        texts.send(|group| self.sms.send_all(group), &mut outcomes);
        let untransported =
            |channel: DispatchType| SendError::Transient(format!("no transport for {} messages", channel.as_str()));
        outcomes
            .into_iter()
            .zip(channels)
            .map(|(outcome, channel)| outcome.unwrap_or_else(|| Err(untransported(channel))))
            .collect()
    }
}

/// The messages of a round that go to one transport, and where each stands in the round.
#[derive(Default)]
struct Group {
    positions: Vec<usize>,
    messages: Vec<OutgoingMessage>,
}

impl Group {
    fn add(&mut self, position: usize, message: OutgoingMessage) {
        self.positions.push(position);
        self.messages.push(message);
    }

    /// Hands the group to its transport and puts each outcome in its place; a message its transport gave no
    /// outcome for keeps none.
    fn send(
        self,
        transport: impl FnOnce(Vec<OutgoingMessage>) -> Vec<Result<Accepted, SendError>>,
        outcomes: &mut [Option<Result<Accepted, SendError>>],
    ) {
        if self.messages.is_empty() {
            return;
        }
        for (position, outcome) in self.positions.into_iter().zip(transport(self.messages)) {
            outcomes[position] = Some(outcome);
        }
    }
}

crate::debug_without_personal_data!(ClaimedMessage {
    account_id,
    id,
    respondent_id,
    sendout_id,
    is_reminder,
    own_text,
    attempts,
    holds,
    channel,
    blocklisted
});

crate::debug_without_personal_data!(OutgoingMessage { idempotency_key });
