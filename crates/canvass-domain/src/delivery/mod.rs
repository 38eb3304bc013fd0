//! Delivery: the messages the outbox holds, how they are rendered, the mail port, and the retry policy.

use time::{Duration, OffsetDateTime};

use crate::distribution::{DispatchType, SURVEY_LINK_PLACEHOLDER};
use crate::ids::{AccountId, RespondentId, SendoutId};

/// The placeholder for the respondent's opt-out link.
pub const OPT_OUT_PLACEHOLDER: &str = "{{optOutLink}}";
/// Attempts before a message that keeps failing transiently is given up as Failed.
pub const MAX_ATTEMPTS: i32 = 5;

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
    let doublings = attempts.saturating_sub(1).clamp(0, 16) as u32;
    Duration::seconds(30 * 2i64.pow(doublings)).min(Duration::hours(1))
}

/// Fills the survey link and opt-out link placeholders of a message.
///
/// ```
/// use canvass_domain::delivery::render;
///
/// let text = render("Answer: {{surveyLink}} / stop: {{optOutLink}}", "https://x/r/t", "https://x/r/t/opt-out");
/// assert_eq!(text, "Answer: https://x/r/t / stop: https://x/r/t/opt-out");
/// ```
pub fn render(template: &str, survey_link: &str, opt_out_link: &str) -> String {
    template.replace(SURVEY_LINK_PLACEHOLDER, survey_link).replace(OPT_OUT_PLACEHOLDER, opt_out_link)
}

/// A message claimed from the outbox, with what sending it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Stable key, also the email's Message-ID.
    pub idempotency_key: String,
    /// Attempts so far, this one included.
    pub attempts: i32,
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
    /// Whether the contact is on the account's blocklist now.
    pub blocklisted: bool,
}

/// A rendered message, ready for a transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMessage {
    /// Stable key; the email's Message-ID is `<key@canvass>`.
    pub idempotency_key: String,
    /// Recipient address or number.
    pub to: String,
    /// Sender address or SMS sender.
    pub from: String,
    /// Subject.
    pub subject: Option<String>,
    /// Body with the links filled in.
    pub body: String,
}

impl ClaimedMessage {
    /// Whether this is a respondent's invitation (its outcome is the respondent's status).
    pub fn is_invitation(&self) -> bool {
        !self.is_reminder && !self.own_text
    }

    /// The message rendered with links under `public_url`.
    pub fn render(&self, public_url: &str) -> OutgoingMessage {
        let survey_link = format!("{public_url}/r/{}", self.token);
        let opt_out_link = format!("{survey_link}/opt-out");
        OutgoingMessage {
            idempotency_key: self.idempotency_key.clone(),
            to: self.recipient.clone(),
            from: self.sender.clone(),
            subject: self.subject.clone(),
            body: render(&self.template, &survey_link, &opt_out_link),
        }
    }
}

/// Why a transport did not hand a message over.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The relay refused the recipient for good (SMTP 5xx): a bounce.
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// Worth trying again later (SMTP 4xx, connection trouble).
    #[error("transient failure: {0}")]
    Transient(String),
    /// The message cannot be sent as written (its sender address, say), whoever receives it: it fails at once,
    /// and the recipient is not blamed with a bounce.
    #[error("unsendable: {0}")]
    Unsendable(String),
}

/// Hands email to a relay. Implementations MUST report a 5xx reply as [`SendError::Permanent`] and everything
/// that may succeed later as [`SendError::Transient`].
pub trait Mailer: Send + Sync {
    /// Sends one email.
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError>;
}

/// Hands text messages to an SMS provider. Implementations MUST report a refused number as
/// [`SendError::Permanent`] and everything that may succeed later as [`SendError::Transient`].
pub trait SmsSender: Send + Sync {
    /// Sends one text message (the subject, if any, is not part of it).
    fn send(&self, message: &OutgoingMessage) -> Result<(), SendError>;
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
    /// Sends a message on its channel (TWOWAY conversations go by SMS); LOGIN sends nothing, so a LOGIN
    /// message fails transiently.
    pub fn send(&self, channel: DispatchType, message: &OutgoingMessage) -> Result<(), SendError> {
        match channel {
            DispatchType::Email => self.email.send(message),
            DispatchType::Sms | DispatchType::TwoWay => self.sms.send(message),
            DispatchType::Login => Err(SendError::Transient(format!("no transport for {} messages", channel.as_str()))),
        }
    }
}
