//! The port of idempotent requests: the keys an account's requests claimed, and what each answered.
//!
//! Every method is scoped by the caller's `AccountId` except [`IdempotencyRepository::purge_idempotency_keys`], which
//! serves every account; the rules every adapter follows are in [`crate::ports`].

use time::OffsetDateTime;

use crate::idempotency::{Fingerprint, IdempotencyKey, KeptResponse, KeyRecord, Staleness};
use crate::ids::AccountId;
use crate::ports::RepoResult;

/// Idempotency keys, unique per account and key.
pub trait IdempotencyRepository {
    /// Claims `key` for a running request with `fingerprint`, made at `at`, in one atomic step: a new row, or the
    /// takeover of a row that counts as absent under `stale` (expired, or running and abandoned). `false` when a
    /// row that counts holds the key; of two requests at once exactly one gets `true`.
    fn claim_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        fingerprint: &Fingerprint,
        at: OffsetDateTime,
        stale: Staleness,
    ) -> RepoResult<bool>;

    /// The row holding `key`, whatever its age.
    fn find_idempotency_key(&mut self, account: AccountId, key: &IdempotencyKey) -> RepoResult<Option<KeyRecord>>;

    /// Keeps `response` as the answer of the running claim made at `claimed_at`; `false` when that claim no
    /// longer holds the key (it was taken over).
    fn finish_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
        response: &KeptResponse,
    ) -> RepoResult<bool>;

    /// Deletes the running claim made at `claimed_at`, so a retry runs again; `false` when it no longer holds the
    /// key.
    fn release_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
    ) -> RepoResult<bool>;

    /// Across every account: deletes up to `limit` rows created at or before `expired_at_or_before`, and says how
    /// many it deleted. An adapter lists the accounts with expired keys first and deletes each account's keys in a
    /// statement of its own, so that every delete names one account (docs/scaling.md).
    fn purge_idempotency_keys(&mut self, expired_at_or_before: OffsetDateTime, limit: usize) -> RepoResult<u64>;
}
