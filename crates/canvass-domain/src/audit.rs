//! The audit log: who did what to which thing, when, from where and with what outcome; never what the thing holds
//! (no contact details, no email addresses, no answers). An event is written in the transaction of the change it
//! records, or, for a refused request, on its own; nothing changes or deletes one but the retention timer, after
//! [`DEFAULT_RETENTION_DAYS`] (`AUDIT_RETENTION_DAYS`).

pub mod ports;

use time::OffsetDateTime;

use crate::account::KeyPrefix;
use crate::error::FieldError;
use crate::ids::{AuditEventId, UserId};

/// Days an event is kept unless `AUDIT_RETENTION_DAYS` says otherwise.
pub const DEFAULT_RETENTION_DAYS: u32 = 400;

/// The most events one page holds.
pub const MAX_PAGE_SIZE: i64 = 1000;

/// Events per page unless the request says.
pub const DEFAULT_PAGE_SIZE: i64 = 100;

/// Longest action name a filter may give, in characters.
pub const MAX_ACTION: usize = 64;

/// Who did it: the user and the key it presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    /// The key's user.
    pub user_id: UserId,
    /// The key's prefix.
    pub key: KeyPrefix,
}

/// What it was done to: a kind of thing (`survey`) and, where the request names one, its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The kind of thing.
    pub kind: String,
    /// Its id, when the request named or made one.
    pub id: Option<String>,
}

/// An event to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAuditEvent {
    /// When.
    pub at: OffsetDateTime,
    /// Who.
    pub actor: Actor,
    /// What, as `<resource>.<verb>` (`survey.create`).
    pub action: String,
    /// To what.
    pub target: Target,
    /// From where: the client's address as the service reads it (behind trusted proxies, the client's).
    pub client_address: Option<String>,
    /// The request's id, as its answer's `X-Request-Id` gave it.
    pub request_id: Option<String>,
    /// The HTTP status it was answered with.
    pub status: u16,
}

/// A recorded event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    /// Its id: later events have greater ids.
    pub id: AuditEventId,
    /// What was recorded.
    pub event: NewAuditEvent,
}

/// Which events a read asks for: all of them unless narrowed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFilter {
    /// At or after.
    pub from: Option<OffsetDateTime>,
    /// Before.
    pub to: Option<OffsetDateTime>,
    /// Of this user.
    pub actor: Option<UserId>,
    /// Of this action.
    pub action: Option<String>,
}

impl AuditFilter {
    /// Checks the filter: `to` after `from`, an actor that can be a user (id 1 or more), an action name of at most
    /// [`MAX_ACTION`] characters.
    pub fn checked(self) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        if let (Some(from), Some(to)) = (self.from, self.to) {
            if to <= from {
                errors.push(FieldError::new("to", "must be after from"));
            }
        }
        if self.actor.is_some_and(|actor| actor.get() < 1) {
            errors.push(FieldError::new("actor", "must be a user's id, 1 or more"));
        }
        if self.action.as_ref().is_some_and(|action| action.is_empty() || action.chars().count() > MAX_ACTION) {
            errors.push(FieldError::new("action", format!("must hold 1 to {MAX_ACTION} characters")));
        }
        if errors.is_empty() {
            Ok(self)
        } else {
            Err(errors)
        }
    }
}

/// Where a page starts: before the event with this id (the previous page's last), or at the newest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditCursor(pub AuditEventId);

impl AuditCursor {
    /// The cursor a page's `nextCursor` gave, or `None` when `text` is not one.
    ///
    /// ```
    /// use canvass_domain::audit::AuditCursor;
    ///
    /// assert_eq!(AuditCursor::parse("42").map(|c| c.to_string()), Some("42".into()));
    /// assert_eq!(AuditCursor::parse("0"), None);
    /// assert_eq!(AuditCursor::parse("x"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        text.parse::<i64>().ok().filter(|id| *id > 0).map(|id| Self(AuditEventId::new(id)))
    }
}

impl std::fmt::Display for AuditCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.get())
    }
}

/// A page of events, newest first, and where the next one starts (`None` at the end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    /// The events.
    pub events: Vec<AuditEvent>,
    /// The next page's cursor.
    pub next: Option<AuditCursor>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by(actor: i64) -> AuditFilter {
        AuditFilter { actor: Some(UserId::new(actor)), ..AuditFilter::default() }
    }

    #[test]
    fn an_actor_is_a_users_id_from_1() {
        assert!(by(1).checked().is_ok());
        for actor in [0, -3] {
            let errors = by(actor).checked().unwrap_err();
            assert_eq!(errors.iter().map(|error| error.field.as_str()).collect::<Vec<_>>(), ["actor"]);
        }
    }
}
