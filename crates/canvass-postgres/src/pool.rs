//! The r2d2 connection pool.

use std::time::Duration;

use diesel::r2d2::{ConnectionManager, Pool, PooledConnection};
use diesel::PgConnection;

/// The pool every request and job takes its connection from.
pub type PgPool = Pool<ConnectionManager<PgConnection>>;
/// A connection taken from the pool; it goes back when dropped.
pub type PooledConn = PooledConnection<ConnectionManager<PgConnection>>;
/// Why the pool could not be built or hand out a connection.
pub use diesel::r2d2::PoolError;

/// Builds a pool of `size` connections to `database_url`. Connections are not pinged on checkout (a broken one
/// fails its first statement and is dropped by r2d2), which saves a round trip per request.
pub fn connect_pool(database_url: &str, size: u32) -> Result<PgPool, PoolError> {
    Pool::builder()
        .max_size(size)
        .min_idle(Some(1))
        .test_on_check_out(false)
        .connection_timeout(Duration::from_secs(5))
        .build(ConnectionManager::new(database_url))
}
