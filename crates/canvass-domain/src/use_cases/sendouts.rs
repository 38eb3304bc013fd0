//! Sendouts: create, read, activate and deactivate; and their labels and reminders.
//!
//! # Activation: `POST …/sendouts/{sendoutId}/activate`
//!
//! `sendouts::activate` (`use_cases/sendouts.rs`) runs in one transaction; the adapters are
//! `crates/canvass-postgres/src/distribution/sendouts.rs`, `distribution/release.rs` and `delivery/outbox.rs`:
//!
//! 1. **Lock the sendout row.** `surveys::get`, then `find_sendout(…, lock = true)`: `SELECT … FOR UPDATE` on the
//!    sendout row, with its counts. Activations and deactivations of the same sendout wait here for each other. A
//!    TWOWAY sendout's `sender` must be a number of the account (`holds_sender`, `SELECT … FOR SHARE` on its
//!    `sender_numbers` row), else 409 `sender-not-provisioned`.
//! 2. **Transition.** The domain's state machine makes the `Transition` (`SendoutStatus::activate`, from any status
//!    to `Active`), and `apply_transition` stores it: one `UPDATE` of the sendout's status and `activated_at`.
//! 3. **Effective setting.** `find_frequency` reads the survey's own frequency setting and the account's;
//!    `effective_frequency` takes the survey's when it exists, enabled or not, else the account's.
//! 4. **Lock contacts.** Only when that setting is enabled and the sendout has pending respondents:
//!    `lock_pending_contacts` runs one statement that calls
//!    `pg_advisory_xact_lock(hashtextextended('<accountId>:<lower(contactKey)>', 0))` for every pending contact of
//!    the sendout, in that order, so that two activations sharing contacts take them in the same order and
//!    cannot deadlock. The locks last until the transaction ends.
//! 5. **Count.** `pending_other_surveys`: for each pending respondent, a correlated
//!    `count(DISTINCT survey_id)` over the account's respondents with the same contact key compared case-insensitively,
//!    `released_at` at or after now minus `numberOfDays` days, in surveys other than this one (the partial index
//!    `respondents_released_nocase_idx` on `(account_id, lower(contact_key), released_at)` serves it). `FrequencySetting::holds_back` picks those whose count is
//!    `maxNumberOfSurveys` or more.
//! 6. **Release.** `release_pending`: one `UPDATE` makes the held-back respondents `FrequencyLimitReached`, without
//!    `released_at`; two more (for `send_mail` true and false) release the other `Pending` respondents, setting
//!    `released_at`: `Scheduled` when the sendout type sends messages (EMAIL, SMS, TWOWAY) and `send_mail` is true,
//!    else `Released` (always, for LOGIN). The unique index on `(account_id, sendout_id, contact_key)`
//!    finds them (no index names `status`, so that the updates delivery makes to it are HOT). For a type that sends messages, one `INSERT … SELECT` then writes an invitation into the outbox for
//!    each respondent just made `Scheduled`, due at the sendout's `sendDate`, in the same transaction. The sendout's
//!    stored `pending_count` drops by the number of rows these `UPDATE`s moved (not to 0: see below).
//! 7. **Answer.** The sendout is read again, with its counts, for the 200 answer; `COMMIT` releases the row lock and
//!    the contact locks.
//!
//! Without an enabled setting, steps 4 and 5 are skipped. `sendouts::deactivate` is steps 1, 2 (with
//! `SendoutStatus::deactivate`, which refuses a `Draft`: 409 `not-activated`) and 7.
//!
//! Two activations that share a contact, of sendouts of different surveys, meet at step 4: the second waits until
//! the first commits, and its count, a new statement under `READ COMMITTED`, then sees the first one's releases.
//! `tests/api/distribution/frequency.rs` activates twenty sendouts of one contact at once and finds exactly
//! `maxNumberOfSurveys` of them released.
//!
//! Adding respondents takes the sendout's row lock only for its count `UPDATE`, its last statement: a batch that
//! inserted while an activation runs waits there until the activation commits, and keeps the rows the release
//! `UPDATE`s did not see as `Pending`; they show in `pendingCount` and the next activation releases them. Likewise, `blocklist::add` marks the respondents committed when its `UPDATE` runs: a batch that
//! passed its blocklist query just before the entry committed can still add that contact as `Pending` (the
//! delivery worker checks the blocklist again before it sends).

use crate::clock::Clock;
use crate::distribution::{
    DispatchType, Label, LabelDraft, LabelType, Reminder, ReminderDraft, ReminderInput, Sendout, SendoutDraft,
    SendoutInput,
};
use time::Duration;

