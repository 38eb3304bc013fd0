//! Respondents: adding one or a batch to a sendout, and listing them.

use std::collections::{HashMap, HashSet};

use crate::chunks::{Chunk, ChunkRequest};
use crate::clock::Clock;
use crate::distribution::{NewRespondent, Respondent, RespondentInput, MAX_BATCH};
use crate::error::{ConflictKind, DomainError, FieldError};
use crate::ids::{AccountId, LabelId, RespondentId, SendoutId, SurveyId};
use crate::ports::{
    transaction, BlocklistRepository, RespondentRepository, SendoutRepository, SurveyRepository, Transactional,
};

use super::sendouts;

/// Why a batch item was not added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectReason {
    /// The contact is on the account's blocklist.
    Blocklisted,
    /// The sendout already has the contact (or the batch has it at an earlier index).
    Duplicate,
}

impl RejectReason {
    /// The name clients see.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Blocklisted => "blocklisted",
            Self::Duplicate => "duplicate",
        }
    }
}

/// A batch item that was refused.
#[derive(Clone, PartialEq, Eq)]
pub struct Rejection {
    /// 0-based position in the batch.
    pub index: usize,
    /// The contact as given.
    pub contact_details: String,
    /// Why.
    pub reason: RejectReason,
}

/// What a batch did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchOutcome {
    /// Respondents added, in batch order.
    pub added: Vec<Respondent>,
    /// Items refused, in batch order.
    pub rejected: Vec<Rejection>,
}

