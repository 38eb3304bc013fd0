//! A delivery round: due reminders enqueued, due messages claimed under a lease, each sent on its channel's
//! transport (blocklisted and expired ones held back), and every outcome recorded together in one transaction.

use std::sync::Mutex;

use time::Duration;

use crate::delivery::{retry_delay, Accepted, LinkBase, Outcome, Transports};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::error::DomainError;
use crate::use_cases::delivery::{
    deliver_all_due, deliver_all_due_observed, deliver_due, ChannelCounts, DeliveryReport, Round, LEASE,
};

use super::seeds::outbox::{due, lent, rounds, Recorder};
use super::seeds::{At, NOW};
use crate::testing::MemoryStore;

fn round(limit: i64) -> Round {
    Round::new(limit, LEASE, LinkBase::new("https://survey.example"))
}

/// The lease the store holds message `id` under.
fn lease_of(store: &MemoryStore, id: i64) -> Option<time::OffsetDateTime> {
    store.inspect(|memory| memory.state.outbox.iter().find(|m| m.message.id == id).and_then(|m| m.message.lease_until))
}

#[test]
fn each_message_goes_on_its_channel_and_every_outcome_is_recorded_together() {
    let mut blocked = due(4, DispatchType::Email, "blocked@example.com");
    blocked.blocklisted = true;
    let mut expired = due(5, DispatchType::Email, "expired@example.com");
    expired.expiry_date = Some(NOW - Duration::minutes(1));
    let store = lent(vec![
        due(1, DispatchType::Email, "ok@example.com"),
        due(2, DispatchType::Email, "bounce@example.com"),
        due(3, DispatchType::Email, "later@example.com"),
        blocked,
        expired,
        due(6, DispatchType::Sms, "+4790000006"),
    ]);
    let (mail, sms) = (Recorder::default(), Recorder::default());

    let report = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(10)).unwrap();

    assert_eq!(mail.recipients(), ["ok@example.com", "bounce@example.com", "later@example.com"]);
    assert_eq!(sms.recipients(), ["+4790000006"]);
    assert_eq!((report.claimed, report.sent, report.bounced, report.retried), (6, 2, 1, 1));
    assert_eq!((report.cancelled, report.reminders_enqueued), (2, 0));
    let email = ChannelCounts { sent: 1, bounced: 1, retried: 1, failed: 0, cancelled: 2 };
    assert_eq!((report.email, report.sms), (email, ChannelCounts { sent: 1, ..ChannelCounts::default() }));
    let recorded = rounds(&store);
    assert_eq!(recorded.len(), 1, "one round, recorded once");
    let outcome_of = |id: i64| recorded[0].iter().find(|s| s.message.id == id).map(|s| s.outcome.clone());
    assert_eq!(outcome_of(1), Some(Outcome::Sent(Accepted("250 2.0.0 Ok: queued for ok@example.com".into()))));
    assert!(matches!(outcome_of(2), Some(Outcome::Bounced(reason)) if reason.contains("5.1.1")));
    assert!(matches!(outcome_of(3), Some(Outcome::DueAgain(at, _)) if at == NOW + retry_delay(0)));
    assert_eq!(outcome_of(4), Some(Outcome::Cancelled(RespondentStatus::Blocklisted)));
    assert_eq!(outcome_of(5), Some(Outcome::Cancelled(RespondentStatus::Expired)));
}

#[test]
fn messages_carry_the_links_of_their_respondent() {
    let store = lent(vec![due(7, DispatchType::Email, "ok@example.com")]);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(10)).unwrap();
    let sent = mail.0.lock().unwrap()[0].clone();
    assert_eq!(sent.body, format!("Answer here: https://survey.example/r/{:040x}", 7));
    assert_eq!(sent.unsubscribe_url, Some(format!("https://survey.example/r/{:040x}/opt-out", 7)));
}

#[test]
fn claimed_messages_are_leased_so_a_second_round_does_not_send_them_again() {
    let store = lent(vec![due(1, DispatchType::Email, "ok@example.com")]);
    // The first round's record fails: its message stays claimed under its lease.
    store.inspect(|memory| memory.hooks.failing_rounds = (1, Some(|| crate::RepoError::Other("a bug".into()))));
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let transports = Transports { email: &mail, sms: &sms };
    assert!(deliver_due(&store, transports, NOW, &round(10)).is_err());
    let again = deliver_due(&store, transports, NOW + Duration::seconds(1), &round(10)).unwrap();
    assert_eq!(again.claimed, 0);
    assert_eq!(lease_of(&store, 1), Some(NOW + LEASE));
    assert_eq!(mail.recipients().len(), 1);
    // Once the lease runs out, another round takes the message over.
    let later = deliver_due(&store, transports, NOW + LEASE + Duration::seconds(1), &round(10)).unwrap();
    assert_eq!((later.claimed, later.sent), (1, 1));
    let status = store.inspect(|memory| memory.state.outbox[0].status);
    assert_eq!(status, crate::testing::MessageStatus::Sent);
}

