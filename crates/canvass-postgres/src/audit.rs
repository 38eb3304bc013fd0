//! The audit log on PostgreSQL: one row per event, distributed by account on Citus; read newest first by id (the
//! primary key's index), purged by time.

use canvass_domain::account::KeyPrefix;
use canvass_domain::audit::{Actor, AuditCursor, AuditEvent, AuditFilter, NewAuditEvent, Target};
use canvass_domain::ids::{AccountId, AuditEventId, UserId};
use canvass_domain::ports::{AuditRepository, RepoResult};
use canvass_domain::RepoError;
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::audit_events;
use crate::PgUnitOfWork;

#[derive(Queryable, Selectable)]
#[diesel(table_name = audit_events)]
struct EventRow {
    id: i64,
    at: OffsetDateTime,
    user_id: i64,
    key_prefix: String,
    action: String,
    target_type: String,
    target_id: Option<String>,
    client_address: Option<String>,
    request_id: Option<String>,
    status: i16,
}

impl TryFrom<EventRow> for AuditEvent {
    type Error = RepoError;

    fn try_from(row: EventRow) -> RepoResult<Self> {
        let key = KeyPrefix::parse(&row.key_prefix)
            .ok_or_else(|| RepoError::Other("an audit event's key prefix has not the shape of one".into()))?;
        Ok(Self {
            id: AuditEventId::new(row.id),
            event: NewAuditEvent {
                at: row.at,
                actor: Actor { user_id: UserId::new(row.user_id), key },
                action: row.action,
                target: Target { kind: row.target_type, id: row.target_id },
                client_address: row.client_address,
                request_id: row.request_id,
                status: u16::try_from(row.status).unwrap_or_default(),
            },
        })
    }
}

impl AuditRepository for PgUnitOfWork<'_> {
    fn record_audit(&mut self, account: AccountId, event: &NewAuditEvent) -> RepoResult<()> {
        diesel::insert_into(audit_events::table)
            .values((
                audit_events::account_id.eq(account.get()),
                audit_events::at.eq(event.at),
                audit_events::user_id.eq(event.actor.user_id.get()),
                audit_events::key_prefix.eq(event.actor.key.as_str()),
                audit_events::action.eq(&event.action),
                audit_events::target_type.eq(&event.target.kind),
                audit_events::target_id.eq(&event.target.id),
                audit_events::client_address.eq(&event.client_address),
                audit_events::request_id.eq(&event.request_id),
                audit_events::status.eq(i16::try_from(event.status).unwrap_or(i16::MAX)),
            ))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn audit_events(
        &mut self,
        account: AccountId,
        filter: &AuditFilter,
        cursor: Option<AuditCursor>,
        limit: i64,
    ) -> RepoResult<Vec<AuditEvent>> {
        // One statement whatever the filter: an absent bound is NULL and passes.
        let rows: Vec<EventRow> = audit_events::table
            .filter(audit_events::account_id.eq(account.get()))
            .filter(audit_events::id.lt(cursor.map_or(i64::MAX, |AuditCursor(id)| id.get())))
            .filter(audit_events::at.ge(filter.from.unwrap_or(OffsetDateTime::UNIX_EPOCH)))
            .filter(audit_events::at.lt(filter.to.unwrap_or(time::macros::datetime!(9999-12-31 0:00 UTC))))
            .filter(
                audit_events::user_id.nullable().eq(filter.actor.map(UserId::get)).or(filter
                    .actor
                    .map(UserId::get)
                    .is_none()
                    .into_sql::<diesel::sql_types::Bool>()),
            )
            .filter(
                audit_events::action
                    .nullable()
                    .eq(filter.action.as_deref())
                    .or(filter.action.is_none().into_sql::<diesel::sql_types::Bool>()),
            )
            .order(audit_events::id.desc())
            .limit(limit)
            .select(EventRow::as_select())
            .load(self.conn)
            .or_repo()?;
        rows.into_iter().map(AuditEvent::try_from).collect()
    }

    fn purge_audit(&mut self, before: OffsetDateTime) -> RepoResult<u64> {
        let removed =
            diesel::delete(audit_events::table.filter(audit_events::at.lt(before))).execute(self.conn).or_repo()?;
        Ok(removed as u64)
    }
}
