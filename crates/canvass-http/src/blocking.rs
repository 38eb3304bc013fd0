//! The one blocking hop of a request: borrow a unit of work from the store on the blocking thread pool, run a
//! whole use case on it, give it back. No connection is ever held across an `.await`.
//!
//! Requests pass a gate first that admits as many at once as the store has connections, in arrival order. The
//! others wait as futures, not as blocked threads: without the gate every waiting request held a blocking thread
//! parked on the pool, the threads took the two cores from the HTTP workers, and whichever thread woke first took
//! a returned connection, so some requests waited for hundreds of milliseconds (docs/benchmarks.md).
//!
//! Handlers that change something call [`respond`], which also keeps a keyed request's answer in the hop's
//! transaction (docs/idempotency.md).

mod respond;

pub use respond::respond;

use std::time::Duration;

use actix_web::web;
use canvass_domain::clock::Clock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::{DomainError, RepoError};
use tokio::sync::SemaphorePermit;

use crate::problem::Problem;
use crate::state::AppState;

/// How long a request waits for its turn at the database before it is answered 503 (as long as the pool waits
/// for a connection).
const GATE_WAIT: Duration = Duration::from_secs(5);
const BUSY: &str = "every database connection stayed busy for 5 s";

/// Runs `work` with a unit of work and the clock on the blocking pool, inside the current tracing span.
pub async fn run<T, F>(state: &AppState, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
{
    let store = state.store.clone();
    let clock = state.clock.clone();
    let _turn = turn(state).await?;
    in_span(move || store.with_uow(|uow| work(uow, clock.as_ref())).map_err(Problem::from)).await
}

/// Waits for this request's turn at the store: the permit admits one unit of work until it is dropped. Every
/// borrowing of a unit of work from a request goes through here.
pub async fn turn(state: &AppState) -> Result<SemaphorePermit<'_>, Problem> {
    // A free permit means nobody is queued (a released permit goes to the first waiter): take it without arming
    // the timer, which every request paid for before.
    if let Ok(permit) = state.store_gate.try_acquire() {
        return Ok(permit);
    }
    match actix_web::rt::time::timeout(GATE_WAIT, state.store_gate.acquire()).await {
        Ok(permit) => permit.map_err(|closed| Problem::internal(&closed)),
        Err(_) => Err(Problem::from(DomainError::from(RepoError::Unavailable(BUSY.to_owned())))),
    }
}

/// Runs `work` on the blocking pool inside the current tracing span.
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