#[test]
fn rounds_run_back_to_back_while_they_come_back_full() {
    let messages = (1..=5).map(|id| due(id, DispatchType::Email, &format!("p{id}@example.com"))).collect();
    let store = lent(messages);
    let (mail, sms) = (Recorder::default(), Recorder::default());

    let transports = Transports { email: &mail, sms: &sms };
    let report = deliver_all_due(&store, transports, &At(NOW), &round(2), &|| false).unwrap();

    assert_eq!((report.claimed, report.sent), (5, 5));
    assert_eq!((report.email.sent, report.sms.sent), (5, 0), "the channels' counts add up across rounds");
    let sizes: Vec<usize> = rounds(&store).iter().map(Vec::len).collect();
    assert_eq!(sizes, [2, 2, 1]);
    assert_eq!(mail.recipients().len(), 5, "each message once");
}

#[test]
fn a_stop_claims_no_further_round_but_sends_and_records_the_rounds_it_holds() {
    let messages = (1..=5).map(|id| due(id, DispatchType::Email, &format!("p{id}@example.com"))).collect();
    let store = lent(messages);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    // Asked to stop once the first message is out: the first round is on the network, the second claimed beside it.
    let stop = || !mail.recipients().is_empty();

    let report = deliver_all_due(&store, Transports { email: &mail, sms: &sms }, &At(NOW), &round(2), &stop).unwrap();

    assert_eq!((report.claimed, report.sent), (4, 4));
    let sizes: Vec<usize> = rounds(&store).iter().map(Vec::len).collect();
    assert_eq!(sizes, [2, 2], "both rounds held are sent and recorded");
    let attempts = store.inspect(|memory| memory.state.outbox[4].message.attempts);
    assert_eq!((lease_of(&store, 5), attempts), (None, 0), "the fifth message is not claimed");
}

#[test]
fn each_round_is_observed_as_soon_as_it_is_sent() {
    let mut messages: Vec<_> = (1..=4).map(|id| due(id, DispatchType::Email, &format!("p{id}@example.com"))).collect();
    messages.push(due(5, DispatchType::Sms, "+4790000005"));
    let store = lent(messages);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let seen: Mutex<Vec<DeliveryReport>> = Mutex::default();
    let observe = |report: &DeliveryReport| seen.lock().unwrap().push(*report);

    let transports = Transports { email: &mail, sms: &sms };
    let total = deliver_all_due_observed(&store, transports, &At(NOW), &round(2), &|| false, &observe).unwrap();

    let seen = seen.into_inner().unwrap();
    let claimed: Vec<usize> = seen.iter().map(|report| report.claimed).collect();
    assert_eq!(claimed, [2, 2, 1], "one report a round");
    let email: usize = seen.iter().map(|report| report.email.sent).sum();
    let texts: usize = seen.iter().map(|report| report.sms.sent).sum();
    assert_eq!((email, texts), (total.email.sent, total.sms.sent));
    assert_eq!((email, texts), (4, 1));
}

/// A round of three emails whose record fails `times` times with `error`, under a lease of `lease`.
fn record_failing(
    times: u32,
    error: fn() -> crate::RepoError,
    lease: Duration,
) -> (MemoryStore, Result<DeliveryReport, DomainError>) {
    let messages = (1..=3).map(|id| due(id, DispatchType::Email, &format!("p{id}@example.com"))).collect();
    let store = lent(messages);
    store.inspect(|memory| memory.hooks.failing_rounds = (times, Some(error)));
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let shape = Round { lease, ..round(10) };
    let report = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &shape);
    assert_eq!(mail.recipients().len(), 3, "the round is sent once, whatever its record does");
    (store, report)
}

#[test]
fn a_round_whose_store_is_away_for_a_moment_is_recorded_once_it_is_back() {
    let unavailable = || crate::RepoError::Unavailable("terminating connection due to administrator command".into());
    let (store, report) = record_failing(3, unavailable, LEASE);
    assert_eq!(report.unwrap().sent, 3);
    assert_eq!(rounds(&store).len(), 1, "recorded on the fourth try, once");
}

#[test]
fn a_record_is_given_up_after_half_the_lease_and_other_failures_at_once() {
    let unavailable = || crate::RepoError::Unavailable("the database system is shutting down".into());
    let (store, report) = record_failing(u32::MAX, unavailable, Duration::seconds(1));
    assert!(matches!(report, Err(DomainError::Repo(crate::RepoError::Unavailable(_)))), "{report:?}");
    assert_eq!(rounds(&store).len(), 0);
    let tries_left = store.inspect(|memory| memory.hooks.failing_rounds.0);
    assert_eq!(u32::MAX - tries_left, 3, "pauses of 100 and 200 ms; a third of 400 ms would pass half the lease");

    let (store, report) = record_failing(u32::MAX, || crate::RepoError::Other("a bug".into()), LEASE);
    assert!(matches!(report, Err(DomainError::Repo(crate::RepoError::Other(_)))));
    assert_eq!(u32::MAX - store.inspect(|memory| memory.hooks.failing_rounds.0), 1, "not tried again");
}

