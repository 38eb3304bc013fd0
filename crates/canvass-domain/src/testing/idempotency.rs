//! Idempotency keys in memory, keyed by account and key, with the adapter's claim semantics: a store keeps
//! [`Keys`] in its state and says where ([`HoldsKeys`]).

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::idempotency::ports::IdempotencyRepository;
use crate::idempotency::{Fingerprint, IdempotencyKey, KeptResponse, KeyRecord, KeyState, Staleness};
use crate::ids::AccountId;
use crate::ports::RepoResult;

/// Keys by (account, key).
#[derive(Debug, Clone, Default)]
pub struct Keys {
    /// The stored rows.
    pub rows: BTreeMap<(AccountId, String), KeyRecord>,
}

impl Keys {
    fn row(&mut self, account: AccountId, key: &IdempotencyKey) -> Option<&mut KeyRecord> {
        self.rows.get_mut(&(account, key.as_str().to_owned()))
    }
}

/// A store whose state holds [`Keys`].
pub trait HoldsKeys {
    /// Where they are.
    fn keys(&mut self) -> &mut Keys;
}

impl HoldsKeys for Keys {
    fn keys(&mut self) -> &mut Keys {
        self
    }
}

impl<T: HoldsKeys + ?Sized> IdempotencyRepository for T {
    fn claim_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        fingerprint: &Fingerprint,
        at: OffsetDateTime,
        stale: Staleness,
    ) -> RepoResult<bool> {
        let taken = self.keys().row(account, key).is_some_and(|row| {
            row.created_at > stale.expired_at_or_before
                && !(row.state == KeyState::Running && row.created_at <= stale.abandoned_at_or_before)
        });
        if !taken {
            let record = KeyRecord { fingerprint: *fingerprint, state: KeyState::Running, created_at: at };
            self.keys().rows.insert((account, key.as_str().to_owned()), record);
        }
        Ok(!taken)
    }

    fn find_idempotency_key(&mut self, account: AccountId, key: &IdempotencyKey) -> RepoResult<Option<KeyRecord>> {
        Ok(self.keys().row(account, key).cloned())
    }

    fn finish_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
        response: &KeptResponse,
    ) -> RepoResult<bool> {
        match self.keys().row(account, key) {
            Some(row) if row.state == KeyState::Running && row.created_at == claimed_at => {
                row.state = KeyState::Done(response.clone());
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn release_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
    ) -> RepoResult<bool> {
        let held = self
            .keys()
            .row(account, key)
            .is_some_and(|row| row.state == KeyState::Running && row.created_at == claimed_at);
        if held {
            self.keys().rows.remove(&(account, key.as_str().to_owned()));
        }
        Ok(held)
    }

    fn purge_idempotency_keys(&mut self, expired_at_or_before: OffsetDateTime, limit: usize) -> RepoResult<u64> {
        let keys = self.keys();
        let expired: Vec<_> = keys
            .rows
            .iter()
            .filter(|(_, row)| row.created_at <= expired_at_or_before)
            .map(|(id, _)| id.clone())
            .take(limit)
            .collect();
        for id in &expired {
            keys.rows.remove(id);
        }
        Ok(expired.len() as u64)
    }
}
