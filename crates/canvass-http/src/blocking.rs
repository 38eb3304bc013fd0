//! The one blocking hop of a request: borrow a unit of work from the store on a thread of the store's lane, run a
//! whole use case on it, give it back. No connection is ever held across an `.await`.
//!
//! The lane ([`StoreLane`]) has as many threads as the store has connections and one queue, fair between
//! [`Share`]s (the caller's account, which the API guard sets for the whole request: `share.rs`), each share's work
//! in arrival order; waiting requests wait as futures, not as blocked threads. Without that, every waiting request held a
//! blocking thread parked on the pool, the threads took the two cores from the HTTP workers, and whichever thread
//! woke first took a returned connection, so some requests waited for hundreds of milliseconds
//! (docs/benchmarks.md).
//!
//! Handlers that change something call [`respond`], which also keeps a keyed request's answer in the hop's
//! transaction (docs/idempotency.md).

mod lane;
mod respond;
mod share;

pub use lane::{StoreLane, LANE_QUEUE, SHARE_QUEUE, TURN_WAIT};
pub use respond::respond;
pub use share::Share;

use actix_web::web;
use canvass_domain::clock::Clock;
use canvass_domain::ports::{joined_transaction, transaction, StoreExt, UnitOfWork};
use canvass_domain::use_cases::audit;
use canvass_domain::DomainError;

use crate::audit::AuditSlot;
use crate::problem::Problem;
use crate::state::AppState;

/// Runs `work` with a unit of work and the clock on the store's lane, in the current request's [`Share`], inside the
/// current tracing span. For a request the audit log records whose event is not written yet, `work` runs in a
/// transaction that writes the event after it succeeds (`crate::audit`).
///
/// The use case's own transactions join that one (no savepoints: `joined_transaction`), since a use case that fails
/// fails the request; a keyed request's hop, which goes on to keep a refusal, runs [`run_nesting`] with savepoints.
pub async fn run<T, F>(state: &AppState, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
{
    run_nesting(state, Nested::Joined, work).await
}

/// How the use case's own transactions sit in the transaction of a hop that writes an audit event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nested {
    /// They join it: a failure of any fails the hop.
    Joined,
    /// They are savepoints: the hop may go on after one failed.
    Savepoints,
}

/// [`run`], with the use case's transactions nested as `nested` says when an audit event is written.
async fn run_nesting<T, F>(state: &AppState, nested: Nested, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
{
    let store = state.store.clone();
    let clock = state.clock.clone();
    let audit = AuditSlot::current().filter(|slot| slot.pending());
    state
        .store_lane
        .run(Share::current(), move || {
            store
                .with_uow(|uow| match audit {
                    None => work(uow, clock.as_ref()),
                    Some(slot) => audited(uow, clock.as_ref(), &slot, nested, work),
                })
                .map_err(Problem::from)
        })
        .await
}

/// Runs `work` in a transaction that also writes the audit event of its success, and marks the event written once
/// the transaction committed.
fn audited<T>(
    uow: &mut dyn UnitOfWork,
    clock: &dyn Clock,
    slot: &AuditSlot,
    nested: Nested,
    work: impl FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError>,
) -> Result<T, DomainError> {
    let mut recorded = false;
    let value = match nested {
        Nested::Joined => joined_transaction(uow, |tx| with_event(tx, clock, slot, work, &mut recorded))?,
        Nested::Savepoints => transaction(uow, |tx| with_event(tx, clock, slot, work, &mut recorded))?,
    };
    if recorded {
        slot.mark_written();
    }
    Ok(value)
}

/// Runs `work`, then writes the audit event of its success, if it succeeded (`recorded` then says so).
fn with_event<T>(
    tx: &mut dyn UnitOfWork,
    clock: &dyn Clock,
    slot: &AuditSlot,
    work: impl FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError>,
    recorded: &mut bool,
) -> Result<T, DomainError> {
    let value = work(tx, clock)?;
    if let Some(event) = slot.success(clock.now()) {
        audit::record(tx, slot.account(), &event)?;
        *recorded = true;
    }
    Ok(value)
}

/// Runs `work` on the blocking pool inside the current tracing span, outside the store's lane: files, and the
/// readiness check, which must not queue behind requests.
pub async fn in_span<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    let span = tracing::Span::current();
    web::block(move || span.in_scope(work)).await.map_err(|error| Problem::internal(&error))?
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use canvass_domain::clock::SystemClock;
    use canvass_domain::ports::{Readiness, Store, UnitOfWork};

    use super::*;

    /// A store that lends nothing: it counts how many callers are inside it at once, and keeps each a while.
    #[derive(Default)]
    struct Counting {
        inside: AtomicUsize,
        most: AtomicUsize,
    }

    impl Store for Counting {
        fn lend(&self, _: &mut dyn FnMut(&mut dyn UnitOfWork) -> Result<(), DomainError>) -> Result<(), DomainError> {
            let now = self.inside.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            self.inside.fetch_sub(1, Ordering::SeqCst);
            Ok(())
        }

        fn readiness(&self) -> Result<Readiness, DomainError> {
            Ok(Readiness { pending_migrations: 0 })
        }
    }

    #[actix_web::test]
    async fn no_more_requests_reach_the_store_at_once_than_it_has_connections() {
        let store = Arc::new(Counting::default());
        let state =
            Arc::new(AppState::new(store.clone(), Arc::new(SystemClock), "http://localhost").with_store_connections(2));
        let calls: Vec<_> = (0..8)
            .map(|_| {
                let state = state.clone();
                actix_web::rt::spawn(async move { run(&state, |_, _| Ok(())).await.is_err() })
            })
            .collect();
        for call in calls {
            assert!(call.await.unwrap_or(false), "the counting store lends no unit of work");
        }
        assert_eq!(store.most.load(Ordering::SeqCst), 2);
    }
}