#[test]
fn relay_or_sender_trouble_holds_a_message_without_counting_an_attempt() {
    let retry = crate::delivery::RetryPolicy::default();
    let mut held = due(1, DispatchType::Email, "held@example.com");
    held.attempts = 39;
    held.aged = retry.max_age;
    held.holds = 2;
    let mut later = due(2, DispatchType::Email, "later@example.com");
    later.attempts = 39;
    later.aged = retry.max_age;
    let store = lent(vec![held, later]);
    let (mail, sms) = (Recorder::default(), Recorder::default());

    let report = deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round(10)).unwrap();

    assert_eq!((report.retried, report.failed, report.bounced), (1, 1, 0));
    let recorded = rounds(&store).remove(0);
    let outcome_of = |id: i64| recorded.iter().find(|s| s.message.id == id).map(|s| s.outcome.clone());
    let wait = crate::delivery::hold_delay(2);
    assert_eq!(wait, Duration::seconds(20));
    assert!(matches!(outcome_of(1), Some(Outcome::Held(at, hold))
        if at == NOW + wait && hold.reason.starts_with("553") && hold.kind == crate::delivery::HoldKind::Sender));
    assert!(matches!(outcome_of(2), Some(Outcome::Failed(_))), "a transient refusal ends with its lifetime");
    let events = store.inspect(|memory| memory.state.events.clone());
    let held: Vec<_> =
        events.iter().filter(|(event, _)| *event == crate::webhook::WebhookEvent::SendoutDeliveryHeld).collect();
    assert_eq!(held.len(), 1, "the hold is announced once");
    assert_eq!(held[0].1.hold, Some(crate::delivery::HoldKind::Sender));
}

#[test]
fn a_transient_failure_waits_within_its_lifetime_and_fails_when_it_is_used_up() {
    let mut round = round(10);
    round.retry = crate::delivery::RetryPolicy { max_age: Duration::minutes(10), max_backoff: Duration::minutes(4) };
    let mut young = due(1, DispatchType::Email, "later@example.com");
    young.attempts = 5;
    young.aged = Duration::minutes(8);
    let store = lent(vec![young]);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round).unwrap();
    let recorded = rounds(&store)[0][0].outcome.clone();
    assert!(matches!(recorded, Outcome::DueAgain(at, _) if at == NOW + Duration::minutes(2)), "{recorded:?}");
}

#[test]
fn a_paced_worker_claims_only_the_slots_the_shared_pace_grants() {
    let messages = (1..=30).map(|id| due(id, DispatchType::Email, &format!("p{id}@example.com"))).collect();
    let store = lent(messages);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let mut round = round(200);
    round.pace = crate::delivery::PaceLimits { rate: Some(1000.0), burst: 4, daily: Some(10) };
    let clock = super::seeds::Ticking::default();
    let report = deliver_all_due(&store, Transports { email: &mail, sms: &sms }, &clock, &round, &|| false).unwrap();
    assert_eq!(report.sent, 10, "the day's limit holds the rest");
    assert!(rounds(&store).iter().all(|recorded| recorded.len() <= 4), "no round above the burst");
    let pace = store.inspect(|memory| memory.state.pace).unwrap();
    assert_eq!(pace.day_sent, 10);
    assert!(pace.day_full_at.is_some());
}

#[test]
fn a_throttle_halves_the_shared_pace_and_puts_the_next_round_back_unsent() {
    let mut messages: Vec<_> =
        (1..=4).map(|id| due(id, DispatchType::Email, &format!("slow{id}@example.com"))).collect();
    messages.extend((5..=8).map(|id| due(id, DispatchType::Email, &format!("ok{id}@example.com"))));
    let store = lent(messages);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let report =
        deliver_all_due(&store, Transports { email: &mail, sms: &sms }, &At(NOW), &round(4), &|| false).unwrap();
    assert_eq!((report.claimed, report.sent), (4, 0), "the round beside the throttled one is not sent");
    assert_eq!(mail.recipients().len(), 4);
    let recorded = rounds(&store);
    let put_back = recorded.iter().flatten().filter(|done| done.message.id > 4);
    assert!(
        put_back.clone().count() == 4 && put_back.into_iter().all(|done| matches!(done.outcome, Outcome::Held(..)))
    );
    let pace = store.inspect(|memory| memory.state.pace);
    assert!(pace.is_some_and(|pace| pace.ceiling.is_some()), "the pace has a ceiling now");
}
