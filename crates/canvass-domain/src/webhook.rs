//! Webhooks: URLs an account subscribes to events, the events the service writes when something happens, how
//! they are signed (Standard Webhooks), and the retry policy of their delivery.

pub mod address;
pub mod ports;
mod secret;

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use url::{Host, Url};

use crate::error::FieldError;
use crate::ids::{AccountId, AnswerSetId, RespondentId, SendoutId, SurveyId, WebhookId};
use crate::limits::push_length;

pub use secret::{WebhookSecret, SECRET_PREFIX};

/// Attempts of one delivery before it is given up as Failed.
pub const MAX_ATTEMPTS: i32 = 8;
/// Longest webhook URL, in characters.
pub const URL_MAX: usize = 2_000;
/// Longest webhook description, in characters.
pub const DESCRIPTION_MAX: usize = 500;
/// Deliveries `GET /webhooks/{id}/deliveries` lists at most: the newest.
pub const DELIVERIES_LISTED: i64 = 100;

/// What a webhook can be told about. Its name is what clients send and see, and what the store keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum WebhookEvent {
    /// An answer set was completed (through the API or the respondent page).
    #[strum(serialize = "answerSet.completed")]
    AnswerSetCompleted,
    /// A respondent's invitation was handed to the relay or provider.
    #[strum(serialize = "respondent.sent")]
    RespondentSent,
    /// A respondent's message bounced for good (at hand-over or in a late delivery status notification).
    #[strum(serialize = "respondent.bounced")]
    RespondentBounced,
    /// A respondent opted out through the link of the invitation (page or one-click).
    #[strum(serialize = "respondent.optedOut")]
    RespondentOptedOut,
    /// A sendout was activated.
    #[strum(serialize = "sendout.activated")]
    SendoutActivated,
    /// A sendout's messages began to wait on relay or sender trouble (once per hold; `data.kind` says whose).
    #[strum(serialize = "sendout.deliveryHeld")]
    SendoutDeliveryHeld,
    /// A test the account asked for (`POST /webhooks/{id}/test`); never subscribed to.
    #[strum(serialize = "webhook.test")]
    Test,
}

impl WebhookEvent {
    /// The name clients send and see.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How far a delivery has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
pub enum DeliveryStatus {
    /// Waiting for its first or next attempt.
    Pending,
    /// The receiver answered 2xx.
    Delivered,
    /// The last attempt failed too.
    Failed,
}

impl DeliveryStatus {
    /// The name clients see and the store keeps.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// A webhook as stored (its secret apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Webhook {
    /// Its id.
    pub id: WebhookId,
    /// Where deliveries are POSTed.
    pub url: String,
    /// The events it is subscribed to.
    pub events: Vec<WebhookEvent>,
    /// What it is for.
    pub description: Option<String>,
    /// Whether events are written for it.
    pub active: bool,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When its last delivery attempt was made, whatever came of it; `None` before the first.
    pub last_delivery_at: Option<OffsetDateTime>,
    /// Its failed attempts since its last successful one (0 after a success, and before any attempt).
    pub consecutive_failures: i32,
}

/// A webhook just created, with its secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatedWebhook {
    /// The webhook.
    pub webhook: Webhook,
    /// Its signing secret.
    pub secret: WebhookSecret,
}

/// A checked new webhook: an http or https URL of no private address (unless allowed), events without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookDraft {
    url: String,
    events: Vec<WebhookEvent>,
    description: Option<String>,
}

