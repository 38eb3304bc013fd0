//! The unit of work: one connection, and the transaction boundary around a use case's writes.

use canvass_domain::ids::SendoutId;
use canvass_domain::ports::{Nesting, RepoResult, Step, Transactional};
use canvass_domain::{AccountId, RepoError};
use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::PgConnection;

use crate::distribution::counts::{DeferredShifts, OutboxTallies};
use crate::error::{map_diesel_error, OrRepoError};
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
    /// Sendout count shifts written when the transaction commits (`distribution/counts.rs`).
    pub(crate) shifts: DeferredShifts,
}

impl<'c> PgUnitOfWork<'c> {
    /// Wraps a connection (pooled or not) for the length of one use case.
    pub fn new(conn: &'c mut PgConnection) -> Self {
        Self { conn, trees: None, changes_trees: false, nesting: Nesting::default(), shifts: DeferredShifts::default() }
    }

    /// Wraps a connection for one use case, sharing the store's kept trees.
    pub(crate) fn sharing(conn: &'c mut PgConnection, trees: &'c TreeCache) -> Self {
        Self {
            conn,
            trees: Some(trees),
            changes_trees: false,
            nesting: Nesting::default(),
            shifts: DeferredShifts::default(),
        }
    }
}

impl PgUnitOfWork<'_> {
    /// How many transactions are open on the connection: 0 outside one, 2 inside a savepoint.
    pub(crate) fn depth(&mut self) -> u32 {
        let status = AnsiTransactionManager::transaction_manager_status_mut(self.conn);
        status.transaction_depth().ok().flatten().map_or(0, std::num::NonZeroU32::get)
    }

    /// Adds `n` new Pending respondents to the sendout's counts: when the transaction commits, or at once outside
    /// one.
    pub(crate) fn add_pending(&mut self, account: AccountId, sendout: SendoutId, n: usize) -> RepoResult<()> {
        if self.depth() == 0 {
            return crate::distribution::counts::add_pending(self.conn, account, sendout, n).or_repo();
        }
        self.shifts.add_pending(account, sendout, n);
        Ok(())
    }

    /// Moves the sendouts' outbox tallies by what a round changed: just after the transaction commits, or at once
    /// outside one.
    pub(crate) fn add_outbox_tallies(&mut self, tallies: OutboxTallies) -> RepoResult<()> {
        if self.depth() == 0 {
            return crate::distribution::counts::write_outbox(self.conn, tallies).or_repo();
        }
        self.shifts.add_outbox(tallies);
        Ok(())
    }

    fn open(&mut self) -> RepoResult<()> {
        let nested = self.depth() > 0;
        AnsiTransactionManager::begin_transaction(self.conn).map_err(map_diesel_error)?;
        if nested {
            self.shifts.savepoint();
        }
        Ok(())
    }

    /// Commits the innermost transaction: the outermost writes its held shifts first, and a round's outbox
    /// tallies just after (`distribution/counts.rs` says why); a savepoint's stay held once it is released (a
    /// failed `RELEASE` leaves them to the rollback that follows).
    fn close(&mut self) -> RepoResult<()> {
        if self.depth() != 1 {
            AnsiTransactionManager::commit_transaction(self.conn).map_err(map_diesel_error)?;
            self.shifts.release();
            return Ok(());
        }
        let after_commit = self.shifts.write(self.conn).map_err(map_diesel_error)?;
        AnsiTransactionManager::commit_transaction(self.conn).map_err(map_diesel_error)?;
        // What was committed stands: a tally that cannot be written now is off until its sendout drains (the
        // worker's clear resets it), and the use case is not failed for it.
        let _ = crate::distribution::counts::write_outbox(self.conn, after_commit);
        Ok(())
    }

    fn undo(&mut self) -> RepoResult<()> {
        if self.depth() <= 1 {
            self.shifts.forget();
        } else {
            self.shifts.rollback_savepoint();
        }
        AnsiTransactionManager::rollback_transaction(self.conn).map_err(map_diesel_error)
    }
}

/// diesel's transaction manager: `BEGIN`, or a savepoint inside an open transaction; inside a joined one, nothing
/// for a nested transaction ([`Nesting`]). The sendout count shifts held for the commit follow each step.
impl Transactional for PgUnitOfWork<'_> {
    fn begin(&mut self) -> RepoResult<()> {
        match self.nesting.begin() {
            Step::Joined => Ok(()),
            Step::Ordinary | Step::Undo => self.open(),
        }
    }

    fn commit(&mut self) -> RepoResult<()> {
        match self.nesting.commit() {
            Step::Joined => Ok(()),
            Step::Ordinary => self.close(),
            Step::Undo => {
                self.undo()?;
                Err(RepoError::Other("a transaction nested in a joined one rolled back: nothing was written".into()))
            }
        }
    }

    fn rollback(&mut self) -> RepoResult<()> {
        match self.nesting.rollback() {
            Step::Joined => Ok(()),
            Step::Ordinary | Step::Undo => self.undo(),
        }
    }

    fn begin_joined(&mut self) -> RepoResult<()> {
        if self.nesting.begin() == Step::Joined {
            return Ok(());
        }
        self.open()?;
        self.nesting.open_joined();
        Ok(())
    }
}
