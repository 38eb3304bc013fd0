//! Webhook events are written by the changes that cause them, in their transaction: an activation, a delivery
//! round's invitations handed over and bounces, a respondent completing the survey; a change that is refused
//! writes none.

use std::sync::Mutex;

use crate::delivery::{LinkBase, Transports};
use crate::distribution::DispatchType;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::use_cases::delivery::{deliver_due, Round, LEASE};
use crate::use_cases::respondent_page::submit;
use crate::use_cases::sendouts::activate;
use crate::webhook::{EventSubject, WebhookEvent};

use super::fakes::distribution::{Distribution, ACCOUNT};
use super::fakes::outbox::{due, Lent, Outbox, Recorder};
use super::fakes::pages::{four_pages, TOKEN};
use super::fakes::{At, NOW};

#[test]
fn an_activation_writes_sendout_activated() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::Email);
    fake.pending(sendout, "a@example.com");
    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();
    let subject = EventSubject {
        account_id: ACCOUNT,
        survey_id: Some(survey),
        sendout_id: Some(sendout),
        respondent_id: None,
        answer_set_id: None,
        hold: None,
    };
    assert_eq!(fake.state.webhook_events, [(WebhookEvent::SendoutActivated, subject)]);
}

#[test]
fn a_refused_activation_writes_no_event() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::TwoWay);
    assert!(activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).is_err(), "the sender is not provisioned");
    assert!(fake.state.webhook_events.is_empty(), "rolled back with the rest");
}

#[test]
fn a_round_writes_respondent_sent_for_invitations_and_respondent_bounced_for_bounces() {
    let mut reminder = due(3, DispatchType::Email, "reminded@example.com");
    reminder.is_reminder = true;
    let mut outbox = Outbox::default();
    outbox.state.messages = vec![
        due(1, DispatchType::Email, "ok@example.com"),
        due(2, DispatchType::Email, "bounce@example.com"),
        reminder,
        due(4, DispatchType::Email, "later@example.com"),
    ];
    let store = Lent(Mutex::new(outbox));
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let round = Round::new(10, LEASE, LinkBase::new("https://survey.example"));

    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round).unwrap();

    let of = |id: i64| {
        EventSubject::respondent(AccountId::new(1), SurveyId::new(1), SendoutId::new(10), RespondentId::new(100 + id))
    };
    assert_eq!(
        store.state().webhook_events,
        [(WebhookEvent::RespondentSent, of(1)), (WebhookEvent::RespondentBounced, of(2))],
        "a reminder and a message due again are no events"
    );
}

#[test]
fn a_message_whose_lease_ran_out_is_not_recorded_and_writes_no_event() {
    let mut outbox = Outbox::default();
    outbox.state.messages =
        vec![due(1, DispatchType::Email, "ok@example.com"), due(2, DispatchType::Email, "bounce@example.com")];
    outbox.state.lost_leases = vec![1, 2];
    let store = Lent(Mutex::new(outbox));
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let round = Round::new(10, LEASE, LinkBase::new("https://survey.example"));

    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round).unwrap();

    assert_eq!(store.state().recorded.len(), 1, "the round was handed to the store");
    assert!(store.state().webhook_events.is_empty(), "another worker holds them now: its round writes the events");
}

#[test]
fn completing_the_survey_on_its_page_writes_answer_set_completed_once() {
    let mut fake = four_pages();
    let page = |n: i64| crate::ids::PageId::new(n);
    submit(&mut fake, &At(NOW), TOKEN, page(1), &[("q10".into(), "skip".into())]).unwrap();
    assert!(fake.state.webhook_events.is_empty(), "a page on the way completes nothing");
    submit(&mut fake, &At(NOW), TOKEN, page(4), &[("q40".into(), "done".into())]).unwrap();
    let (set, _) = fake.state.progress.clone().unwrap();
    let context = &fake.state.context;
    let subject = EventSubject {
        account_id: context.account_id,
        survey_id: Some(context.survey_id),
        sendout_id: Some(context.sendout_id),
        respondent_id: Some(context.respondent_id),
        answer_set_id: Some(set.id),
        hold: None,
    };
    assert_eq!(fake.state.webhook_events, [(WebhookEvent::AnswerSetCompleted, subject)]);
}
