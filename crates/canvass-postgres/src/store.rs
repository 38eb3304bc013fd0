//! The pool as a source of units of work: each step of a use case borrows a connection and gives it back.

use canvass_domain::ports::UnitOfWorkSource;
use canvass_domain::{DomainError, RepoError};

use crate::{PgPool, PgUnitOfWork};

/// Lends a [`PgUnitOfWork`] over a pooled connection for one step at a time.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// A store over `pool`.
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

impl UnitOfWorkSource for PgStore {
    type Uow<'c> = PgUnitOfWork<'c>;

    fn with_uow<T>(
        &self,
        work: impl FnOnce(&mut PgUnitOfWork<'_>) -> Result<T, DomainError>,
    ) -> Result<T, DomainError> {
        let mut conn = self.pool.get().map_err(|e| RepoError::Unavailable(e.to_string()))?;
        conn.run(work)
    }
}
