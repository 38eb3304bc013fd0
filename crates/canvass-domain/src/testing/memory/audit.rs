//! The audit log.

use time::OffsetDateTime;

use super::Memory;
use crate::audit::{AuditCursor, AuditEvent, AuditFilter, NewAuditEvent};
use crate::ids::{AccountId, AuditEventId};
use crate::ports::{AuditRepository, RepoResult};

impl AuditRepository for Memory {
    fn record_audit(&mut self, account: AccountId, event: &NewAuditEvent) -> RepoResult<()> {
        let id = AuditEventId::new(self.state.audit.iter().map(|(_, e)| e.id.get()).max().unwrap_or(0) + 1);
        self.state.audit.push((account, AuditEvent { id, event: event.clone() }));
        Ok(())
    }

    fn audit_events(
        &mut self,
        account: AccountId,
        filter: &AuditFilter,
        cursor: Option<AuditCursor>,
        limit: i64,
    ) -> RepoResult<Vec<AuditEvent>> {
        let passes = |event: &AuditEvent| {
            let e = &event.event;
            filter.from.is_none_or(|from| e.at >= from)
                && filter.to.is_none_or(|to| e.at < to)
                && filter.actor.is_none_or(|user| e.actor.user_id == user)
                && filter.action.as_ref().is_none_or(|action| e.action == *action)
                && cursor.is_none_or(|AuditCursor(before)| event.id < before)
        };
        let mine = self.state.audit.iter().rev().filter(|(owner, event)| *owner == account && passes(event));
        Ok(mine.take(usize::try_from(limit).unwrap_or(0)).map(|(_, event)| event.clone()).collect())
    }

    fn purge_audit(&mut self, before: OffsetDateTime) -> RepoResult<u64> {
        let held = self.state.audit.len();
        self.state.audit.retain(|(_, event)| event.event.at >= before);
        Ok((held - self.state.audit.len()) as u64)
    }
}