impl WebhookDraft {
    /// Checks a new webhook; every broken rule is reported. A host that is an IP address in a forbidden range
    /// ([`address::is_forbidden`]) or `localhost` is refused unless `allow_private`; host names are resolved and
    /// checked again at every delivery.
    pub fn check(
        url: &str,
        events: Vec<WebhookEvent>,
        description: Option<String>,
        allow_private: bool,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        push_length(&mut errors, "url", url, URL_MAX);
        if errors.is_empty() {
            if let Err(message) = check_url(url, allow_private) {
                errors.push(FieldError::new("url", message));
            }
        }
        if events.is_empty() {
            errors.push(FieldError::new("events", "must name at least one event"));
        }
        if events.contains(&WebhookEvent::Test) {
            errors.push(FieldError::new("events", "webhook.test is sent on request only and cannot be subscribed to"));
        }
        if let Some(description) = &description {
            push_length(&mut errors, "description", description, DESCRIPTION_MAX);
        }
        let description = description.filter(|d| !d.trim().is_empty());
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut unique = Vec::with_capacity(events.len());
        for event in events {
            if !unique.contains(&event) {
                unique.push(event);
            }
        }
        Ok(Self { url: url.trim().to_owned(), events: unique, description })
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The events, each once, in the order given.
    pub fn events(&self) -> &[WebhookEvent] {
        &self.events
    }

    /// The description, if any.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
}

/// Checks that `url` is an absolute http or https URL with a host that is not a forbidden address or `localhost`
/// (unless `allow_private`), and returns it parsed.
///
/// ```
/// use canvass_domain::webhook::check_url;
///
/// assert!(check_url("https://hooks.example.com/canvass", false).is_ok());
/// assert!(check_url("ftp://hooks.example.com/", false).is_err());
/// assert!(check_url("http://127.0.0.1:9000/", false).is_err());
/// assert!(check_url("http://127.0.0.1:9000/", true).is_ok());
/// ```
pub fn check_url(url: &str, allow_private: bool) -> Result<Url, String> {
    let parsed = Url::parse(url.trim()).map_err(|error| format!("must be an absolute http or https URL ({error})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("must be an http or https URL".into());
    }
    let private = match parsed.host() {
        None => return Err("must name a host".into()),
        Some(Host::Ipv4(v4)) => address::is_forbidden(v4.into()),
        Some(Host::Ipv6(v6)) => address::is_forbidden(v6.into()),
        Some(Host::Domain(name)) => address::is_local_name(name),
    };
    if private && !allow_private {
        return Err("must not point to a private, loopback or link-local address".into());
    }
    Ok(parsed)
}

/// The ids an event is about, and the account it belongs to: what its body's `data` holds (never contact details).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSubject {
    /// The account whose webhooks are told.
    pub account_id: AccountId,
    /// The survey, where one applies.
    pub survey_id: Option<SurveyId>,
    /// The sendout, where one applies.
    pub sendout_id: Option<SendoutId>,
    /// The respondent, where one applies.
    pub respondent_id: Option<RespondentId>,
    /// The answer set, where one applies.
    pub answer_set_id: Option<AnswerSetId>,
    /// Whose trouble holds a sendout's delivery (`sendout.deliveryHeld`).
    pub hold: Option<crate::delivery::HoldKind>,
}

impl EventSubject {
    /// An event about a respondent of a sendout of a survey.
    pub fn respondent(account: AccountId, survey: SurveyId, sendout: SendoutId, respondent: RespondentId) -> Self {
        Self {
            account_id: account,
            survey_id: Some(survey),
            sendout_id: Some(sendout),
            respondent_id: Some(respondent),
            answer_set_id: None,
            hold: None,
        }
    }

    /// A sendout whose delivery a hold of this kind began to hold back.
    pub fn held_sendout(
        account: AccountId,
        survey: SurveyId,
        sendout: SendoutId,
        kind: crate::delivery::HoldKind,
    ) -> Self {
        Self {
            account_id: account,
            survey_id: Some(survey),
            sendout_id: Some(sendout),
            respondent_id: None,
            answer_set_id: None,
            hold: Some(kind),
        }
    }

    /// The `data` object of the event's body: the ids that apply, in a fixed order.
    pub fn data_json(&self) -> String {
        let ids = [
            ("surveyId", self.survey_id.map(i64::from)),
            ("sendoutId", self.sendout_id.map(i64::from)),
            ("respondentId", self.respondent_id.map(i64::from)),
            ("answerSetId", self.answer_set_id.map(i64::from)),
        ];
        let mut fields: Vec<String> =
            ids.iter().filter_map(|(name, id)| id.map(|id| format!("\"{name}\":{id}"))).collect();
        if let Some(kind) = self.hold {
            fields.push(format!("\"kind\":\"{}\"", kind.as_str()));
        }
        format!("{{{}}}", fields.join(","))
    }
}

/// A delivery as listed to the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryView {
    /// Its id.
    pub id: i64,
    /// The event.
    pub event: WebhookEvent,
    /// How far it has come.
    pub status: DeliveryStatus,
    /// Attempts so far.
    pub attempts: i32,
    /// The HTTP status of the last attempt that got an answer.
    pub last_status_code: Option<i32>,
    /// Why its last failed attempt failed (kept after a later success; `None` when no attempt failed): the
    /// receiver's status (`the receiver answered 503`) or why it was not reached, never the URL.
    pub last_error: Option<String>,
    /// When it is attempted next (pending deliveries only).
    pub next_attempt_at: Option<OffsetDateTime>,
}

/// A delivery claimed by a worker, with what sending it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedDelivery {
    /// The owning account.
    pub account_id: AccountId,
    /// The delivery row.
    pub id: i64,
    /// The `webhook-id` header: stable across retries.
    pub message_id: String,
    /// Where it goes.
    pub url: String,
    /// The webhook's signing secret.
    pub secret: WebhookSecret,
    /// The event and its ids.
    pub event: WebhookEvent,
    /// The ids of the body's `data`.
    pub subject: EventSubject,
    /// When the event happened: the body's `timestamp`.
    pub occurred_at: OffsetDateTime,
    /// Attempts so far, this one included.
    pub attempts: i32,
    /// Until when this worker holds it: its attempt is recorded only while the lease is still this one.
    pub lease_until: OffsetDateTime,
}

