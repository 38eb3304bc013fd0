//! A second store for tests: [`MemoryStore`] implements every port in memory, scoped by account as the ports
//! demand, so that a web layer's handlers or another crate's flows can run in-process without a database.
//!
//! Built for this crate's own tests and, with the cargo feature `testing`, for other crates' tests. Not for
//! production: it holds everything in one mutex and forgets it when dropped.
//!
//! ```
//! use canvass_domain::ports::{Store, StoreExt};
//! use canvass_domain::survey::SurveyInput;
//! use canvass_domain::testing::{At, MemoryStore, NOW};
//! use canvass_domain::use_cases::{accounts, surveys};
//!
//! let store = MemoryStore::new();
//! let created = store.seed_account("Acme", "owner@acme.example").unwrap();
//! let caller = store.with_uow(|uow| accounts::authenticate(uow, created.api_key.secret())).unwrap().unwrap();
//! let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
//! let survey = store.with_uow(|uow| surveys::create(uow, &At(NOW), caller.account_id, input)).unwrap();
//! assert_eq!(store.with_uow(|uow| surveys::get(uow, caller.account_id, survey.id)).unwrap().name, "Staff");
//!
//! store.set_available(false);
//! assert!(store.readiness().is_err());
//! ```
//!
//! What it keeps for real: accounts, users and API keys; idempotency keys; categories; surveys with their question
//! trees and logic; frequency settings, retention rules and policies; sender numbers; sendouts (not their
//! respondents); webhooks and the deliveries events and tests write. Every other method answers
//! [`RepoError::Other`](crate::RepoError::Other) naming itself (see [`Memory`]), never a panic.

mod idempotency;
mod memory;
mod store;
mod surveys;

pub use idempotency::{HoldsKeys, Keys};
pub use memory::{KeyRow, Memory, State, StoredDelivery};
pub use store::MemoryStore;
pub use surveys::{staff_survey, HoldsSurveys, Surveys};

use time::OffsetDateTime;

use crate::clock::Clock;

/// A fixed instant, 2026-11-25 09:00 UTC.
pub const NOW: OffsetDateTime = time::macros::datetime!(2026-11-25 09:00 UTC);

/// A clock that always reads the instant it holds.
#[derive(Debug, Clone, Copy)]
pub struct At(pub OffsetDateTime);

impl Clock for At {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}

/// A clock that moves on by a tenth of a second each time it is read, from [`NOW`].
#[derive(Debug, Default)]
pub struct Ticking(std::sync::atomic::AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> OffsetDateTime {
        let reads = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        NOW + time::Duration::milliseconds(100 * reads)
    }
}

/// Writes repository methods that the in-memory store does not keep: each answers
/// [`RepoError::Other`](crate::RepoError::Other) naming the method, so that a test that reaches one fails with a
/// clear message instead of a panic. Used inside an `impl` block, with the trait's signatures (arguments by name,
/// `&mut self` first).
macro_rules! not_kept {
    ($(fn $name:ident(&mut self $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty;)*) => {
        $(
            fn $name(&mut self $(, $arg: $ty)*) -> $ret {
                $(let _ = $arg;)*
                Err($crate::RepoError::Other(
                    concat!("the in-memory store does not keep ", stringify!($name)).into(),
                ))
            }
        )*
    };
}
pub(crate) use not_kept;

/// Implements `Transactional` for a type with fields `state` and `transactions: Snapshots<_>`: `begin` takes a
/// snapshot of the state, `rollback` puts it back.
macro_rules! snapshot_transactions {
    ($fake:ty) => {
        impl $crate::ports::Transactional for $fake {
            fn begin(&mut self) -> $crate::ports::RepoResult<()> {
                self.transactions.begin(&self.state);
                Ok(())
            }

            fn commit(&mut self) -> $crate::ports::RepoResult<()> {
                self.transactions.commit();
                Ok(())
            }

            fn rollback(&mut self) -> $crate::ports::RepoResult<()> {
                self.transactions.rollback(&mut self.state);
                Ok(())
            }
        }
    };
}
pub(crate) use snapshot_transactions;

/// Snapshots of a store's state, taken by `begin` and put back by `rollback`.
#[derive(Debug)]
pub struct Snapshots<S> {
    open: Vec<S>,
    /// Transactions committed, for tests that check the boundary.
    pub committed: usize,
    /// Transactions rolled back.
    pub rolled_back: usize,
}

impl<S> Default for Snapshots<S> {
    fn default() -> Self {
        Self { open: Vec::new(), committed: 0, rolled_back: 0 }
    }
}

impl<S: Clone> Snapshots<S> {
    /// Opens a transaction over `state`.
    pub fn begin(&mut self, state: &S) {
        self.open.push(state.clone());
    }

    /// Keeps the innermost transaction's changes.
    pub fn commit(&mut self) {
        self.open.pop();
        self.committed += 1;
    }

    /// Puts `state` back as it was when the innermost transaction began.
    pub fn rollback(&mut self, state: &mut S) {
        if let Some(before) = self.open.pop() {
            *state = before;
        }
        self.rolled_back += 1;
    }

    /// How many transactions are open now.
    pub fn open(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests;
