//! Activating a sendout: pending respondents are released, except those the survey frequency limit holds back;
//! a TWOWAY sendout needs a sender number the account holds.

use crate::distribution::{DispatchType, RespondentStatus, SendoutStatus};
use crate::error::{ConflictKind, DomainError};
use crate::governance::{FrequencyLimits, FrequencySetting};
use crate::use_cases::sendouts::activate;

use super::fakes::distribution::{Distribution, ACCOUNT};
use super::fakes::{At, NOW};

fn limit(survey_id: Option<crate::ids::SurveyId>, enabled: bool, max_surveys: i64) -> FrequencySetting {
    let limits = FrequencyLimits::new(30, max_surveys).unwrap();
    FrequencySetting { survey_id, enabled, limits }
}

fn status_of(fake: &Distribution, contact: &str) -> RespondentStatus {
    fake.state.respondents.iter().find(|r| r.contact_details == contact).map(|r| r.status).unwrap()
}

#[test]
fn respondents_at_the_frequency_limit_are_held_back_and_the_rest_released() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::Email);
    let busy = fake.pending(sendout, "busy@example.com");
    let fresh = fake.pending(sendout, "fresh@example.com");
    let once = fake.pending(sendout, "once@example.com");
    fake.state.other_surveys.extend([(busy, 2), (fresh, 0), (once, 1)]);
    fake.state.frequency.push(limit(None, true, 2));

    let activated = activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(activated.status, SendoutStatus::Active);
    assert_eq!(activated.activated_at, Some(NOW));
    assert_eq!((activated.respondent_count, activated.pending_count), (3, 0), "counted after the release");
    assert_eq!(status_of(&fake, "busy@example.com"), RespondentStatus::FrequencyLimitReached);
    assert_eq!(status_of(&fake, "fresh@example.com"), RespondentStatus::Scheduled);
    assert_eq!(status_of(&fake, "once@example.com"), RespondentStatus::Scheduled);
    assert_eq!(fake.state.released, Some((vec![busy], true)));
    assert!(fake.state.locked.contains(&sendout), "contacts are locked while they are counted");
}

#[test]
fn the_surveys_own_setting_overrides_the_accounts() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::Login);
    let busy = fake.pending(sendout, "employee-1");
    fake.state.other_surveys.insert(busy, 5);
    fake.state.frequency.push(limit(None, true, 1));
    fake.state.frequency.push(limit(Some(survey), false, 1));

    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(status_of(&fake, "employee-1"), RespondentStatus::Released, "a LOGIN sendout sends nothing");
    assert_eq!(fake.state.released, Some((Vec::new(), false)));
}

#[test]
fn a_twoway_sendout_needs_a_number_the_account_holds() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::TwoWay);
    fake.pending(sendout, "+4790000099");

    let error = activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap_err();
    assert!(matches!(error, DomainError::Conflict { kind: ConflictKind::SenderNotProvisioned, .. }), "{error:?}");
    assert_eq!(status_of(&fake, "+4790000099"), RespondentStatus::Pending, "nothing is released");
    assert_eq!(fake.state.sendouts[0].status, SendoutStatus::Draft);
    assert_eq!(fake.transactions.rolled_back, 1);

    fake.state.senders.push("+4790000001".into());
    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();
    assert_eq!(status_of(&fake, "+4790000099"), RespondentStatus::Scheduled);
}

#[test]
fn without_pending_respondents_nothing_is_counted() {
    let (mut fake, survey, sendout) = Distribution::with_sendout(DispatchType::Email);
    fake.state.frequency.push(limit(None, true, 1));

    activate(&mut fake, &At(NOW), ACCOUNT, survey, sendout).unwrap();

    assert_eq!(fake.state.locked, [sendout], "the sendout row only: no contacts are locked or counted");
    assert_eq!(fake.state.released, Some((Vec::new(), true)));
}
