//! Webhooks: a new webhook is checked, each account reads, tests and deletes its own only, a test writes a
//! delivery whatever the webhook's events, an event reaches the subscribed webhooks of its subject's account, and
//! the rounds of the worker leave each delivery its last error and each webhook its last attempt's time and its
//! consecutive failures.

use time::{Duration, OffsetDateTime};

use crate::ids::{RespondentId, SendoutId, SurveyId, WebhookId};
use crate::ports::StoreExt;
use crate::testing::MemoryStore;
use crate::use_cases::webhooks::{self, WebhookInput, WebhookReport};
use crate::webhook::{
    AttemptResult, DeliveryStatus, EventSubject, WebhookEvent, WebhookRequest, WebhookSender, MAX_ATTEMPTS,
};

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

fn subject(account: crate::AccountId) -> EventSubject {
    EventSubject::respondent(account, SurveyId::new(1), SendoutId::new(2), RespondentId::new(3))
}

fn input(events: Vec<WebhookEvent>) -> WebhookInput {
    WebhookInput { url: "https://hooks.acme.example/canvass".into(), events, description: Some("HR".into()) }
}

#[test]
fn a_webhook_without_events_or_with_a_private_url_is_refused() {
    let (mut memory, acme, _) = two_accounts();
    let fields = invalid_fields(webhooks::create(&mut memory, &At(NOW), acme, input(Vec::new()), false));
    assert_eq!(fields, ["events"]);
    let private = WebhookInput { url: "http://127.0.0.1/hook".into(), ..input(vec![WebhookEvent::RespondentSent]) };
    assert_eq!(invalid_fields(webhooks::create(&mut memory, &At(NOW), acme, private.clone(), false)), ["url"]);
    assert!(webhooks::list(&mut memory, acme).unwrap().is_empty());

    assert!(webhooks::create(&mut memory, &At(NOW), acme, private, true).is_ok(), "allowed when asked");
}

#[test]
fn webhooks_are_read_tested_and_deleted_within_their_account() {
    let (mut memory, acme, other) = two_accounts();
    let created = webhooks::create(&mut memory, &At(NOW), acme, input(vec![WebhookEvent::RespondentSent]), false);
    let id = created.unwrap().webhook.id;

    assert_eq!(webhooks::list(&mut memory, acme).unwrap().len(), 1);
    assert!(webhooks::list(&mut memory, other).unwrap().is_empty());
    assert!(not_found(&webhooks::get(&mut memory, other, id), "webhook"));
    assert!(not_found(&webhooks::test(&mut memory, &At(NOW), other, id), "webhook"));
    assert!(not_found(&webhooks::deliveries(&mut memory, other, id), "webhook"));
    assert!(not_found(&webhooks::delete(&mut memory, other, id), "webhook"));
    assert!(webhooks::get(&mut memory, acme, id).unwrap().active, "still there");

    webhooks::delete(&mut memory, acme, id).unwrap();
    assert!(not_found(&webhooks::get(&mut memory, acme, id), "webhook"));
    assert!(not_found(&webhooks::delete(&mut memory, acme, WebhookId::new(999)), "webhook"));
}

#[test]
fn a_test_writes_a_pending_delivery_listed_newest_first() {
    let (mut memory, acme, _) = two_accounts();
    let created = webhooks::create(&mut memory, &At(NOW), acme, input(vec![WebhookEvent::RespondentSent]), false);
    let id = created.unwrap().webhook.id;

    webhooks::emit(&mut memory, WebhookEvent::RespondentSent, &[subject(acme)], NOW).unwrap();
    webhooks::test(&mut memory, &At(NOW), acme, id).unwrap();

    let listed = webhooks::deliveries(&mut memory, acme, id).unwrap();
    let events: Vec<WebhookEvent> = listed.iter().map(|d| d.event).collect();
    assert_eq!(events, [WebhookEvent::Test, WebhookEvent::RespondentSent], "newest first");
    assert!(listed.iter().all(|d| d.status == DeliveryStatus::Pending && d.attempts == 0));
}

#[test]
fn an_event_reaches_the_subscribed_webhooks_of_its_subjects_account_only() {
    let (mut memory, acme, other) = two_accounts();
    let mut create =
        |account, events| webhooks::create(&mut memory, &At(NOW), account, input(events), false).unwrap().webhook.id;
    let sent = create(acme, vec![WebhookEvent::RespondentSent]);
    let bounced = create(acme, vec![WebhookEvent::RespondentBounced]);
    let theirs = create(other, vec![WebhookEvent::RespondentSent]);

    webhooks::emit(&mut memory, WebhookEvent::RespondentSent, &[], NOW).unwrap();
    assert!(memory.state.deliveries.is_empty(), "no subjects, nothing written");
    webhooks::emit(&mut memory, WebhookEvent::RespondentSent, &[subject(acme)], NOW).unwrap();

    let reached: Vec<WebhookId> = memory.state.deliveries.iter().map(|d| d.webhook_id).collect();
    assert_eq!(reached, [sent]);
    assert!(!reached.contains(&bounced) && !reached.contains(&theirs));
}

/// A receiver that answers each request with the next of its results, in order.
struct Scripted(std::sync::Mutex<std::collections::VecDeque<AttemptResult>>);

impl Scripted {
    fn new(results: Vec<AttemptResult>) -> Self {
        Self(std::sync::Mutex::new(results.into()))
    }
}

