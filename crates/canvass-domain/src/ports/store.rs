//! The store as a port: a [`Store`] lends a [`UnitOfWork`] (every repository on one connection) for one step at a
//! time and says whether it is ready; [`transaction`] draws the transaction boundary around a use case's writes.
//!
//! Both traits are object-safe, so a web layer can hold an `Arc<dyn Store>` and know nothing of the adapter.

use crate::error::{DomainError, RepoError};

use super::{RepoResult, Repositories};

/// Begins, commits and rolls back a transaction. Use cases do not call these: they call [`transaction`].
///
/// Nested calls are allowed: an adapter turns an inner `begin` into a savepoint. A `commit` or `rollback` that
/// fails because the store went away MUST answer [`RepoError::Unavailable`].
pub trait Transactional {
    /// Opens a transaction (or a savepoint inside one).
    fn begin(&mut self) -> RepoResult<()>;
    /// Makes the innermost open transaction's writes stand.
    fn commit(&mut self) -> RepoResult<()>;
    /// Undoes the innermost open transaction's writes.
    fn rollback(&mut self) -> RepoResult<()>;

    /// Opens a transaction that the transactions nested in it join instead of becoming savepoints (no statement
    /// for their `begin` and `commit`); a nested `rollback` then leaves the whole transaction to roll back, and its
    /// `commit` rolls back and fails ([`super::joined::Nesting`]). An adapter without savepoint costs keeps the
    /// default, an ordinary transaction.
    fn begin_joined(&mut self) -> RepoResult<()> {
        self.begin()
    }
}

/// Runs `work` in one transaction: committed when it returns `Ok`, rolled back when it returns `Err`.
///
/// A failed `COMMIT` is rolled back so the connection stays usable; a failed `ROLLBACK` means the store went away
/// (it rolls the transaction back itself), so nothing was written and the caller may retry:
/// [`RepoError::Unavailable`].
pub fn transaction<U, T>(uow: &mut U, work: impl FnOnce(&mut U) -> Result<T, DomainError>) -> Result<T, DomainError>
where
    U: Transactional + ?Sized,
{
    uow.begin()?;
    finish(uow, work)
}

/// [`transaction`], opened joined ([`Transactional::begin_joined`]): the use cases `work` runs draw their own
/// transactions inside it at no cost. For a caller that runs whole use cases and adds a write to them (the audit
/// event of the request they serve); never for one that goes on after a nested transaction failed (a keyed
/// request's kept refusal), which needs savepoints.
pub fn joined_transaction<U, T>(
    uow: &mut U,
    work: impl FnOnce(&mut U) -> Result<T, DomainError>,
) -> Result<T, DomainError>
where
    U: Transactional + ?Sized,
{
    uow.begin_joined()?;
    finish(uow, work)
}

/// Runs `work` in the transaction just opened, and commits or rolls it back.
fn finish<U, T>(uow: &mut U, work: impl FnOnce(&mut U) -> Result<T, DomainError>) -> Result<T, DomainError>
where
    U: Transactional + ?Sized,
{
    match work(uow) {
        Ok(value) => match uow.commit() {
            Ok(()) => Ok(value),
            Err(error) => {
                let _ = uow.rollback();
                Err(error.into())
            }
        },
        Err(error) => match uow.rollback() {
            Ok(()) => Err(error),
            Err(rollback) => Err(RepoError::rollback_failed(&error, rollback).into()),
        },
    }
}

/// Every repository on one connection, with its transaction boundary: what a use case works with. Reads may use
/// the repositories directly; writes that must stand or fall together run inside [`transaction`].
pub trait UnitOfWork: Repositories + Transactional {}

impl<T: Repositories + Transactional> UnitOfWork for T {}

/// What a store says of itself when asked whether it can serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Readiness {
    /// Migrations the store knows of that its database has not applied yet; it serves only at 0.
    pub pending_migrations: usize,
}

/// Lends units of work. A use case that does slow work between its steps (sending mail) borrows one per step, so
/// it holds no connection while it waits on the network.
///
/// A store that cannot lend one now (no connection within its wait, the database gone) MUST answer
/// [`RepoError::Unavailable`]; so MUST [`Store::readiness`] when it cannot ask.
pub trait Store: Send + Sync {
    /// Runs `work` on a unit of work that goes back to the store when `work` returns. Callers use
    /// [`StoreExt::with_uow`], which carries a result out.
    fn lend(&self, work: &mut dyn FnMut(&mut dyn UnitOfWork) -> Result<(), DomainError>) -> Result<(), DomainError>;

    /// Whether the store is reachable, and how many migrations it still lacks.
    fn readiness(&self) -> Result<Readiness, DomainError>;

    /// The store's connections now, idle and lent, for monitoring; `None` (the default) for a store that keeps no
    /// pool. Cheap: it asks the pool, not the database.
    fn connections(&self) -> Option<Connections> {
        None
    }
}

/// A pool's connections at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connections {
    /// Open and waiting to be lent.
    pub idle: u32,
    /// Lent to a unit of work now.
    pub in_use: u32,
}

/// [`Store::lend`] for a closure that returns a value.
pub trait StoreExt: Store {
    /// Runs `work` on a unit of work lent for its length and returns what it returns.
    fn with_uow<T>(&self, work: impl FnOnce(&mut dyn UnitOfWork) -> Result<T, DomainError>) -> Result<T, DomainError> {
        let mut work = Some(work);
        let mut output = None;
        self.lend(&mut |uow| {
            if let Some(work) = work.take() {
                output = Some(work(uow)?);
            }
            Ok(())
        })?;
        output.ok_or_else(|| RepoError::Other("the store did not lend a unit of work".into()).into())
    }
}

impl<S: Store + ?Sized> StoreExt for S {}
