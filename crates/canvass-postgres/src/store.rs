//! The domain's [`Store`] on PostgreSQL: units of work over a pool (requests and jobs: each step of a use case
//! borrows a connection and gives it back) or over one connection (one-shot commands and tests), and readiness
//! from the embedded migrations the database still lacks.

use std::sync::Mutex;
use std::time::Duration;

use canvass_domain::ports::{Connections, Readiness, Store, UnitOfWork};
use canvass_domain::{DomainError, RepoError};
use diesel::{Connection, ConnectionError, PgConnection};

use crate::{PgPool, PgUnitOfWork, PoolError, TreeCache};

/// Lends a [`PgUnitOfWork`] for one step at a time.
pub struct PgStore {
    source: Source,
    /// The question trees the respondent pages read, shared by every unit of work.
    trees: TreeCache,
}

enum Source {
    Pool(PgPool),
    One(Mutex<PgConnection>),
}

impl PgStore {
    /// A store over `pool`.
    pub fn new(pool: PgPool) -> Self {
        Self { source: Source::Pool(pool), trees: TreeCache::default() }
    }

    /// A store over a pool of `size` connections to `database_url` whose statements are cancelled after
    /// `statement_timeout` (`pool::connect_pool_with_timeout`): the server's
    /// requests and each worker.
    pub fn pooled(database_url: &str, size: u32, statement_timeout: Duration) -> Result<Self, PoolError> {
        crate::pool::connect_pool_with_timeout(database_url, size, statement_timeout).map(Self::new)
    }

    /// A store over one connection to `database_url`, opened now (so a wrong URL fails at once) and without a
    /// statement timeout: for one-shot commands and tests. Units of work take turns on it.
    pub fn connect_one(database_url: &str) -> Result<Self, ConnectionError> {
        let mut conn = PgConnection::establish(database_url)?;
        crate::capture::instrument(&mut conn);
        Ok(Self { source: Source::One(Mutex::new(conn)), trees: TreeCache::default() })
    }
}

fn unavailable(cause: impl std::fmt::Display) -> DomainError {
    RepoError::Unavailable(format!("no database connection: {cause}").into()).into()
}

impl Store for PgStore {
    fn lend(&self, work: &mut dyn FnMut(&mut dyn UnitOfWork) -> Result<(), DomainError>) -> Result<(), DomainError> {
        match &self.source {
            // A connection whose server went away is dropped by the pool rather than lent to the next request.
            Source::Pool(pool) => pool.get().map_err(unavailable)?.run_sharing(&self.trees, |uow| work(uow)),
            Source::One(conn) => {
                let mut conn = conn.lock().map_err(unavailable)?;
                work(&mut PgUnitOfWork::sharing(&mut conn, &self.trees))
            }
        }
    }

    fn readiness(&self) -> Result<Readiness, DomainError> {
        let pending = match &self.source {
            Source::Pool(pool) => {
                let mut conn = pool.get().map_err(unavailable)?;
                crate::pending_migrations(&mut conn).inspect_err(|_| conn.discard())
            }
            Source::One(conn) => crate::pending_migrations(&mut *conn.lock().map_err(unavailable)?),
        };
        let pending_migrations = pending.map_err(RepoError::Unavailable)?;
        Ok(Readiness { pending_migrations })
    }

    fn connections(&self) -> Option<Connections> {
        match &self.source {
            Source::Pool(pool) => {
                let state = pool.state();
                Some(Connections { idle: state.idle_connections, in_use: state.connections - state.idle_connections })
            }
            Source::One(_) => None,
        }
    }
}