impl WebhookSender for Scripted {
    fn send_all(&self, requests: &[WebhookRequest]) -> Vec<AttemptResult> {
        let mut results = self.0.lock().unwrap();
        requests.iter().map(|_| results.pop_front().expect("a scripted result")).collect()
    }
}

#[test]
fn a_webhook_counts_its_failures_until_a_success_and_a_delivery_keeps_its_last_error() {
    let (mut memory, acme, other) = two_accounts();
    let mut create =
        |account| webhooks::create(&mut memory, &At(NOW), account, input(vec![WebhookEvent::RespondentSent]), false);
    let (id, theirs) = (create(acme).unwrap().webhook.id, create(other).unwrap().webhook.id);
    webhooks::test(&mut memory, &At(NOW), acme, id).unwrap();
    let store = MemoryStore::with_memory(memory);
    let webhook = || store.with_uow(|uow| webhooks::get(uow, acme, id)).unwrap();
    let delivery = || store.with_uow(|uow| webhooks::deliveries(uow, acme, id)).unwrap().remove(0);
    assert_eq!((webhook().last_delivery_at, webhook().consecutive_failures), (None, 0), "no attempt yet");
    assert_eq!(delivery().last_error, None);

    let sender = Scripted::new(vec![
        AttemptResult::NotReached("connection refused".into()),
        AttemptResult::Answered(503),
        AttemptResult::Answered(204),
    ]);
    let counted = std::sync::Mutex::new(Vec::new());
    let observe = |report: &WebhookReport| counted.lock().unwrap().push(*report);
    let round =
        |at: OffsetDateTime| webhooks::deliver_all_due_observed(&store, &sender, &At(at), &|| false, &observe).unwrap();

    assert_eq!(round(NOW).retried, 1);
    assert_eq!((webhook().last_delivery_at, webhook().consecutive_failures), (Some(NOW), 1));
    assert_eq!((delivery().last_status_code, delivery().last_error.as_deref()), (None, Some("connection refused")));

    let later = NOW + Duration::hours(1);
    assert_eq!(round(later).retried, 1);
    assert_eq!((webhook().last_delivery_at, webhook().consecutive_failures), (Some(later), 2));
    assert_eq!(delivery().last_error.as_deref(), Some("the receiver answered 503"));

    let last = NOW + Duration::hours(2);
    assert_eq!(round(last).delivered, 1);
    assert_eq!((webhook().last_delivery_at, webhook().consecutive_failures), (Some(last), 0), "a success resets");
    let delivered = delivery();
    assert_eq!((delivered.status, delivered.last_status_code), (DeliveryStatus::Delivered, Some(204)));
    assert_eq!(delivered.last_error.as_deref(), Some("the receiver answered 503"), "the last failure's reason stays");
    assert_eq!(round(last + Duration::days(1)).claimed, 0, "nothing is left to deliver");

    let counted = counted.into_inner().unwrap();
    let sums = counted.iter().fold((0, 0, 0), |sum, r| (sum.0 + r.delivered, sum.1 + r.retried, sum.2 + r.failed));
    assert_eq!((counted.len(), sums), (3, (1, 2, 0)), "each recorded round observed once: {counted:?}");
    let untouched = store.with_uow(|uow| webhooks::get(uow, other, theirs)).unwrap();
    assert_eq!((untouched.last_delivery_at, untouched.consecutive_failures), (None, 0), "another account's webhook");
}

#[test]
fn a_round_with_a_success_resets_the_count_and_the_last_try_gives_up() {
    let (mut memory, acme, _) = two_accounts();
    let id = webhooks::create(&mut memory, &At(NOW), acme, input(vec![WebhookEvent::RespondentSent]), false);
    let id = id.unwrap().webhook.id;
    for _ in 0..3 {
        webhooks::test(&mut memory, &At(NOW), acme, id).unwrap();
    }
    let store = MemoryStore::with_memory(memory);
    let failures = || store.with_uow(|uow| webhooks::get(uow, acme, id)).unwrap().consecutive_failures;
    let all_fail = Scripted::new(vec![AttemptResult::Answered(500); 3]);
    webhooks::deliver_due(&store, &all_fail, NOW, 10, webhooks::LEASE).unwrap();
    assert_eq!(failures(), 3, "three failed attempts in one round");

    let mixed =
        Scripted::new(vec![AttemptResult::Answered(500), AttemptResult::Answered(200), AttemptResult::Answered(500)]);
    let report = webhooks::deliver_due(&store, &mixed, NOW + Duration::hours(1), 10, webhooks::LEASE).unwrap();
    assert_eq!((report.delivered, report.retried), (1, 2));
    assert_eq!(failures(), 0, "a success in the round resets the count");

    let give_up = Scripted::new(vec![AttemptResult::Answered(500); 2 * MAX_ATTEMPTS as usize]);
    let mut gave_up = 0;
    for hour in 2..2 + i64::from(MAX_ATTEMPTS) {
        gave_up +=
            webhooks::deliver_due(&store, &give_up, NOW + Duration::hours(hour), 10, webhooks::LEASE).unwrap().failed;
    }
    assert_eq!(gave_up, 2, "both failing deliveries given up after their last attempt");
    assert_eq!(failures(), 2 * (MAX_ATTEMPTS - 2), "each pending delivery's attempts after the success, all failed");
}
