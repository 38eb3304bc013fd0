//! [`MemoryStore`]: a [`Store`] that lends one [`Memory`] behind a mutex, and that a test can make unavailable or
//! not ready.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::{At, Memory, NOW};
use crate::account::CreatedAccount;
use crate::error::{DomainError, RepoError};
use crate::ports::{Readiness, Store, StoreExt, UnitOfWork};

/// An in-memory [`Store`]: every unit of work it lends is the same [`Memory`], one at a time. Ready with no
/// pending migrations until told otherwise.
#[derive(Debug)]
pub struct MemoryStore {
    memory: Mutex<Memory>,
    available: AtomicBool,
    readiness: Mutex<Readiness>,
}

impl Default for MemoryStore {
    fn default() -> Self {
        Self::with_memory(Memory::default())
    }
}

impl MemoryStore {
    /// An empty store, available and ready.
    pub fn new() -> Self {
        Self::default()
    }

    /// A store that holds `memory` (seeded by a test beforehand).
    pub fn with_memory(memory: Memory) -> Self {
        Self {
            memory: Mutex::new(memory),
            available: AtomicBool::new(true),
            readiness: Mutex::new(Readiness { pending_migrations: 0 }),
        }
    }

    /// A store that cannot be reached: [`Store::lend`] and [`Store::readiness`] answer
    /// [`RepoError::Unavailable`] until [`Self::set_available`] says otherwise.
    pub fn unavailable() -> Self {
        let store = Self::new();
        store.set_available(false);
        store
    }

    /// Makes the store reachable again, or not.
    pub fn set_available(&self, available: bool) {
        self.available.store(available, Ordering::SeqCst);
    }

    /// What [`Store::readiness`] answers while the store is available.
    pub fn set_readiness(&self, readiness: Readiness) {
        *self.readiness.lock().unwrap_or_else(PoisonError::into_inner) = readiness;
    }

    /// Creates an account with its owner and first key, at [`NOW`], through the use case; the key's secret
    /// authenticates as that owner.
    pub fn seed_account(&self, name: &str, email: &str) -> Result<CreatedAccount, DomainError> {
        self.with_uow(|uow| crate::use_cases::accounts::create_account(uow, &At(NOW), name, email))
    }

    /// Runs `look` on what the store holds, whether or not it is available: for tests to seed it and to check
    /// what a request left behind.
    pub fn inspect<T>(&self, look: impl FnOnce(&mut Memory) -> T) -> T {
        look(&mut self.memory())
    }

    fn memory(&self) -> MutexGuard<'_, Memory> {
        // A test that panicked while holding the store leaves what it wrote; the next one may read it.
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn check_available(&self) -> Result<(), DomainError> {
        if self.available.load(Ordering::SeqCst) {
            Ok(())
        } else {
            Err(RepoError::Unavailable("the in-memory store was made unavailable".into()).into())
        }
    }
}

impl Store for MemoryStore {
    fn lend(&self, work: &mut dyn FnMut(&mut dyn UnitOfWork) -> Result<(), DomainError>) -> Result<(), DomainError> {
        self.check_available()?;
        work(&mut *self.memory())
    }

    fn readiness(&self) -> Result<Readiness, DomainError> {
        self.check_available()?;
        Ok(*self.readiness.lock().unwrap_or_else(PoisonError::into_inner))
    }
}
