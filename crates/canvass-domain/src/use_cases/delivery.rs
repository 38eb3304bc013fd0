//! The delivery worker's work: turn due reminders into messages, claim due messages, send them, record what
//! happened. Sending happens outside any transaction; a crash between sending and recording leaves the lease to
//! expire, and the message is sent again with the same idempotency key (the email's Message-ID).

use time::{Duration, OffsetDateTime};

use crate::delivery::{retry_delay, ClaimedMessage, SendError, Transports, MAX_ATTEMPTS};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::error::DomainError;
use crate::ports::UnitOfWork;

/// How long a claimed message is reserved for the worker that claimed it, unless the worker says otherwise.
pub const LEASE: Duration = Duration::minutes(5);

/// What one round of the worker did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    /// Reminder messages written to the outbox.
    pub reminders_enqueued: u64,
    /// Messages claimed.
    pub claimed: usize,
    /// Handed to the relay.
    pub sent: usize,
    /// Refused for good (bounces).
    pub bounced: usize,
    /// Due again later after a transient failure.
    pub retried: usize,
    /// Given up after the last attempt.
    pub failed: usize,
    /// Not sent: blocklisted or expired by now.
    pub cancelled: usize,
}

/// Runs one round at `now`: enqueues due reminders, claims up to `limit` due messages under a `lease` and
/// delivers them on their channel's transport. Links point under `public_url`. A message whose worker dies is
/// claimed again once its lease has run out. EMAIL and SMS messages are claimed; TWOWAY conversations start with their
/// invitation followed by the first question.
pub fn deliver_due(
    uow: &mut impl UnitOfWork,
    transports: Transports<'_>,
    now: OffsetDateTime,
    public_url: &str,
    limit: i64,
    lease: Duration,
) -> Result<DeliveryReport, DomainError> {
    let mut report = DeliveryReport {
        reminders_enqueued: uow.transaction(|tx| Ok(tx.enqueue_due_reminders(now)?))?,
        ..Default::default()
    };
    let claimed = uow.transaction(|tx| Ok(tx.claim_due(now, now + lease, limit)?))?;
    report.claimed = claimed.len();
    for message in claimed {
        deliver(uow, transports, &message, now, public_url, &mut report)?;
    }
    Ok(report)
}

fn deliver(
    uow: &mut impl UnitOfWork,
    transports: Transports<'_>,
    message: &ClaimedMessage,
    now: OffsetDateTime,
    public_url: &str,
    report: &mut DeliveryReport,
) -> Result<(), DomainError> {
    let cancel_as = if message.blocklisted {
        Some(RespondentStatus::Blocklisted)
    } else if message.expiry_date.is_some_and(|expiry| expiry <= now) {
        Some(RespondentStatus::Expired)
    } else {
        None
    };
    if let Some(status) = cancel_as {
        report.cancelled += 1;
        return uow.transaction(|tx| Ok(tx.cancel(message, status)?));
    }
    let mut outgoing = message.render(public_url);
    if message.channel == DispatchType::TwoWay && !message.is_reminder && !message.own_text {
        // A conversation starts with the invitation's own text and the first question.
        let tree = uow.question_tree(message.account_id, message.survey_id)?;
        if let Some(question) = super::twoway::first_question(&tree) {
            outgoing.body = format!("{}\n\n{question}", outgoing.body);
        }
    }
    match transports.send(message.channel, &outgoing) {
        Ok(()) => {
            report.sent += 1;
            uow.transaction(|tx| Ok(tx.record_sent(message, now)?))
        }
        Err(SendError::Permanent(reason)) => {
            report.bounced += 1;
            uow.transaction(|tx| Ok(tx.record_bounce(message, &reason, now)?))
        }
        Err(SendError::Unsendable(error)) => {
            report.failed += 1;
            uow.transaction(|tx| Ok(tx.record_failed(message, &error)?))
        }
        Err(SendError::Transient(error)) if message.attempts >= MAX_ATTEMPTS => {
            report.failed += 1;
            uow.transaction(|tx| Ok(tx.record_failed(message, &error)?))
        }
        Err(SendError::Transient(error)) => {
            report.retried += 1;
            let due_at = now + retry_delay(message.attempts);
            uow.transaction(|tx| Ok(tx.reschedule(message, due_at, &error)?))
        }
    }
}
