//! The r2d2 connection pool: every connection gets the statement timeout when it is opened (the pool's first also
//! learns how its server words a statement timeout: `error::learn_cancellation`), and a connection that lost its
//! server is dropped instead of going back to the pool.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use canvass_domain::{DomainError, RepoError};
use diesel::r2d2::{ConnectionManager, ManageConnection, Pool};
use diesel::{PgConnection, RunQueryDsl};

use crate::PgUnitOfWork;

/// The pool every request and job takes its connection from.
pub type PgPool = Pool<PgManager>;
/// Why the pool could not be built or hand out a connection.
pub use diesel::r2d2::PoolError;

/// Opens PostgreSQL connections for the pool with `statement_timeout` set, and tells r2d2 which ones are broken.
#[derive(Debug)]
pub struct PgManager {
    inner: ConnectionManager<PgConnection>,
    statement_timeout: Duration,
    /// Whether this pool's server has told how it words a statement timeout.
    learned: AtomicBool,
}

/// A pooled PostgreSQL connection that remembers whether its server went away.
pub struct PoolConnection {
    conn: PgConnection,
    lost: bool,
}

impl Deref for PoolConnection {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        &self.conn
    }
}

impl DerefMut for PoolConnection {
    fn deref_mut(&mut self) -> &mut PgConnection {
        &mut self.conn
    }
}

impl PoolConnection {
    /// Runs `work` on a unit of work over this connection. When it fails because the database could not be
    /// reached (the connection was closed, the server restarted, a statement timed out), the connection is
    /// marked lost, so the pool drops it rather than lending it to the next request.
    pub fn run<T>(
        &mut self,
        work: impl FnOnce(&mut PgUnitOfWork<'_>) -> Result<T, DomainError>,
    ) -> Result<T, DomainError> {
        let result = work(&mut PgUnitOfWork::new(&mut self.conn));
        if matches!(result, Err(DomainError::Repo(RepoError::Unavailable(_)))) {
            self.lost = true;
        }
        result
    }

    /// Marks the connection lost: the pool drops it when it comes back.
    pub fn discard(&mut self) {
        self.lost = true;
    }
}

impl ManageConnection for PgManager {
    type Connection = PoolConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<PoolConnection, Self::Error> {
        let mut conn = self.inner.connect()?;
        crate::capture::instrument(&mut conn);
        if !self.learned.load(Ordering::Relaxed) {
            crate::error::learn_cancellation(&mut conn).map_err(diesel::r2d2::Error::QueryError)?;
            self.learned.store(true, Ordering::Relaxed);
        }
        let millis = self.statement_timeout.as_millis().max(1);
        diesel::sql_query(format!("SET statement_timeout = {millis}"))
            .execute(&mut conn)
            .map_err(diesel::r2d2::Error::QueryError)?;
        Ok(PoolConnection { conn, lost: false })
    }

    fn is_valid(&self, conn: &mut PoolConnection) -> Result<(), Self::Error> {
        self.inner.is_valid(&mut conn.conn)
    }

    fn has_broken(&self, conn: &mut PoolConnection) -> bool {
        conn.lost || self.inner.has_broken(&mut conn.conn)
    }
}

/// Builds a pool of `size` connections to `database_url` whose statements are cancelled after
/// `statement_timeout`. Connections are not pinged on checkout (a broken one fails its first statement, is marked
/// lost and dropped), which saves a round trip per request. The server's store is built on it, and so is the
/// bare handler that `benches/read_paths` measures the server against.
pub fn connect_pool_with_timeout(
    database_url: &str,
    size: u32,
    statement_timeout: Duration,
) -> Result<PgPool, PoolError> {
    Pool::builder()
        .max_size(size)
        .min_idle(Some(1))
        .test_on_check_out(false)
        .connection_timeout(Duration::from_secs(5))
        .build(PgManager {
            inner: ConnectionManager::new(database_url),
            statement_timeout,
            learned: AtomicBool::new(false),
        })
}
