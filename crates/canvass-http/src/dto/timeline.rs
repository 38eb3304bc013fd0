//! Bodies of timelines: a respondent's events, and a contact's (each naming its sendout and respondent).

use canvass_domain::distribution::{EventKind, RespondentEvent};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::mirror::mirrored;

mirrored! {
    /// What happened to a respondent.
    #[derive(Debug, Clone, Copy, Serialize, ToSchema)]
    #[serde(rename_all = "camelCase")]
    pub enum EventTypeBody <= EventKind {
        /// Added to its sendout (one by one, in a batch, from a list, or as an open link's visitor).
        Added,
        /// Released by an activation.
        Released,
        /// Held back by an activation: the contact was surveyed too often.
        FrequencyLimited,
        /// Its contact is on the blocklist (`detail.type` when a blocklist entry moved it): nothing is sent.
        Blocklisted,
        /// Its message waits for the relay or sender (`detail.refusal`, `detail.nextAttemptAt`).
        Held,
        /// Its message was refused for now (`detail.reply`, `detail.nextAttemptAt`).
        Deferred,
        /// Its invitation was handed over (`detail.channel`, `detail.reply`).
        Sent,
        /// Its address was refused for good (`detail.code`, `detail.reason`).
        Bounced,
        /// Its invitation could not be sent (`detail.reason`).
        Failed,
        /// Its survey link expired before the invitation went.
        Expired,
        /// It opened a page for the first time (`detail.pageId`).
        PageViewed,
        /// It saved a page (`detail.pageId`).
        PageSaved,
        /// It finished the survey.
        Completed,
        /// It opted out through its link.
        OptedOut,
        /// A reminder was handed over (`detail.channel`, `detail.reply`).
        ReminderSent,
    }
}

/// What an event needs to be understood: the fields of its kind (documentation of `detail`, never read).
#[derive(Debug, ToSchema)]
#[serde(rename_all = "camelCase")]
#[expect(dead_code, reason = "a schema for the document only: `detail` is written as JSON")]
pub struct EventDetail {
    /// `sent`, `reminderSent`: EMAIL or SMS, how it went.
    channel: Option<String>,
    /// `held`: the relay's or provider's refusal that holds the message.
    refusal: Option<String>,
    /// `sent`, `reminderSent`, `deferred`: the relay's or provider's reply (`250 2.0.0 Ok: queued as 4F2A`).
    reply: Option<String>,
    /// `held`, `deferred`: when the message is tried next.
    #[schema(format = DateTime)]
    next_attempt_at: Option<String>,
    /// `bounced`: the SMTP reply code the refusal starts with, when it does.
    code: Option<String>,
    /// `bounced`, `failed`: the refusal or the failure.
    reason: Option<String>,
    /// `pageViewed`, `pageSaved`: the page.
    page_id: Option<i64>,
    /// `blocklisted` by a blocklist entry: its type.
    #[serde(rename = "type")]
    entry_type: Option<String>,
}

/// One event of a respondent's timeline.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventResponse {
    /// When it happened.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// What happened.
    #[serde(rename = "type")]
    pub kind: EventTypeBody,
    /// What it needs to be understood; null when nothing.
    #[schema(value_type = Option<EventDetail>, required = true)]
    pub detail: Option<serde_json::Value>,
}

impl From<RespondentEvent> for EventResponse {
    fn from(event: RespondentEvent) -> Self {
        Self { at: event.at, kind: event.kind.into(), detail: event.detail }
    }
}

/// One event of a contact's timeline: an event of one of the respondents made from it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactEventResponse {
    /// When it happened.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// What happened.
    #[serde(rename = "type")]
    pub kind: EventTypeBody,
    /// What it needs to be understood; null when nothing.
    #[schema(value_type = Option<EventDetail>, required = true)]
    pub detail: Option<serde_json::Value>,
    /// The respondent's sendout.
    pub sendout_id: i64,
    /// The respondent.
    pub respondent_id: i64,
}

impl From<RespondentEvent> for ContactEventResponse {
    fn from(event: RespondentEvent) -> Self {
        Self {
            at: event.at,
            kind: event.kind.into(),
            detail: event.detail,
            sendout_id: event.sendout.get(),
            respondent_id: event.respondent.get(),
        }
    }
}