/// One chunk of the sendout's respondents, in the order they were added (by id). The first chunk checks that the
/// sendout is one of the survey's and the survey the account's (`NotFound` otherwise); a later one only reads on
/// after its cursor (the read is scoped to the account and the sendout).
pub fn list_chunk(
    uow: &mut (impl RespondentRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    request: &ChunkRequest<RespondentId>,
) -> Result<Chunk<Respondent, RespondentId>, DomainError> {
    if request.is_first() {
        sendouts::get(uow, account, survey, sendout)?;
    }
    let found = uow.respondents_chunk(account, sendout, request)?;
    Ok(Chunk::of(found, request, |respondent| respondent.id))
}

/// Adds one respondent as Pending. A blocklisted contact answers `Conflict` ([`ConflictKind::Blocklisted`]), one
/// the sendout already has `Conflict` ([`ConflictKind::Duplicate`]).
pub fn add(
    uow: &mut (impl BlocklistRepository
              + RespondentRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    input: RespondentInput,
) -> Result<Respondent, DomainError> {
    transaction(uow, |tx| {
        let kind = sendouts::kind_of(tx, account, survey, sendout)?;
        let labels: HashSet<LabelId> = tx.background_label_ids(account)?.into_iter().collect();
        let respondent = NewRespondent::check(account, input, kind, &labels, "").map_err(DomainError::Invalid)?;
        add_checked(tx, clock, account, sendout, respondent)
    })
}

/// Adds a checked respondent to a sendout, refusing blocklisted and duplicate contacts.
pub(crate) fn add_checked(
    uow: &mut (impl BlocklistRepository + RespondentRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    sendout: SendoutId,
    respondent: NewRespondent,
) -> Result<Respondent, DomainError> {
    let keys = [respondent.contact_key().to_owned()];
    if !uow.blocked_keys(account, &keys)?.is_empty() {
        return Err(DomainError::conflict(ConflictKind::Blocklisted, "the contact is on the account's blocklist"));
    }
    let duplicate = || DomainError::conflict(ConflictKind::Duplicate, "the sendout already has this contact");
    if !uow.existing_contact_keys(account, sendout, &keys)?.is_empty() {
        return Err(duplicate());
    }
    uow.insert_respondents(account, sendout, &[respondent], clock.now())?.pop().ok_or_else(duplicate)
}

/// Adds 1 to [`MAX_BATCH`] respondents in one transaction: malformed items refuse the whole batch (every bad
/// index named); blocklisted and duplicate contacts are refused one by one. The blocklist is checked with one
/// query and the rest inserted with one statement, whose conflicts on the sendout's contacts are the duplicates:
/// nothing reads the sendout's other respondents, so a batch costs the same however many it already has.
pub fn add_batch(
    uow: &mut (impl BlocklistRepository
              + RespondentRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    inputs: Vec<RespondentInput>,
) -> Result<BatchOutcome, DomainError> {
    add_read_batch(uow, clock, account, survey, sendout, inputs.into_iter().map(Ok).collect())
}

/// [`add_batch`] for items as a transport read them: an item that could not be read at all carries the errors of
/// its fields, and is refused together with the readable items that break a rule, every index named.
///
/// Field paths are relative to the batch: `[3].contactDetails` for an item's field, empty for the batch itself.
/// The transport puts its own name for the list in front (HTTP: `surveyRespondents`).
pub fn add_read_batch(
    uow: &mut (impl BlocklistRepository
              + RespondentRepository
              + SendoutRepository
              + SurveyRepository
              + Transactional
              + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    inputs: Vec<Result<RespondentInput, Vec<FieldError>>>,
) -> Result<BatchOutcome, DomainError> {
    if inputs.is_empty() || inputs.len() > MAX_BATCH {
        return Err(DomainError::invalid("", format!("must hold 1 to {MAX_BATCH} respondents")));
    }
    transaction(uow, |tx| {
        let kind = sendouts::kind_of(tx, account, survey, sendout)?;
        let labels: HashSet<LabelId> = tx.background_label_ids(account)?.into_iter().collect();
        let mut errors: Vec<FieldError> = Vec::new();
        let mut checked = Vec::with_capacity(inputs.len());
        for (index, input) in inputs.into_iter().enumerate() {
            let checked_input =
                input.and_then(|input| NewRespondent::check(account, input, kind, &labels, &format!("[{index}].")));
            match checked_input {
                Ok(respondent) => checked.push(respondent),
                Err(item_errors) => errors.extend(item_errors),
            }
        }
        DomainError::check(errors)?;
        let keys: Vec<String> = checked.iter().map(|r| r.contact_key().to_owned()).collect();
        let blocked: HashSet<String> = tx.blocked_keys(account, &keys)?.into_iter().collect();
        // Contacts the sendout already has are found by the insert itself (its conflicts), not by a look-up whose
        // plan could scan the whole sendout: only the batch's own repeats are caught here.
        let mut taken: HashSet<String> = HashSet::with_capacity(keys.len());
        let mut rejected = Vec::new();
        let mut to_insert = Vec::with_capacity(checked.len());
        let mut index_of = HashMap::with_capacity(checked.len());
        for (index, respondent) in checked.into_iter().enumerate() {
            let reason = if blocked.contains(respondent.contact_key()) {
                Some(RejectReason::Blocklisted)
            } else if !taken.insert(respondent.contact_key().to_owned()) {
                Some(RejectReason::Duplicate)
            } else {
                None
            };
            match reason {
                Some(reason) => {
                    rejected.push(Rejection { index, contact_details: respondent.contact_details().to_owned(), reason })
                }
                None => {
                    index_of.insert(respondent.contact_key().to_owned(), index);
                    to_insert.push(respondent);
                }
            }
        }
        let added = tx.insert_respondents(account, sendout, &to_insert, clock.now())?;
        if added.len() < to_insert.len() {
            // The sendout already had these contacts (or another transaction added them meanwhile): duplicates.
            let inserted: HashSet<String> =
                added.iter().map(|r| crate::distribution::contact_key(&r.contact_details)).collect();
            for respondent in to_insert.into_iter().filter(|r| !inserted.contains(r.contact_key())) {
                let index = index_of.get(respondent.contact_key()).copied().unwrap_or_default();
                rejected.push(Rejection {
                    index,
                    contact_details: respondent.contact_details().to_owned(),
                    reason: RejectReason::Duplicate,
                });
            }
            rejected.sort_by_key(|r| r.index);
        }
        Ok(BatchOutcome { added, rejected })
    })
}

crate::debug_without_personal_data!(Rejection { index, reason });
