//! The port of the audit log.

use time::OffsetDateTime;

use crate::audit::{AuditCursor, AuditEvent, AuditFilter, NewAuditEvent};
use crate::ids::AccountId;
use crate::ports::RepoResult;

/// The audit log of each account.
pub trait AuditRepository {
    /// Records an event of the account.
    fn record_audit(&mut self, account: AccountId, event: &NewAuditEvent) -> RepoResult<()>;
    /// Up to `limit` events of the account that pass `filter`, newest first, from `cursor` on.
    fn audit_events(
        &mut self,
        account: AccountId,
        filter: &AuditFilter,
        cursor: Option<AuditCursor>,
        limit: i64,
    ) -> RepoResult<Vec<AuditEvent>>;
    /// Removes every account's events from before `before`; returns how many (the retention timer's).
    fn purge_audit(&mut self, before: OffsetDateTime) -> RepoResult<u64>;
}
