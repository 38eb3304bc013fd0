//! Sendouts: create, read, activate and deactivate; and their labels and reminders.

use crate::clock::Clock;
use crate::distribution::{
    DispatchType, Label, LabelDraft, LabelType, Reminder, ReminderDraft, ReminderInput, Sendout, SendoutDraft,
    SendoutInput,
};
use time::Duration;

use crate::error::{ConflictKind, DomainError, RepoError, Resource};
use crate::governance::effective_frequency;
use crate::ids::{AccountId, SendoutId, SurveyId};
use crate::ports::{
    transaction, GovernanceRepository, ReleaseRepository, SenderRepository, SendoutRepository, SurveyRepository,
    Transactional, WebhookEvents,
};

use crate::webhook::{EventSubject, WebhookEvent};

use super::{senders, surveys};

/// The survey's sendouts.
pub fn list(
    uow: &mut (impl SendoutRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<Vec<Sendout>, DomainError> {
    uow.list_sendouts(account, survey)?.ok_or(DomainError::NotFound(Resource::Survey))
}

/// One sendout of the survey; a sendout of another survey is not found.
pub fn get(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Sendout, DomainError> {
    surveys::get(uow, account, survey)?;
    uow.find_sendout(account, survey, id, false)?.ok_or(DomainError::NotFound(Resource::Sendout))
}

/// The dispatch type of a sendout of one of the account's surveys, without counting its respondents.
pub fn kind_of(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<DispatchType, DomainError> {
    surveys::get(uow, account, survey)?;
    uow.sendout_kind(account, survey, id)?.ok_or(DomainError::NotFound(Resource::Sendout))
}

/// Creates a Draft sendout and its background data document.
pub fn create(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: SendoutInput,
) -> Result<Sendout, DomainError> {
    transaction(uow, |tx| {
        surveys::get(tx, account, survey)?;
        let draft = SendoutDraft::new(input).map_err(DomainError::Invalid)?;
        Ok(tx.insert_sendout(account, survey, &draft, clock.now())?)
    })
}

/// Activates a sendout and releases every pending respondent, except those the survey frequency limit holds
/// back (they become FrequencyLimitReached). Contacts are locked while they are counted, so concurrent
/// activations never release one contact past the limit. A TWOWAY sendout whose sender is not a number
/// provisioned to the account answers `Conflict` ([`ConflictKind::SenderNotProvisioned`]) and releases nothing.
pub fn activate(
    uow: &mut (impl GovernanceRepository
              + ReleaseRepository
              + SenderRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + WebhookEvents
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Sendout, DomainError> {
    transaction(uow, |tx| {
        let sendout = locked(tx, account, survey, id)?;
        if sendout.kind == DispatchType::TwoWay {
            senders::check_provisioned(tx, account, sendout.sender.as_deref())?;
        }
        let now = clock.now();
        tx.apply_transition(account, id, sendout.status.activate(), now)?;
        let setting = effective_frequency(tx.find_frequency(account, Some(survey))?, tx.find_frequency(account, None)?);
        let held_back: Vec<_> = match setting {
            Some(setting) if setting.enabled && sendout.pending_count > 0 => {
                tx.lock_pending_contacts(account, id)?;
                let since = now - Duration::days(i64::from(setting.limits.number_of_days()));
                let counts = tx.pending_other_surveys(account, id, survey, since)?;
                counts.into_iter().filter(|(_, other)| setting.holds_back(*other)).map(|(r, _)| r).collect()
            }
            _ => Vec::new(),
        };
        tx.release_pending(account, id, &held_back, sendout.kind.sends_messages(), now)?;
        let subject = EventSubject {
            account_id: account,
            survey_id: Some(survey),
            sendout_id: Some(id),
            respondent_id: None,
            answer_set_id: None,
            hold: None,
        };
        super::webhooks::emit(tx, WebhookEvent::SendoutActivated, &[subject], now)?;
        get(tx, account, survey, id)
    })
}

/// Deactivates an active sendout; a Draft sendout answers `Conflict` ([`ConflictKind::NotActivated`]).
pub fn deactivate(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Sendout, DomainError> {
    transaction(uow, |tx| {
        let sendout = locked(tx, account, survey, id)?;
        let transition =
            sendout.status.deactivate().map_err(|detail| DomainError::conflict(ConflictKind::NotActivated, detail))?;
        tx.apply_transition(account, id, transition, clock.now())?;
        get(tx, account, survey, id)
    })
}

/// The sendout, its row locked until the transaction ends.
pub(crate) fn locked(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Sendout, DomainError> {
    surveys::get(uow, account, survey)?;
    uow.find_sendout(account, survey, id, true)?.ok_or(DomainError::NotFound(Resource::Sendout))
}

/// The sendout's labels.
pub fn list_labels(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Vec<Label>, DomainError> {
    get(uow, account, survey, id)?;
    Ok(uow.list_labels(account, id)?)
}

/// Creates a background data label (function 0); a name the sendout already has answers `Conflict`
/// ([`ConflictKind::Duplicate`]).
pub fn create_label(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
    name: &str,
    label_type: LabelType,
) -> Result<Label, DomainError> {
    let draft = LabelDraft::new(name, label_type).map_err(|e| DomainError::Invalid(vec![e]))?;
    transaction(uow, |tx| {
        get(tx, account, survey, id)?;
        tx.insert_label(account, id, &draft, clock.now()).map_err(|error| match error {
            RepoError::Duplicate { .. } => DomainError::conflict(
                ConflictKind::Duplicate,
                format!("the sendout already has a label named {}", draft.name()),
            ),
            other => other.into(),
        })
    })
}

/// The sendout's reminders.
pub fn list_reminders(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Vec<Reminder>, DomainError> {
    get(uow, account, survey, id)?;
    Ok(uow.list_reminders(account, id)?)
}

/// Creates a reminder, checked by the message rules of the sendout's type.
pub fn create_reminder(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
    input: ReminderInput,
) -> Result<Reminder, DomainError> {
    transaction(uow, |tx| {
        let sendout = get(tx, account, survey, id)?;
        let draft = ReminderDraft::new(input, sendout.kind).map_err(DomainError::Invalid)?;
        Ok(tx.insert_reminder(account, id, &draft, clock.now())?)
    })
}
