//! The unit of work: one connection, and the transaction boundary around a use case's writes.

use canvass_domain::ports::UnitOfWork;
use canvass_domain::{DomainError, RepoError};
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

impl UnitOfWork for PgUnitOfWork<'_> {
    fn transaction<T>(&mut self, work: impl FnOnce(&mut Self) -> Result<T, DomainError>) -> Result<T, DomainError> {
        AnsiTransactionManager::begin_transaction(self.conn).map_err(map_diesel_error)?;
        match work(self) {
            Ok(value) => match AnsiTransactionManager::commit_transaction(self.conn) {
                Ok(()) => Ok(value),
                Err(error) => {
                    // A failed COMMIT may leave the transaction open; closing it keeps the connection usable.
                    let _ = AnsiTransactionManager::rollback_transaction(self.conn);
                    Err(map_diesel_error(error).into())
                }
            },
            Err(error) => match AnsiTransactionManager::rollback_transaction(self.conn) {
                Ok(()) => Err(error),
                // A ROLLBACK that fails means the connection is gone (the server rolls the transaction back
                // itself): nothing was written, and the request can be retried.
                Err(rollback) => Err(RepoError::Unavailable(format!("{error}; rollback failed: {rollback}")).into()),
            },
        }
    }
}
