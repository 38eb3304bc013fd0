//! A respondent's timeline: what happened to it, in order, each event with what it needs to be understood (the
//! relay's reply, the page), so that "I never got the survey" has an answer.

use time::OffsetDateTime;

use crate::ids::{RespondentId, SendoutId};

/// What happened to a respondent. Its name (`added`, `frequencyLimited`, ...) is what the store keeps and clients
/// see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::EnumString, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "camelCase")]
pub enum EventKind {
    /// Added to its sendout (one by one, in a batch, from a list, or as an open link's visitor).
    Added,
    /// Released by an activation (to be sent, or to answer without a message).
    Released,
    /// Held back by an activation: the contact was surveyed too often.
    FrequencyLimited,
    /// Its contact is on the blocklist: nothing is sent.
    Blocklisted,
    /// Its message waits: the relay or the sender is in trouble (`detail.refusal`), no attempt counted.
    Held,
    /// Its message was refused for now (`detail.reply`) and is tried again.
    Deferred,
    /// Its invitation was handed over.
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
    /// A reminder was handed over (`detail.reminderId`).
    ReminderSent,
}

impl EventKind {
    /// The kind's name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One event of a timeline. Its `Debug` leaves out `detail`, which may quote a relay's reply naming the address.
#[derive(Clone, PartialEq)]
pub struct RespondentEvent {
    /// The respondent's sendout.
    pub sendout: SendoutId,
    /// The respondent.
    pub respondent: RespondentId,
    /// When it happened.
    pub at: OffsetDateTime,
    /// What happened.
    pub kind: EventKind,
    /// What it needs to be understood, as an object; `None` when nothing.
    pub detail: Option<serde_json::Value>,
}

crate::debug_without_personal_data!(RespondentEvent { sendout, respondent, at, kind });

/// The most events a contact's timeline answers (its latest); a respondent's has no more than its few kinds make.
pub const MAX_CONTACT_EVENTS: i64 = 5_000;

/// The three-digit SMTP reply code a refusal starts with (`550 5.1.1 ...`), if it does.
///
/// ```
/// use canvass_domain::distribution::reply_code;
///
/// assert_eq!(reply_code("550 5.1.1 <ann@example.com>: unknown"), Some("550"));
/// assert_eq!(reply_code("smtp; 550 5.1.1 unknown"), None);
/// ```
pub fn reply_code(reply: &str) -> Option<&str> {
    let code = reply.get(..3)?;
    let digits = code.bytes().all(|b| b.is_ascii_digit()) && code.starts_with(['2', '4', '5']);
    let ends = reply.as_bytes().get(3).is_none_or(|b| *b == b' ' || *b == b'-');
    (digits && ends).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_named_as_the_contract_names_them() {
        assert_eq!(EventKind::FrequencyLimited.as_str(), "frequencyLimited");
        assert_eq!("reminderSent".parse::<EventKind>().unwrap(), EventKind::ReminderSent);
        assert_eq!(reply_code("421"), Some("421"));
        assert_eq!(reply_code("5501 x"), None);
    }
}
