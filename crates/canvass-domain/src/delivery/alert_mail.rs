//! Alert emails as the delivery worker sends them: claimed from the alert outbox with their text already written,
//! sent through the email relay beside invitations, their outcomes judged by the same blame, retry and hold rules.

use time::{Duration, OffsetDateTime};

use super::{LinkBase, Outcome, OutgoingMessage};
use crate::ids::{AccountId, AlertId, AnswerSetId};

/// An alert email claimed from the alert outbox.
#[derive(Clone, PartialEq, Eq)]
pub struct ClaimedAlert {
    /// The owning account.
    pub account_id: AccountId,
    /// The alert outbox row.
    pub id: i64,
    /// The alert that sends it.
    pub alert_id: AlertId,
    /// The answer set it tells of.
    pub answer_set_id: AnswerSetId,
    /// Where it goes.
    pub recipient: String,
    /// Its subject.
    pub subject: String,
    /// Its text.
    pub body: String,
    /// Random, stable across retries: the local part of its Message-ID.
    pub message_token: String,
    /// Attempts so far, this one included.
    pub attempts: i32,
    /// Times it was held so far (relay or sender trouble).
    pub holds: i32,
    /// The part of its lifetime used so far (the waits between tries after transient failures).
    pub aged: Duration,
    /// Until when this worker holds it: its outcome is recorded only while the lease is still this one.
    pub lease_until: OffsetDateTime,
}

impl ClaimedAlert {
    /// The email as it goes out, from `sender`: plain text, no opt-out (its recipients are the account's people,
    /// who stop it by deleting the alert).
    pub fn render(&self, base: &LinkBase, sender: &str) -> OutgoingMessage {
        OutgoingMessage {
            idempotency_key: format!("alert-{}-{}", self.account_id, self.id),
            message_id: base.message_id(&self.message_token),
            to: self.recipient.clone(),
            from: sender.to_owned(),
            subject: Some(self.subject.clone()),
            body: self.body.clone(),
            html: None,
            unsubscribe_url: None,
        }
    }
}

/// A claimed alert email and what became of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettledAlert {
    /// The email.
    pub alert: ClaimedAlert,
    /// Its outcome (never `Cancelled`: no respondent's status stops it).
    pub outcome: Outcome,
}

crate::debug_without_personal_data!(ClaimedAlert { account_id, id, alert_id, answer_set_id, attempts, holds });
