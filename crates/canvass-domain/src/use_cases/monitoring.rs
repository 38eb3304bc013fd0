//! What an operator's monitoring reads at scrape time: the delivery backlog of every account together.

use time::Duration;

use crate::clock::Clock;
use crate::error::DomainError;
use crate::ports::OutboxRepository;

/// The outbox's backlog as monitoring shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    /// Messages of every account waiting to be sent.
    pub pending: u64,
    /// Those among them held by relay or sender trouble.
    pub held: u64,
    /// How long the longest-waiting due message has been due; zero when none is due.
    pub oldest_due_age: Duration,
}

/// Reads the backlog of every account with one statement. It spans accounts, as the delivery worker's claim does:
/// only an operator's endpoint may call it, never one a tenant's key reaches.
pub fn outbox_backlog(uow: &mut (impl OutboxRepository + ?Sized), clock: &dyn Clock) -> Result<Backlog, DomainError> {
    let now = clock.now();
    let found = uow.backlog(now)?;
    let oldest_due_age = found.oldest_due.map_or(Duration::ZERO, |due| (now - due).max(Duration::ZERO));
    Ok(Backlog { pending: found.pending, held: found.held, oldest_due_age })
}
