//! Late bounces: a report's permanent failures are recorded against the message its Message-ID names, once, and
//! write `respondent.bounced`; a report of a message still in flight waits, and anything else changes nothing.

use crate::delivery::dsn::{RecipientStatus, StatusReport};
use crate::delivery::{ClaimedMessage, Outcome};
use crate::distribution::DispatchType;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::use_cases::bounces::{record_report, ReportOutcome};
use crate::webhook::{EventSubject, WebhookEvent};

use super::seeds::outbox::due;
use super::seeds::{At, NOW};
use crate::testing::{Memory, MessageStatus};

fn recipient(action: &str, status: &str) -> RecipientStatus {
    RecipientStatus {
        recipient: "ann@example.com".into(),
        action: action.into(),
        status: status.into(),
        diagnostic: Some("550 5.1.1 user unknown".into()),
    }
}

fn report(message: &ClaimedMessage, recipients: Vec<RecipientStatus>) -> StatusReport {
    StatusReport { original_message_id: Some(format!("<{}@canvass.example>", message.message_token)), recipients }
}

/// An outbox whose message 1 was sent (`sent`) or is claimed and not recorded yet.
fn outbox(sent: bool) -> (Memory, ClaimedMessage) {
    let message = due(1, DispatchType::Email, "ann@example.com");
    let mut fake = Memory::default();
    fake.seed_message(message);
    let held = &mut fake.state.outbox[0];
    (held.message.attempts, held.message.lease_until) = (1, Some(NOW));
    if sent {
        (held.status, held.message.lease_until, held.sent_at) = (MessageStatus::Sent, None, Some(NOW));
    }
    let message = held.message.clone();
    (fake, message)
}

fn rounds(fake: &Memory) -> usize {
    fake.hooks.rounds.len()
}

#[test]
fn a_permanent_failure_of_a_sent_message_is_recorded_as_a_bounce_once() {
    let (mut fake, message) = outbox(true);
    let failed = report(&message, vec![recipient("failed", "5.1.1"), recipient("delivered", "2.0.0")]);

    let outcome = record_report(&mut fake, &At(NOW), &failed).unwrap();

    assert_eq!(outcome, ReportOutcome::Recorded { permanent_failures: 1, ignored: 1 });
    let last = &fake.hooks.rounds[rounds(&fake) - 1];
    assert!(matches!(&last[0].outcome, Outcome::Bounced(reason) if reason.starts_with("5.1.1")), "{last:?}");
    let subject =
        EventSubject::respondent(AccountId::new(1), SurveyId::new(1), SendoutId::new(10), RespondentId::new(101));
    assert_eq!(fake.state.events, [(WebhookEvent::RespondentBounced, subject)]);
    assert_eq!(fake.transactions.committed, 1);

    let again = record_report(&mut fake, &At(NOW), &failed).unwrap();
    assert_eq!(again, ReportOutcome::Recorded { permanent_failures: 0, ignored: 2 }, "bounced already");
    assert_eq!(rounds(&fake), 1, "nothing recorded the second time");
    assert_eq!(fake.state.outbox[0].status, MessageStatus::Bounced);
    assert_eq!(fake.state.failures.len(), 1, "the failure is recorded once");
    assert_eq!(fake.state.events.len(), 1);
}

#[test]
fn a_report_of_a_message_in_flight_waits() {
    let (mut fake, message) = outbox(false);
    let outcome = record_report(&mut fake, &At(NOW), &report(&message, vec![recipient("failed", "5.1.1")]));
    assert_eq!(outcome.unwrap(), ReportOutcome::InFlight);
    assert_eq!(rounds(&fake), 0);
    assert!(fake.state.events.is_empty());
}

#[test]
fn delays_temporary_failures_and_strangers_change_nothing() {
    let (mut fake, message) = outbox(true);
    let delayed = report(&message, vec![recipient("delayed", "4.4.1"), recipient("failed", "4.2.2")]);
    let outcome = record_report(&mut fake, &At(NOW), &delayed).unwrap();
    assert_eq!(outcome, ReportOutcome::Recorded { permanent_failures: 0, ignored: 2 });

    let mut stranger = report(&message, vec![recipient("failed", "5.1.1")]);
    stranger.original_message_id = Some("<inv-1-2@elsewhere.example>".into());
    assert_eq!(
        record_report(&mut fake, &At(NOW), &stranger).unwrap(),
        ReportOutcome::Recorded { permanent_failures: 0, ignored: 1 },
        "not one of the service's tokens"
    );
    let unknown = StatusReport { original_message_id: Some(format!("<{}@x>", "f".repeat(32))), ..stranger };
    let outcome = record_report(&mut fake, &At(NOW), &unknown).unwrap();
    assert_eq!(outcome, ReportOutcome::Recorded { permanent_failures: 0, ignored: 1 });

    assert_eq!(rounds(&fake), 0, "nothing is recorded");
    assert!(fake.state.events.is_empty());
    assert_eq!(fake.transactions.committed + fake.transactions.rolled_back, 0, "no transaction was opened");
}
