//! The unit of work: one connection, and the transaction boundary around a use case's writes.

use canvass_domain::ports::{Nesting, RepoResult, Step, Transactional};
use canvass_domain::RepoError;
use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::PgConnection;

use crate::error::map_diesel_error;
use crate::TreeCache;

/// The domain's repositories on one PostgreSQL connection.
pub struct PgUnitOfWork<'c> {
    pub(crate) conn: &'c mut PgConnection,
    /// The store's kept trees, when it keeps them.
    pub(crate) trees: Option<&'c TreeCache>,
    /// Whether this unit of work has begun a change of a tree: what it reads of trees then is not kept.
    pub(crate) changes_trees: bool,
    /// The nesting of a joined transaction (`Transactional::begin_joined`), when one is open.
    nesting: Nesting,
}

impl<'c> PgUnitOfWork<'c> {
    /// Wraps a connection (pooled or not) for the length of one use case.
    pub fn new(conn: &'c mut PgConnection) -> Self {
        Self { conn, trees: None, changes_trees: false, nesting: Nesting::default() }
    }

    /// Wraps a connection for one use case, sharing the store's kept trees.
    pub(crate) fn sharing(conn: &'c mut PgConnection, trees: &'c TreeCache) -> Self {
        Self { conn, trees: Some(trees), changes_trees: false, nesting: Nesting::default() }
    }
}

/// diesel's transaction manager: `BEGIN`, or a savepoint inside an open transaction; inside a joined one, nothing
/// for a nested transaction ([`Nesting`]).
impl Transactional for PgUnitOfWork<'_> {
    fn begin(&mut self) -> RepoResult<()> {
        match self.nesting.begin() {
            Step::Joined => Ok(()),
            Step::Ordinary | Step::Undo => {
                AnsiTransactionManager::begin_transaction(self.conn).map_err(map_diesel_error)
            }
        }
    }

    fn commit(&mut self) -> RepoResult<()> {
        match self.nesting.commit() {
            Step::Joined => Ok(()),
            Step::Ordinary => AnsiTransactionManager::commit_transaction(self.conn).map_err(map_diesel_error),
            Step::Undo => {
                AnsiTransactionManager::rollback_transaction(self.conn).map_err(map_diesel_error)?;
                Err(RepoError::Other("a transaction nested in a joined one rolled back: nothing was written".into()))
            }
        }
    }

    fn rollback(&mut self) -> RepoResult<()> {
        match self.nesting.rollback() {
            Step::Joined => Ok(()),
            Step::Ordinary | Step::Undo => {
                AnsiTransactionManager::rollback_transaction(self.conn).map_err(map_diesel_error)
            }
        }
    }

    fn begin_joined(&mut self) -> RepoResult<()> {
        if self.nesting.begin() == Step::Joined {
            return Ok(());
        }
        AnsiTransactionManager::begin_transaction(self.conn).map_err(map_diesel_error)?;
        self.nesting.open_joined();
        Ok(())
    }
}
