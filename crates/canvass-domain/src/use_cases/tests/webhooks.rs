//! Webhooks: a new webhook is checked, each account reads, tests and deletes its own only, a test writes a
//! delivery whatever the webhook's events, and an event reaches the subscribed webhooks of its subject's account.

use crate::ids::{RespondentId, SendoutId, SurveyId, WebhookId};
use crate::use_cases::webhooks::{self, WebhookInput};
use crate::webhook::{DeliveryStatus, EventSubject, WebhookEvent};

use super::fakes::{invalid_fields, not_found, two_accounts, At, NOW};

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
