//! The blocklist and permanent email failures (bounces).

use crate::chunks::{Chunk, ChunkRequest};
use crate::clock::Clock;
use crate::distribution::{
    contact_key, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, NewPermanentFailure, PermanentFailure,
};
use crate::error::{ConflictKind, DomainError, Resource};
use crate::ids::AccountId;
use crate::paging::{Page, PageRequest};
use crate::ports::{transaction, BlocklistRepository, Transactional};

/// One chunk of the account's blocklist, in the order entries were added (by `createdAt`, then by contact key).
pub fn list_chunk(
    uow: &mut (impl BlocklistRepository + ?Sized),
    account: AccountId,
    request: &ChunkRequest<BlocklistKey>,
) -> Result<Chunk<BlocklistEntry, BlocklistKey>, DomainError> {
    let rows = uow.blocklist_chunk(account, request)?;
    Ok(Chunk::of(rows, request, |(key, _)| key.clone()).map(|(_, entry)| entry))
}

/// Adds a contact; the account's respondents with that contact that were not sent to yet become Blocklisted.
/// A contact already on the list answers `Conflict` ([`ConflictKind::Duplicate`]).
pub fn add(
    uow: &mut (impl BlocklistRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    contact_details: &str,
    kind: BlocklistType,
) -> Result<BlocklistEntry, DomainError> {
    let contact = crate::distribution::check_any_contact(contact_details)?;
    transaction(uow, |tx| {
        tx.insert_blocklist(account, contact, &contact_key(contact), kind, clock.now())?
            .ok_or_else(|| DomainError::conflict(ConflictKind::Duplicate, "the contact is already on the blocklist"))
    })
}

/// Removes a contact from the blocklist. The contact is checked as [`add`] checks it: one that could never have
/// been added is a bad request (naming `contactDetails`), not a missing entry.
pub fn remove(
    uow: &mut (impl BlocklistRepository + ?Sized),
    account: AccountId,
    contact_details: &str,
) -> Result<(), DomainError> {
    let contact_details = crate::distribution::check_any_contact(contact_details)?;
    match uow.delete_blocklist(account, &contact_key(contact_details))? {
        true => Ok(()),
        false => Err(DomainError::NotFound(Resource::BlocklistEntry)),
    }
}

/// Records permanent failures (idempotent on address and time) and marks matching respondents Bounced; returns
/// how many were new.
pub fn record_failures(
    uow: &mut (impl BlocklistRepository + Transactional + ?Sized),
    account: AccountId,
    failures: Vec<NewPermanentFailure>,
) -> Result<u64, DomainError> {
    if failures.is_empty() || failures.len() > 1000 {
        return Err(DomainError::invalid("failures", "must hold 1 to 1000 failures"));
    }
    transaction(uow, |tx| Ok(tx.record_failures(account, &failures)?))
}

/// One page of the account's permanent failures.
pub fn page_failures(
    uow: &mut (impl BlocklistRepository + ?Sized),
    account: AccountId,
    filter: &BounceFilter,
    page: PageRequest,
) -> Result<Page<PermanentFailure>, DomainError> {
    Ok(uow.page_failures(account, filter, page)?)
}
