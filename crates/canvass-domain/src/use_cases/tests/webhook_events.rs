//! Webhook events are written by the changes that cause them, in their transaction: an activation, a delivery
//! round's invitations handed over and bounces, a respondent completing the survey; a change that is refused
//! writes none.

use crate::delivery::{LinkBase, Transports};
use crate::distribution::DispatchType;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::use_cases::delivery::{deliver_due, Round, LEASE};
use crate::use_cases::respondent_page::submit;
use crate::use_cases::sendouts::activate;
use crate::webhook::{EventSubject, WebhookEvent};

use super::seeds::distribution::ACCOUNT;
use super::seeds::outbox::{due, lent, rounds, LeaseLost, Recorder};
use super::seeds::pages::{four_pages, progress, RESPONDENT, SENDOUT, SURVEY, TOKEN};
use super::seeds::{At, NOW};
use crate::testing::Memory;

#[test]
fn an_activation_writes_sendout_activated() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
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
    assert_eq!(fake.state.events, [(WebhookEvent::SendoutActivated, subject)]);
}

#[test]
fn a_refused_activation_writes_no_event() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::TwoWay);
    assert!(activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).is_err(), "the sender is not provisioned");
    assert!(fake.state.events.is_empty(), "rolled back with the rest");
}

#[test]
fn a_round_writes_respondent_sent_for_invitations_and_respondent_bounced_for_bounces() {
    let mut reminder = due(3, DispatchType::Email, "reminded@example.com");
    reminder.is_reminder = true;
    let store = lent(vec![
        due(1, DispatchType::Email, "ok@example.com"),
        due(2, DispatchType::Email, "bounce@example.com"),
        reminder,
        due(4, DispatchType::Email, "later@example.com"),
    ]);
    let (mail, sms) = (Recorder::default(), Recorder::default());
    let round = Round::new(10, LEASE, LinkBase::new("https://survey.example"));

    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round).unwrap();

    let of = |id: i64| {
        EventSubject::respondent(AccountId::new(1), SurveyId::new(1), SendoutId::new(10), RespondentId::new(100 + id))
    };
    assert_eq!(
        store.inspect(|memory| memory.state.events.clone()),
        [(WebhookEvent::RespondentSent, of(1)), (WebhookEvent::RespondentBounced, of(2))],
        "a reminder and a message due again are no events"
    );
}

#[test]
fn a_message_whose_lease_ran_out_is_not_recorded_and_writes_no_event() {
    let store =
        lent(vec![due(1, DispatchType::Email, "ok@example.com"), due(2, DispatchType::Email, "bounce@example.com")]);
    let (mail, sms) = (LeaseLost { store: &store, sent: Recorder::default() }, Recorder::default());
    let round = Round::new(10, LEASE, LinkBase::new("https://survey.example"));

    deliver_due(&store, Transports { email: &mail, sms: &sms }, NOW, &round).unwrap();

    assert_eq!(mail.sent.recipients().len(), 2);
    assert_eq!(rounds(&store).len(), 1, "the round was handed to the store");
    let events = store.inspect(|memory| memory.state.events.clone());
    assert!(events.is_empty(), "another worker holds them now: its round writes the events");
    let pending =
        store.inspect(|memory| memory.state.outbox.iter().all(|m| m.status == crate::testing::MessageStatus::Pending));
    assert!(pending, "nothing was recorded");
}

#[test]
fn completing_the_survey_on_its_page_writes_answer_set_completed_once() {
    let mut fake = four_pages();
    let page = |n: i64| crate::ids::PageId::new(n);
    submit(&mut fake, &At(NOW), TOKEN, page(1), &[("q10".into(), "skip".into())]).unwrap();
    assert!(fake.state.events.is_empty(), "a page on the way completes nothing");
    submit(&mut fake, &At(NOW), TOKEN, page(4), &[("q40".into(), "done".into())]).unwrap();
    let (set, _) = progress(&fake).unwrap();
    let subject = EventSubject {
        account_id: ACCOUNT,
        survey_id: Some(SURVEY),
        sendout_id: Some(SENDOUT),
        respondent_id: Some(RESPONDENT),
        answer_set_id: Some(set.id),
        hold: None,
    };
    assert_eq!(fake.state.events, [(WebhookEvent::AnswerSetCompleted, subject)]);
}
