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
//! let caller = store.with_uow(|uow| accounts::authenticate(uow, &At(NOW), created.api_key.secret())).unwrap().unwrap();
//! let input = SurveyInput { name: "Staff".into(), ..SurveyInput::default() };
//! let survey = store.with_uow(|uow| surveys::create(uow, &At(NOW), caller.account_id, input)).unwrap();
//! assert_eq!(store.with_uow(|uow| surveys::get(uow, caller.account_id, survey.id)).unwrap().name, "Staff");
//!
//! store.set_available(false);
//! assert!(store.readiness().is_err());
//! ```
//!
//! It keeps every area, as the PostgreSQL adapter does and split as it is (`memory/<area>.rs`): accounts, surveys,
//! sendouts with their labels, reminders and documents, respondents, answer sets, the blocklist and failures, the
//! outbox and the pace, retention and erasure, insight, senders, idempotency keys and webhooks. What a test needs
//! beyond the ports (a failure to inject, a read to count) is in [`Hooks`], outside the transactions.

mod idempotency;
mod memory;
mod seed;
mod store;
mod surveys;

pub use idempotency::{HoldsKeys, Keys};
pub use memory::{
    weighed, HeldAnswerSet, HeldMessage, HeldRespondent, Hooks, KeyRow, Memory, MessageStatus, State, StoredDelivery,
};
pub use seed::spring_sendout;
pub use store::MemoryStore;
pub use surveys::{capitalised, question_item, staff_survey, HoldsSurveys, Surveys};

use time::OffsetDateTime;

use crate::clock::Clock;

/// A fixed instant, 2026-11-25 09:00 UTC.
pub const NOW: OffsetDateTime = time::macros::datetime!(2026-11-25 09:00 UTC);

/// The owner of `account` (user 1) calling with a key that may do everything and never expires.
pub fn caller(account: i64) -> crate::account::Caller {
    crate::account::Caller {
        account_id: crate::ids::AccountId::new(account),
        user_id: crate::ids::UserId::new(1),
        role: crate::account::Role::Owner,
        key: crate::account::KeyPrefix::parse("cvs_000000000000").unwrap_or_else(|| unreachable!()),
        read_only: false,
        expires_at: None,
    }
}

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
