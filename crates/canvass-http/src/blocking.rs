//! The one blocking hop of a request: take a pooled connection on the blocking thread pool, run a whole use case
//! on it, give the connection back. No connection is ever held across an `.await`.

use actix_web::web;
use canvass_domain::clock::Clock;
use canvass_domain::DomainError;
use canvass_postgres::PgUnitOfWork;

use crate::problem::Problem;
use crate::state::AppState;

/// Runs `work` with a unit of work and the clock on the blocking pool, inside the current tracing span.
pub async fn run<T, F>(state: &AppState, work: F) -> Result<T, Problem>
where
    T: Send + 'static,
    F: FnOnce(&mut PgUnitOfWork<'_>, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
{
    let pool = state.pool.clone();
    let clock = state.clock.clone();
    let span = tracing::Span::current();
    web::block(move || {
        let _entered = span.enter();
        let mut conn = pool.get().map_err(|error| {
            tracing::warn!(error.message = %error, "no database connection");
            Problem::unavailable()
        })?;
        // A connection whose server went away is dropped by the pool rather than lent to the next request.
        conn.run(|uow| work(uow, clock.as_ref())).map_err(Problem::from)
    })
    .await
    .map_err(|error| Problem::internal(&error))?
}
