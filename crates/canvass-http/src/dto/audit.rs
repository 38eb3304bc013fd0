//! Bodies of the audit log's endpoint: a page of events, newest first.

use canvass_domain::audit::{AuditEvent, AuditFilter, AuditPage};
use canvass_domain::ids::UserId;
use canvass_domain::timestamp::DayEdge;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use super::client_date::ClientDate;
use super::schemas::DateText;

/// Filters and paging of the audit log.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct AuditQuery {
    /// Only events at or after this instant (a day: its start).
    #[param(value_type = Option<DateText>)]
    pub from: Option<ClientDate>,
    /// Only events before this instant (a day: its end).
    #[param(value_type = Option<DateText>)]
    pub to: Option<ClientDate>,
    /// Only events of this user.
    #[param(minimum = 1)]
    pub actor: Option<i64>,
    /// Only events of this action (`survey.create`).
    #[param(min_length = 1, max_length = 64)]
    pub action: Option<String>,
    /// Events per page, 1 to 1000 (100 unless given).
    #[param(minimum = 1, maximum = 1000)]
    pub page_size: Option<i64>,
    /// Where the page starts: the previous page's `nextCursor`.
    #[param(max_length = 20, pattern = "^[1-9][0-9]*$")]
    pub cursor: Option<String>,
}

impl AuditQuery {
    /// The filter it asks for.
    pub fn filter(&self) -> AuditFilter {
        AuditFilter {
            from: self.from.map(|from| from.at(DayEdge::Start)),
            to: self.to.map(|to| to.at(DayEdge::End)),
            actor: self.actor.map(UserId::new),
            action: self.action.clone(),
        }
    }
}

/// Who did it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActorResponse {
    /// The key's user.
    pub user_id: i64,
    /// The key's first 16 characters.
    pub key_prefix: String,
}

/// What it was done to.
#[derive(Debug, Serialize, ToSchema)]
pub struct TargetResponse {
    /// The kind of thing (`survey`, `key`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its id; null when the request named or made none.
    #[schema(required = true)]
    pub id: Option<String>,
}

/// One event of the audit log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEventResponse {
    /// Its id.
    pub event_id: i64,
    /// When.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Who.
    pub actor: ActorResponse,
    /// What, as `<resource>.<verb>` (the operation's `x-canvass-audit`).
    pub action: String,
    /// To what.
    pub target: TargetResponse,
    /// The client's address as the service read it.
    #[schema(required = true)]
    pub client_address: Option<String>,
    /// The request's id (its answer's `X-Request-Id`).
    #[schema(required = true)]
    pub request_id: Option<String>,
    /// The HTTP status it was answered with: a 2xx for a change made, a 4xx for a refusal.
    pub status: u16,
}

impl From<AuditEvent> for AuditEventResponse {
    fn from(recorded: AuditEvent) -> Self {
        let event = recorded.event;
        Self {
            event_id: recorded.id.get(),
            at: event.at,
            actor: ActorResponse { user_id: event.actor.user_id.get(), key_prefix: event.actor.key.to_string() },
            action: event.action,
            target: TargetResponse { kind: event.target.kind, id: event.target.id },
            client_address: event.client_address,
            request_id: event.request_id,
            status: event.status,
        }
    }
}

/// A page of the audit log.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPageResponse {
    /// The events, newest first.
    pub events: Vec<AuditEventResponse>,
    /// The next page's `cursor`; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

impl From<AuditPage> for AuditPageResponse {
    fn from(page: AuditPage) -> Self {
        Self {
            events: page.events.into_iter().map(AuditEventResponse::from).collect(),
            next_cursor: page.next.map(|cursor| cursor.to_string()),
        }
    }
}