impl ClaimedDelivery {
    /// The body: `{"type", "timestamp", "data"}`.
    ///
    /// ```
    /// use canvass_domain::webhook::{ClaimedDelivery, EventSubject, WebhookEvent, WebhookSecret};
    /// use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
    /// use time::macros::datetime;
    ///
    /// let subject = EventSubject {
    ///     account_id: AccountId::new(1),
    ///     survey_id: Some(SurveyId::new(4)),
    ///     sendout_id: Some(SendoutId::new(9)),
    ///     respondent_id: None,
    ///     answer_set_id: None,
    ///     hold: None,
    /// };
    /// let delivery = ClaimedDelivery {
    ///     account_id: AccountId::new(1),
    ///     id: 1,
    ///     message_id: "msg_1".into(),
    ///     url: "https://example.com/".into(),
    ///     secret: WebhookSecret::generate(),
    ///     event: WebhookEvent::SendoutActivated,
    ///     subject,
    ///     occurred_at: datetime!(2026-11-25 10:00:00 UTC),
    ///     attempts: 1,
    ///     lease_until: datetime!(2026-11-25 10:05:00 UTC),
    /// };
    /// assert_eq!(
    ///     delivery.body(),
    ///     r#"{"type":"sendout.activated","timestamp":"2026-11-25T10:00:00Z","data":{"surveyId":4,"sendoutId":9}}"#
    /// );
    /// ```
    pub fn body(&self) -> String {
        let timestamp = self.occurred_at.format(&Rfc3339).unwrap_or_default();
        format!(
            "{{\"type\":\"{}\",\"timestamp\":\"{timestamp}\",\"data\":{}}}",
            self.event.as_str(),
            self.subject.data_json()
        )
    }

    /// The signed request of an attempt at `now`.
    pub fn request(&self, now: OffsetDateTime) -> WebhookRequest {
        let body = self.body();
        let timestamp = now.unix_timestamp();
        let signature = self.secret.sign(&self.message_id, timestamp, &body);
        WebhookRequest { url: self.url.clone(), message_id: self.message_id.clone(), timestamp, signature, body }
    }
}

/// One signed POST of a delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookRequest {
    /// Where it goes.
    pub url: String,
    /// The `webhook-id` header.
    pub message_id: String,
    /// The `webhook-timestamp` header: Unix seconds of the attempt.
    pub timestamp: i64,
    /// The `webhook-signature` header.
    pub signature: String,
    /// The JSON body.
    pub body: String,
}

/// What the receiver made of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptResult {
    /// It answered with this HTTP status.
    Answered(u16),
    /// It was not reached, or not allowed to be (a private address): why.
    NotReached(String),
}

/// Sends webhook requests. Implementations refuse to connect to a forbidden address unless they are told to allow
/// them, follow no redirects and give up after a timeout.
pub trait WebhookSender: Send + Sync {
    /// Sends a round of requests, several at once where it can, each with its result in the same order.
    fn send_all(&self, requests: &[WebhookRequest]) -> Vec<AttemptResult>;
}

/// What is recorded of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptRecord {
    /// The owning account.
    pub account_id: AccountId,
    /// The delivery row.
    pub id: i64,
    /// The lease the attempt was made under.
    pub lease_until: OffsetDateTime,
    /// Its status now.
    pub status: DeliveryStatus,
    /// When it is due again (Pending only).
    pub due_at: Option<OffsetDateTime>,
    /// The HTTP status it got, if any.
    pub status_code: Option<i32>,
    /// Why it failed, if it did.
    pub error: Option<String>,
    /// When the attempt was made: the webhook's `last_delivery_at` from now on.
    pub attempted_at: OffsetDateTime,
}

impl AttemptRecord {
    /// The record of `delivery`'s attempt at `now` that ended in `result`: Delivered on a 2xx, else due again
    /// after [`crate::delivery::retry_delay`], or Failed after the last of [`MAX_ATTEMPTS`].
    pub fn of(delivery: &ClaimedDelivery, result: AttemptResult, now: OffsetDateTime) -> Self {
        let (status_code, error) = match result {
            AttemptResult::Answered(code) if (200..300).contains(&code) => (Some(i32::from(code)), None),
            AttemptResult::Answered(code) => (Some(i32::from(code)), Some(format!("the receiver answered {code}"))),
            AttemptResult::NotReached(why) => (None, Some(crate::limits::truncated(why, crate::limits::REASON))),
        };
        let (status, due_at) = match &error {
            None => (DeliveryStatus::Delivered, None),
            Some(_) if delivery.attempts >= MAX_ATTEMPTS => (DeliveryStatus::Failed, None),
            Some(_) => (DeliveryStatus::Pending, Some(now + crate::delivery::retry_delay(delivery.attempts))),
        };
        Self {
            account_id: delivery.account_id,
            id: delivery.id,
            lease_until: delivery.lease_until,
            status,
            due_at,
            status_code,
            error,
            attempted_at: now,
        }
    }

    /// Whether the attempt failed (any answer but a 2xx, or none): it counts towards the webhook's
    /// consecutive failures.
    pub fn failed(&self) -> bool {
        self.status != DeliveryStatus::Delivered
    }
}

#[cfg(test)]
mod tests;
