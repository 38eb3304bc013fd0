//! The r2d2 connection pool: every connection gets the statement timeout when it is opened (the pool's first also
//! learns how its server words a statement timeout: `error::learn_cancellation`), a connection that lost its
//! server is dropped instead of going back to the pool, and once one has, the others are pinged before they are
//! lent again.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
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
    /// How many connections of this pool have lost their server so far.
    losses: Arc<AtomicU64>,
}

/// A pooled PostgreSQL connection that remembers whether its server went away.
pub struct PoolConnection {
    conn: PgConnection,
    lost: bool,
    /// The pool's count of losses when this connection was opened or last pinged: a loss since (the server
    /// restarted, an administrator ended the backends) says this one may be gone too.
    losses_seen: u64,
    losses: Arc<AtomicU64>,
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
        self.kept(result)
    }

    /// [`Self::run`], the unit of work sharing `trees`.
    pub fn run_sharing<T>(
        &mut self,
        trees: &crate::TreeCache,
        work: impl FnOnce(&mut PgUnitOfWork<'_>) -> Result<T, DomainError>,
    ) -> Result<T, DomainError> {
        let result = work(&mut PgUnitOfWork::sharing(&mut self.conn, trees));
        self.kept(result)
    }

    /// The result of work on this connection, the connection marked lost when the database could not be reached.
    fn kept<T>(&mut self, result: Result<T, DomainError>) -> Result<T, DomainError> {
        if matches!(result, Err(DomainError::Repo(RepoError::Unavailable(_)))) {
            self.discard();
        }
        result
    }

    /// Marks the connection lost: the pool drops it when it comes back.
    pub fn discard(&mut self) {
        if !self.lost {
            self.lost = true;
            self.losses.fetch_add(1, Ordering::Relaxed);
        }
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
        let losses_seen = self.losses.load(Ordering::Relaxed);
        Ok(PoolConnection { conn, lost: false, losses_seen, losses: Arc::clone(&self.losses) })
    }

    /// Free while no connection of the pool has been lost since this one was last seen working; after a loss, one
    /// round trip (`SELECT 1`), so the connections the same outage took are dropped here and not lent to a request.
    fn is_valid(&self, conn: &mut PoolConnection) -> Result<(), Self::Error> {
        let losses = self.losses.load(Ordering::Relaxed);
        if conn.losses_seen == losses {
            return Ok(());
        }
        self.inner.is_valid(&mut conn.conn)?;
        conn.losses_seen = losses;
        Ok(())
    }

    fn has_broken(&self, conn: &mut PoolConnection) -> bool {
        conn.lost || self.inner.has_broken(&mut conn.conn)
    }
}

/// Builds a pool of `size` connections to `database_url` whose statements are cancelled after
/// `statement_timeout`. Connections are pinged on checkout only after one of the pool's was lost (a broken one
/// fails its first statement, is marked lost and dropped, and makes the others prove themselves once), which saves
/// a round trip per request. The server's store is built on it, and so is the
/// bare handler that `benches/read_paths` measures the server against.
pub fn connect_pool_with_timeout(
    database_url: &str,
    size: u32,
    statement_timeout: Duration,
) -> Result<PgPool, PoolError> {
    Pool::builder()
        .max_size(size)
        .min_idle(Some(1))
        .test_on_check_out(true)
        .connection_timeout(Duration::from_secs(5))
        .build(PgManager {
            inner: ConnectionManager::new(database_url),
            statement_timeout,
            learned: AtomicBool::new(false),
            losses: Arc::new(AtomicU64::new(0)),
        })
}
