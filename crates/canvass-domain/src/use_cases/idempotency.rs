//! Idempotent requests: claim a key before a request runs, keep (or release) its answer after, and purge expired
//! keys. The rules are in [`crate::idempotency`]; a transport calls these around the request's own use case, and
//! [`run_and_complete`] runs that use case and keeps its answer in one transaction.

mod once;

pub use once::{run_and_complete, Completion, ServedAnswer};

use time::OffsetDateTime;

use crate::clock::Clock;
use crate::error::DomainError;
use crate::idempotency::ports::IdempotencyRepository;
use crate::idempotency::{keeps, to_micros, Claim, Claimed, Fingerprint, IdempotencyKey, KeptResponse, Staleness};
use crate::ids::AccountId;

/// Rows one purge statement deletes at most.
pub const PURGE_BATCH: usize = 10_000;

/// How often a claim is tried when the row that refused it is gone (released or taken over) before it is read.
const CLAIM_TRIES: usize = 3;

/// Claims `key` for the request with `fingerprint`, or says what a repeat gets: the winner of two requests at
/// once runs, the other is told the key is in use (or gets the kept answer once there is one).
pub fn claim<R: IdempotencyRepository + ?Sized>(
    repo: &mut R,
    clock: &dyn Clock,
    account: AccountId,
    key: &IdempotencyKey,
    fingerprint: &Fingerprint,
) -> Result<Claim, DomainError> {
    let now = to_micros(clock.now());
    for _ in 0..CLAIM_TRIES {
        if repo.claim_idempotency_key(account, key, fingerprint, now, Staleness::at(now))? {
            return Ok(Claim::Run(Claimed { at: now }));
        }
        match repo.find_idempotency_key(account, key)? {
            Some(record) if !record.counts_as_absent(now) => return Ok(record.answer_to(fingerprint)),
            _ => continue,
        }
    }
    Ok(Claim::InUse)
}

/// Completes a claim with the request's answer: kept when [`keeps`] says so, otherwise the key is released so a
/// retry runs again. `false` when the claim no longer held the key.
pub fn complete<R: IdempotencyRepository + ?Sized>(
    repo: &mut R,
    account: AccountId,
    key: &IdempotencyKey,
    claimed: Claimed,
    response: &KeptResponse,
) -> Result<bool, DomainError> {
    let held = if keeps(response.status) {
        repo.finish_idempotency_key(account, key, claimed.at, response)?
    } else {
        repo.release_idempotency_key(account, key, claimed.at)?
    };
    Ok(held)
}

/// Deletes every key of every account that has expired as of `now`, in statements of [`PURGE_BATCH`] rows, and
/// says how many.
pub fn purge<R: IdempotencyRepository + ?Sized>(repo: &mut R, now: OffsetDateTime) -> Result<u64, DomainError> {
    let before = Staleness::at(now).expired_at_or_before;
    let mut total = 0;
    loop {
        let deleted = repo.purge_idempotency_keys(before, PURGE_BATCH)?;
        total += deleted;
        if deleted < PURGE_BATCH as u64 {
            return Ok(total);
        }
    }
}

/// Releases a claim whose answer is not to be kept whatever its status (a body too large to keep); `false` when
/// the claim no longer held the key.
pub fn release<R: IdempotencyRepository + ?Sized>(
    repo: &mut R,
    account: AccountId,
    key: &IdempotencyKey,
    claimed: Claimed,
) -> Result<bool, DomainError> {
    Ok(repo.release_idempotency_key(account, key, claimed.at)?)
}
