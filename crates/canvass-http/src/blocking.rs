//! The one blocking hop of a request: borrow a unit of work from the store on the blocking thread pool, run a
//! whole use case on it, give it back. No connection is ever held across an `.await`.

use actix_web::web;
use canvass_domain::clock::Clock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::DomainError;

use crate::problem::Problem;
use crate::state::AppState;

/// Runs `work` with a unit of work and the clock on the blocking pool, inside the current tracing span.
pub async fn run<T, F>(state: &AppState, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
{
    let store = state.store.clone();
    let clock = state.clock.clone();
    in_span(move || store.with_uow(|uow| work(uow, clock.as_ref())).map_err(Problem::from)).await
}

/// Runs `work` on the blocking pool inside the current tracing span.
pub async fn in_span<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    let span = tracing::Span::current();
    web::block(move || span.in_scope(work)).await.map_err(|error| Problem::internal(&error))?
}