use crate::error::{ConflictKind, DomainError, RepoError, Resource};
use crate::governance::effective_frequency;
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::ports::{
    transaction, GovernanceRepository, ReleaseRepository, RespondentRepository, SenderRepository, SendoutRepository,
    SurveyRepository, Transactional, WebhookEvents,
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

/// The subject and text a respondent of the sendout is sent, as it gets them (its language, its contact's and
/// background data's placeholders filled in, links under `base`). A sendout that sends nothing (LOGIN, LINK) is a
/// `NoInvitation` conflict; a respondent of another sendout is not found.
pub fn preview(
    uow: &mut (impl RespondentRepository + SendoutRepository + SurveyRepository + ?Sized),
    base: &crate::delivery::LinkBase,
    account: AccountId,
    (survey, sendout): (SurveyId, SendoutId),
    respondent: RespondentId,
) -> Result<(Option<String>, String), DomainError> {
    if matches!(kind_of(uow, account, survey, sendout)?, DispatchType::Login | DispatchType::Link) {
        let detail = "a LOGIN or LINK sendout sends no invitation";
        return Err(DomainError::conflict(ConflictKind::NoInvitation, detail));
    }
    let invitation =
        uow.invitation_of(account, sendout, respondent)?.ok_or(DomainError::NotFound(Resource::Respondent))?;
    Ok(invitation.filled(base))
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

/// Creates a Draft sendout and its background data document. A TWOWAY sendout of a survey with a required Date,
/// Matrix or Ranking item (which a conversation cannot ask) is refused.
pub fn create(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: SendoutInput,
) -> Result<Sendout, DomainError> {
    transaction(uow, |tx| {
        let (found, tree) = surveys::get_with_tree(tx, account, survey)?;
        let two_way = input.kind == DispatchType::TwoWay;
        let input = SendoutInput { language: input.language.or(Some(found.language)), ..input };
        let draft = SendoutDraft::new(input).map_err(DomainError::Invalid)?;
        if two_way {
            let unasked: Vec<String> = tree
                .items()
                .filter(|item| item.required && !item.kind.asked_by_sms())
                .map(|item| format!("{} ({})", item.id, item.kind))
                .collect();
            if !unasked.is_empty() {
                let message = format!(
                    "a TWOWAY conversation cannot ask the survey's required items {}: make them optional or use \
                     another type of sendout",
                    unasked.join(", ")
                );
                return Err(DomainError::invalid("type", message));
            }
        }
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

/// Gives a LINK sendout's open link a new handle, so that the old link (on a poster, in a leaked mail) opens
/// nothing; another type answers `Conflict` ([`ConflictKind::NoPublicLink`]).
pub fn rotate_open_link(
    uow: &mut (impl SendoutRepository + SurveyRepository + Transactional + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<Sendout, DomainError> {
    transaction(uow, |tx| {
        let sendout = locked(tx, account, survey, id)?;
        if sendout.open_link.is_none() {
            let detail = format!("a {} sendout has no open link to rotate", sendout.kind.as_str());
            return Err(DomainError::conflict(ConflictKind::NoPublicLink, detail));
        }
        tx.replace_open_link_handle(account, id, &crate::distribution::new_survey_link_token(account))?;
        get(tx, account, survey, id)
    })
}

/// Where anyone (no one respondent) may reach a sendout: a LINK sendout's open link, a LOGIN sendout's login page.
#[derive(Clone, PartialEq, Eq)]
pub enum PublicAddress {
    /// `/s/<handle>`.
    OpenLink(String),
    /// `/login/<sendoutId>`.
    LoginPage(SendoutId),
}

impl std::fmt::Debug for PublicAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OpenLink(_) => f.write_str("OpenLink(<secret>)"),
            Self::LoginPage(sendout) => f.debug_tuple("LoginPage").field(sendout).finish(),
        }
    }
}

/// The sendout's public address (what its QR code reads as); EMAIL, SMS and TWOWAY sendouts have none
/// (`Conflict`, [`ConflictKind::NoPublicLink`]).
pub fn public_address(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: SendoutId,
) -> Result<PublicAddress, DomainError> {
    let sendout = get(uow, account, survey, id)?;
    match (sendout.kind, sendout.open_link) {
        (_, Some(link)) => Ok(PublicAddress::OpenLink(link.handle)),
        (DispatchType::Login, None) => Ok(PublicAddress::LoginPage(id)),
        (kind, None) => Err(DomainError::conflict(
            ConflictKind::NoPublicLink,
            format!("a {} sendout reaches its respondents by their own links; it has no public one", kind.as_str()),
        )),
    }
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
