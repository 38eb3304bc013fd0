//! Activating a sendout: pending respondents are released, except those the survey frequency limit holds back;
//! a TWOWAY sendout needs a sender number the account holds.

use crate::distribution::{DispatchType, ProvisionedSender, RespondentStatus, SendoutStatus};
use crate::error::{ConflictKind, DomainError};
use crate::governance::{FrequencyLimits, FrequencySetting};
use crate::use_cases::sendouts::activate;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{At, NOW};
use crate::testing::Memory;

fn limit(survey_id: Option<crate::ids::SurveyId>, enabled: bool, max_surveys: i64) -> FrequencySetting {
    let limits = FrequencyLimits::new(30, max_surveys).unwrap();
    FrequencySetting { survey_id, enabled, limits }
}

fn status_of(fake: &Memory, contact: &str) -> RespondentStatus {
    fake.status_of_contact(contact)
}

fn invitations(fake: &Memory) -> usize {
    fake.state.outbox.iter().filter(|held| !held.message.is_reminder).count()
}

#[test]
fn respondents_at_the_frequency_limit_are_held_back_and_the_rest_released() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let busy = fake.pending(sendout, "busy@example.com");
    fake.pending(sendout, "fresh@example.com");
    fake.pending(sendout, "once@example.com");
    fake.released_elsewhere("BUSY@example.com", 2);
    fake.released_elsewhere("once@example.com", 1);
    fake.state.frequency.push((ACCOUNT, limit(None, true, 2)));

    let activated = activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(activated.status, SendoutStatus::Active);
    assert_eq!(activated.activated_at, Some(NOW));
    assert_eq!((activated.respondent_count, activated.pending_count), (3, 0), "counted after the release");
    assert_eq!(status_of(&fake, "busy@example.com"), RespondentStatus::FrequencyLimitReached);
    assert_eq!(status_of(&fake, "fresh@example.com"), RespondentStatus::Scheduled);
    assert_eq!(status_of(&fake, "once@example.com"), RespondentStatus::Scheduled);
    assert_eq!(fake.hooks.released, [(vec![busy], true)]);
    assert!(fake.hooks.locked_sendouts.contains(&sendout), "contacts are locked while they are counted");
    assert_eq!(invitations(&fake), 2, "one invitation for each respondent scheduled");
}

#[test]
fn the_surveys_own_setting_overrides_the_accounts() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Login);
    fake.pending(sendout, "employee-1");
    fake.released_elsewhere("employee-1", 5);
    fake.state.frequency.push((ACCOUNT, limit(None, true, 1)));
    fake.state.frequency.push((ACCOUNT, limit(Some(survey), false, 1)));

    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(status_of(&fake, "employee-1"), RespondentStatus::Released, "a LOGIN sendout sends nothing");
    assert_eq!(fake.hooks.released, [(Vec::new(), false)]);
    assert_eq!(invitations(&fake), 0);
}

#[test]
fn a_twoway_sendout_needs_a_number_the_account_holds() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::TwoWay);
    fake.pending(sendout, "+4790000099");

    let error = activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap_err();
    assert!(matches!(error, DomainError::Conflict { kind: ConflictKind::SenderNotProvisioned, .. }), "{error:?}");
    assert_eq!(status_of(&fake, "+4790000099"), RespondentStatus::Pending, "nothing is released");
    assert_eq!(fake.sendout_row(sendout).status, SendoutStatus::Draft);
    assert_eq!(fake.transactions.rolled_back, 1);

    let number = ProvisionedSender { number: "+4790000001".into(), created_at: NOW };
    fake.state.senders.push((ACCOUNT, number));
    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();
    assert_eq!(status_of(&fake, "+4790000099"), RespondentStatus::Scheduled);
}

#[test]
fn without_pending_respondents_nothing_is_counted() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    fake.state.frequency.push((ACCOUNT, limit(None, true, 1)));

    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(fake.hooks.locked_sendouts, [sendout], "the sendout row only: no contacts are locked or counted");
    assert_eq!(fake.hooks.released, [(Vec::new(), true)]);
}
