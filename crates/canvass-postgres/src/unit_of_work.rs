//! The unit of work: one connection, and the transaction boundary around a use case's writes.

use canvass_domain::ports::{RepoResult, Transactional};
use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::PgConnection;

use crate::error::map_diesel_error;

/// The domain's repositories on one PostgreSQL connection.
pub struct PgUnitOfWork<'c> {
    pub(crate) conn: &'c mut PgConnection,
}

impl<'c> PgUnitOfWork<'c> {
    /// Wraps a connection (pooled or not) for the length of one use case.
    pub fn new(conn: &'c mut PgConnection) -> Self {
        Self { conn }
    }
}

/// diesel's transaction manager: `BEGIN`, or a savepoint inside an open transaction.
impl Transactional for PgUnitOfWork<'_> {
    fn begin(&mut self) -> RepoResult<()> {
        AnsiTransactionManager::begin_transaction(self.conn).map_err(map_diesel_error)
    }

    fn commit(&mut self) -> RepoResult<()> {
        AnsiTransactionManager::commit_transaction(self.conn).map_err(map_diesel_error)
    }

    fn rollback(&mut self) -> RepoResult<()> {
        AnsiTransactionManager::rollback_transaction(self.conn).map_err(map_diesel_error)
    }
}
