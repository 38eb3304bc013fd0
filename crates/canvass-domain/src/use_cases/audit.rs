//! The audit log: recording an event, reading the account's newest first a page at a time, and purging what is
//! older than its retention.

use time::{Duration, OffsetDateTime};

use crate::audit::{AuditCursor, AuditFilter, AuditPage, NewAuditEvent, MAX_PAGE_SIZE};
use crate::error::{DomainError, FieldError};
use crate::ids::AccountId;
use crate::ports::AuditRepository;

/// Records an event of the account (in the caller's transaction, when it has one).
pub fn record(
    uow: &mut (impl AuditRepository + ?Sized),
    account: AccountId,
    event: &NewAuditEvent,
) -> Result<(), DomainError> {
    Ok(uow.record_audit(account, event)?)
}

/// A page of the account's events, newest first: up to `size` (1 to [`MAX_PAGE_SIZE`]) from `cursor` on.
pub fn page(
    uow: &mut (impl AuditRepository + ?Sized),
    account: AccountId,
    filter: AuditFilter,
    cursor: Option<AuditCursor>,
    size: i64,
) -> Result<AuditPage, DomainError> {
    if !(1..=MAX_PAGE_SIZE).contains(&size) {
        return Err(DomainError::Invalid(vec![FieldError::new(
            "pageSize",
            format!("must be between 1 and {MAX_PAGE_SIZE}"),
        )]));
    }
    let filter = filter.checked().map_err(DomainError::Invalid)?;
    let mut events = uow.audit_events(account, &filter, cursor, size + 1)?;
    let more = events.len() as i64 > size;
    events.truncate(size as usize);
    let next = more.then(|| events.last().map(|event| AuditCursor(event.id))).flatten();
    Ok(AuditPage { events, next })
}

/// Removes every account's events older than `retention_days` at `now`; returns how many.
pub fn purge(
    uow: &mut (impl AuditRepository + ?Sized),
    now: OffsetDateTime,
    retention_days: u32,
) -> Result<u64, DomainError> {
    Ok(uow.purge_audit(now - Duration::days(i64::from(retention_days)))?)
}
