//! The delivery worker's work: turn due reminders into messages, claim due messages, send them, record what
//! happened. Sending happens outside any transaction; a crash between sending and recording leaves the lease to
//! expire, and the message is sent again with the same idempotency key (the email's Message-ID).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use time::{Duration, OffsetDateTime};

use crate::delivery::{retry_delay, ClaimedMessage, SendError, Transports, MAX_ATTEMPTS};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::error::DomainError;
use crate::ids::{AccountId, SurveyId};
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

/// What became of one claimed message, recorded with the rest of its round.
enum Outcome {
    Sent,
    Bounced(String),
    Failed(String),
    DueAgain(OffsetDateTime, String),
    Cancelled(RespondentStatus),
}

/// Runs one round at `now`: enqueues due reminders, claims up to `limit` due messages under a `lease` and
/// delivers them on their channel's transport. Links point under `public_url`. The round's outcomes are recorded
/// together in one transaction once its messages are sent; a worker that dies before that leaves the lease to
/// run out, and the round's messages are claimed and sent again with their idempotency keys. EMAIL, SMS and
/// TWOWAY messages are claimed; TWOWAY conversations start with their invitation followed by the first question.
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
    let mut first_questions = HashMap::new();
    let mut outcomes = Vec::with_capacity(claimed.len());
    for message in &claimed {
        let outcome = deliver(uow, transports, message, now, public_url, &mut first_questions)?;
        match outcome {
            Outcome::Sent => report.sent += 1,
            Outcome::Bounced(_) => report.bounced += 1,
            Outcome::Failed(_) => report.failed += 1,
            Outcome::DueAgain(..) => report.retried += 1,
            Outcome::Cancelled(_) => report.cancelled += 1,
        }
        outcomes.push(outcome);
    }
    uow.transaction(|tx| {
        for (message, outcome) in claimed.iter().zip(&outcomes) {
            match outcome {
                Outcome::Sent => tx.record_sent(message, now)?,
                Outcome::Bounced(reason) => tx.record_bounce(message, reason, now)?,
                Outcome::Failed(error) => tx.record_failed(message, error)?,
                Outcome::DueAgain(due_at, error) => tx.reschedule(message, *due_at, error)?,
                Outcome::Cancelled(status) => tx.cancel(message, *status)?,
            }
        }
        Ok(())
    })?;
    Ok(report)
}

/// The first question of each TWOWAY survey met in a round, read once per survey.
type FirstQuestions = HashMap<(AccountId, SurveyId), Option<String>>;

fn deliver(
    uow: &mut impl UnitOfWork,
    transports: Transports<'_>,
    message: &ClaimedMessage,
    now: OffsetDateTime,
    public_url: &str,
    first_questions: &mut FirstQuestions,
) -> Result<Outcome, DomainError> {
    if message.blocklisted {
        return Ok(Outcome::Cancelled(RespondentStatus::Blocklisted));
    }
    if message.expiry_date.is_some_and(|expiry| expiry <= now) {
        return Ok(Outcome::Cancelled(RespondentStatus::Expired));
    }
    let mut outgoing = message.render(public_url);
    if message.channel == DispatchType::TwoWay && !message.is_reminder && !message.own_text {
        // A conversation starts with the invitation's own text and the first question.
        let question = match first_questions.entry((message.account_id, message.survey_id)) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => {
                new.insert(super::twoway::first_question(&uow.question_tree(message.account_id, message.survey_id)?))
            }
        };
        if let Some(question) = question {
            outgoing.body = format!("{}\n\n{question}", outgoing.body);
        }
    }
    Ok(match transports.send(message.channel, &outgoing) {
        Ok(()) => Outcome::Sent,
        Err(SendError::Permanent(reason)) => Outcome::Bounced(reason),
        Err(SendError::Unsendable(error)) => Outcome::Failed(error),
        Err(SendError::Transient(error)) if message.attempts >= MAX_ATTEMPTS => Outcome::Failed(error),
        Err(SendError::Transient(error)) => Outcome::DueAgain(now + retry_delay(message.attempts), error),
    })
}
