//! In-memory fakes of the ports, one per area of flows, and the values tests build them from. A fake keeps its
//! state in one `Clone` value so that a transaction is a snapshot: `rollback` puts it back.

pub mod answer_sets;
pub mod distribution;
pub mod idempotency;
pub mod outbox;
pub mod pages;
pub mod retention;
pub mod surveys;

use time::OffsetDateTime;

use crate::clock::Clock;

/// A fixed instant, 2026-11-25 09:00 UTC.
pub const NOW: OffsetDateTime = time::macros::datetime!(2026-11-25 09:00 UTC);

/// A clock that always reads the instant it holds.
pub struct At(pub OffsetDateTime);

impl Clock for At {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}

/// A clock that moves on by a tenth of a second each time it is read, from [`NOW`].
#[derive(Default)]
pub struct Ticking(std::sync::atomic::AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> OffsetDateTime {
        let reads = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        NOW + time::Duration::milliseconds(100 * reads)
    }
}

/// Implements `Transactional` for a fake with fields `state` and `transactions: Snapshots<_>`.
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

/// Implements `WebhookEvents` for a fake whose `state` has `webhook_events: Vec<(WebhookEvent, EventSubject)>`:
/// every event written, in order (rolled back with the rest of the state).
macro_rules! record_webhook_events {
    ($fake:ty) => {
        impl $crate::ports::WebhookEvents for $fake {
            fn enqueue_events(
                &mut self,
                event: $crate::webhook::WebhookEvent,
                subjects: &[$crate::webhook::EventSubject],
                _now: time::OffsetDateTime,
            ) -> $crate::ports::RepoResult<()> {
                self.state.webhook_events.extend(subjects.iter().map(|subject| (event, *subject)));
                Ok(())
            }
        }
    };
}
pub(crate) use record_webhook_events;

/// The events a fake recorded.
pub type WebhookEvents = Vec<(crate::webhook::WebhookEvent, crate::webhook::EventSubject)>;

/// Snapshots of a fake's state, taken by `begin` and put back by `rollback`.
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
}
