//! Late bounces: a delivery status notification (RFC 3464) that the relay sends after it accepted a message. A
//! recipient the report says failed for good (`Action: failed`, a 5.x.x status) is recorded exactly as an SMTP 5xx
//! at hand-over: a permanent failure with sendout and respondent, and the respondent Bounced.

use crate::clock::Clock;
use crate::delivery::dsn::StatusReport;
use crate::delivery::{Outcome, Settled};
use crate::error::DomainError;
use crate::limits::{truncated, REASON};
use crate::ports::{transaction, OutboxRepository, SentLookup, Transactional, WebhookEvents};

/// What a report changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportOutcome {
    /// The report was read, and these recipients recorded.
    Recorded {
        /// Recipients recorded as permanent failures.
        permanent_failures: usize,
        /// Recipients that changed nothing: delayed, delivered, a 4.x.x status, or a report of no message of ours.
        ignored: usize,
    },
    /// The report names a permanent failure of a message whose round is still being sent or recorded: nothing is
    /// changed now, and the caller should hand the report over again later.
    InFlight,
}

/// The length of the Message-ID tokens the service writes (a random UUID's 32 hexadecimal digits: 122 random bits).
pub const MESSAGE_TOKEN_LEN: usize = 32;

/// Records the permanent failures a report names against the message it reports on, found by the token of its
/// original Message-ID. A report that matches no message sent by the service changes nothing.
pub fn record_report(
    uow: &mut (impl OutboxRepository + Transactional + WebhookEvents + ?Sized),
    clock: &dyn Clock,
    report: &StatusReport,
) -> Result<ReportOutcome, DomainError> {
    let failures: Vec<String> =
        report.recipients.iter().filter(|r| r.is_permanent_failure()).map(|r| r.reason()).collect();
    let nothing = ReportOutcome::Recorded { permanent_failures: 0, ignored: report.recipients.len() };
    let token = report.message_token().filter(|token| is_message_token(token));
    let (Some(token), false) = (token, failures.is_empty()) else { return Ok(nothing) };
    let message = match uow.find_sent_by_token(token)? {
        SentLookup::Sent(message) => *message,
        SentLookup::InFlight => return Ok(ReportOutcome::InFlight),
        SentLookup::Unknown => return Ok(nothing),
    };
    let settled = [Settled { message, outcome: Outcome::Bounced(truncated(failures.join("; "), REASON)) }];
    let now = clock.now();
    if transaction(uow, |tx| super::delivery::record_outcomes(tx, &settled, now))? == 0 {
        // The same report, handed over twice at once, was recorded by the other request.
        return Ok(nothing);
    }
    Ok(ReportOutcome::Recorded {
        permanent_failures: failures.len(),
        ignored: report.recipients.len() - failures.len(),
    })
}

/// Whether a Message-ID's local part can be one of the service's tokens (so others are never looked up).
///
/// ```
/// use canvass_domain::use_cases::bounces::is_message_token;
///
/// assert!(is_message_token("0123456789abcdef0123456789abcdef"));
/// assert!(!is_message_token("inv-1-2"));
/// ```
pub fn is_message_token(text: &str) -> bool {
    text.len() == MESSAGE_TOKEN_LEN && text.bytes().all(|b| b.is_ascii_hexdigit())
}
