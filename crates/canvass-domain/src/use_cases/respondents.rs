//! Respondents: adding one or a batch to a sendout, and listing them.
//!
//! # The hot path: `POST /api/v1/surveys/{surveyId}/sendouts/{sendoutId}/respondents/batch`
//!
//! Adding respondents in batches is the path that carries volume. The span, the route, authentication and the
//! mapping of errors are those of every request (docs/ARCHITECTURE.md, "One request's path"); the rest is
//! (`routes/respondents.rs`, [`add_batch`] here, `crates/canvass-postgres/src/distribution/respondents.rs`):
//!
//! 1. **Body.** `Body<RawBatchBody>` reads `{"surveyRespondents": [...]}`. A body that is not such an object is a 400
//!    before the blocking hop. An item with a wrong type or a missing field does not stop the read: it is carried, with
//!    the errors of its fields (`surveyRespondents[i].sendMail`, or whichever field), into step 3.3, and refused
//!    there together with the readable items that break a rule, after the sendout and label `SELECT`s and before
//!    anything is written.
//! 2. **Count.** 1 to 1,000 items, else a 400 on `surveyRespondents`, before the transaction begins.
//! 3. **One transaction**, on one pooled connection, in one blocking hop:
//!    1. the sendout: `surveys::get` (one `SELECT`), then the dispatch type of the sendout of that survey
//!       (`sendout_kind`: one `SELECT` by primary key, not locked, no count of its respondents); a sendout of another
//!       survey is a 404;
//!    2. the account's background data label ids (one `SELECT` of the function-0 labels);
//!    3. validation in memory: `NewRespondent::check` per readable item (contact details for the sendout type,
//!       background data keys and values), collecting every error with its batch-relative `[i].` path (the HTTP
//!       layer puts `surveyRespondents` in front), beside
//!       the field errors of the items step 1 could not read; any error is a 400
//!       and the transaction rolls back with nothing written. Each valid item gets its contact key and a fresh
//!       link token naming its account (`<accountId>-` and 160 random bits, see scaling.md's "Public handles");
//!    4. one blocklist query: the blocklist entries whose `contact_key` is any of the batch's keys;
//!    5. in memory, in batch order: blocklisted, else duplicate (earlier in the batch), else to insert;
//!    6. one `INSERT … ON CONFLICT (account_id, sendout_id, contact_key) DO NOTHING RETURNING …` per 1,000 rows (so
//!       one for any batch), every row `Pending`. A row missing from `RETURNING` is a contact the sendout already
//!       has (or another transaction added meanwhile); it is reported as a `duplicate` rejection. Nothing on the path
//!       reads the sendout's other respondents, so a batch costs the same however many it already has;
//!    7. one `INSERT` of the rows' `added` timeline events;
//!    8. one `UPDATE` of the sendout row adds the number of rows inserted to its stored `respondent_count` and
//!       `pending_count` (relative, so two batches at once both count), held by the adapter until the commit and
//!       sent as the transaction's last statement (`counts::DeferredShifts`: the row it locks is every insert's);
//!    9. `COMMIT`.
//!
//!    For any batch of up to 1,000 that is `BEGIN`, four `SELECT`s, two `INSERT`s, one `UPDATE` and `COMMIT`.
//! 4. **Response.** 200 `{added, rejected}`; each added respondent's `surveyLink` is built from
//!    `AppState::public_url`.
//!
//! Concurrent batches need no lock of their own (step 3.8 holds the sendout row from their last statement to their
//! commit). Under PostgreSQL's default `READ COMMITTED`, two batches with the same contacts
//! can both reach step 3.6; the second `INSERT` then waits on the unique key `(account_id, sendout_id, contact_key)`
//! until the first commits, skips those rows, and reports them as duplicates, so each contact is added once.
//! `tests/api/distribution/respondents.rs` runs two such batches at once. What the path costs against a raw `INSERT` is in
//! docs/benchmarks.md.

use std::collections::{HashMap, HashSet};

use crate::chunks::{Chunk, ChunkRequest};
use crate::clock::Clock;
use crate::distribution::{DispatchType, NewRespondent, Respondent, RespondentInput, MAX_BATCH};
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
    /// The contact of the directory has no detail of the sendout's kind (no email address for EMAIL, no phone
    /// number for SMS or TWOWAY).
    NoContactDetail,
}

impl RejectReason {
    /// The name clients see.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Blocklisted => "blocklisted",
            Self::Duplicate => "duplicate",
            Self::NoContactDetail => "noContactDetail",
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
        let kind = refuse_link(sendouts::kind_of(tx, account, survey, sendout)?)?;
        let labels: HashSet<LabelId> = tx.background_label_ids(account)?.into_iter().collect();
        let respondent = NewRespondent::check(account, input, kind, &labels, "").map_err(DomainError::Invalid)?;
        add_checked(tx, clock, account, sendout, respondent)
    })
}

/// `kind`, unless it is LINK: a LINK sendout's respondents are the visitors of its open link, never added
/// ([`ConflictKind::LinkSendout`]).
pub(crate) fn refuse_link(kind: DispatchType) -> Result<DispatchType, DomainError> {
    if kind == DispatchType::Link {
        return Err(link_refused());
    }
    Ok(kind)
}

/// The conflict of respondents added to a LINK sendout.
pub(crate) fn link_refused() -> DomainError {
    DomainError::conflict(
        ConflictKind::LinkSendout,
        "a LINK sendout's respondents are the visitors of its open link; none are added",
    )
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
        let kind = refuse_link(sendouts::kind_of(tx, account, survey, sendout)?)?;
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
