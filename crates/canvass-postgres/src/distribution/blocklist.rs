//! The blocklist and permanent email failures on PostgreSQL.

use canvass_domain::chunks::ChunkRequest;
use canvass_domain::distribution::{
    reply_code, BlocklistEntry, BlocklistKey, BlocklistType, BounceFilter, EventKind, NewPermanentFailure,
    PermanentFailure, RespondentStatus,
};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId};
use canvass_domain::paging::{Page, PageRequest};
use canvass_domain::ports::{BlocklistRepository, RepoResult};
use diesel::pg::Pg;
use diesel::prelude::*;
use time::OffsetDateTime;

use super::counts;
use super::timeline::Events;
use crate::error::OrRepoError;
use crate::named::Named;
use crate::schema::{blocklist, permanent_failures, respondents};
use crate::PgUnitOfWork;

pub(crate) type EntryRow = (String, Named<BlocklistType>, OffsetDateTime);

pub(crate) fn entry((contact_details, kind, created_at): EntryRow) -> BlocklistEntry {
    BlocklistEntry { contact_details, kind: kind.0, created_at }
}

pub(crate) const ENTRY: (blocklist::contact_details, blocklist::entry_type, blocklist::created_at) =
    (blocklist::contact_details, blocklist::entry_type, blocklist::created_at);

#[derive(Queryable, Selectable)]
#[diesel(table_name = permanent_failures)]
pub(crate) struct FailureRow {
    email_address: String,
    sending_domain: String,
    failed_at: OffsetDateTime,
    reason: String,
    sendout_id: Option<i64>,
    respondent_id: Option<i64>,
}

impl From<FailureRow> for PermanentFailure {
    fn from(r: FailureRow) -> Self {
        PermanentFailure {
            email_address: r.email_address,
            sending_domain: r.sending_domain,
            failed_at: r.failed_at,
            reason: r.reason,
            sendout_id: r.sendout_id.map(SendoutId::new),
            respondent_id: r.respondent_id.map(RespondentId::new),
        }
    }
}

fn failures_filtered(account: AccountId, filter: &BounceFilter) -> permanent_failures::BoxedQuery<'static, Pg> {
    let mut query = permanent_failures::table.filter(permanent_failures::account_id.eq(account.get())).into_boxed();
    if let Some(domain) = &filter.sending_domain {
        query = query.filter(permanent_failures::sending_domain.eq(domain.trim().to_lowercase()));
    }
    if let Some(from) = filter.from {
        query = query.filter(permanent_failures::failed_at.ge(from));
    }
    query
}

impl BlocklistRepository for PgUnitOfWork<'_> {
    fn blocked_keys(&mut self, account: AccountId, keys: &[String]) -> RepoResult<Vec<String>> {
        blocklist::table
            .filter(blocklist::account_id.eq(account.get()).and(blocklist::contact_key.eq_any(keys)))
            .select(blocklist::contact_key)
            .load(self.conn)
            .or_repo()
    }

    fn blocklist_chunk(
        &mut self,
        account: AccountId,
        request: &ChunkRequest<BlocklistKey>,
    ) -> RepoResult<Vec<(BlocklistKey, BlocklistEntry)>> {
        let mut query = blocklist::table.filter(blocklist::account_id.eq(account.get())).into_boxed();
        if let Some(after) = request.after_key() {
            // (created_at, contact_key) > (after): the first condition alone bounds the index range scan.
            query = query.filter(blocklist::created_at.ge(after.created_at)).filter(
                blocklist::created_at.gt(after.created_at).or(blocklist::contact_key.gt(after.contact_key.clone())),
            );
        }
        let rows: Vec<(String, EntryRow)> = query
            .order((blocklist::created_at, blocklist::contact_key))
            .limit(request.limit())
            .select((blocklist::contact_key, ENTRY))
            .load(self.conn)
            .or_repo()?;
        Ok(rows
            .into_iter()
            .map(|(contact_key, row)| {
                let entry = entry(row);
                (BlocklistKey { created_at: entry.created_at, contact_key }, entry)
            })
            .collect())
    }

    fn insert_blocklist(
        &mut self,
        account: AccountId,
        contact_details: &str,
        contact_key: &str,
        kind: BlocklistType,
        now: OffsetDateTime,
    ) -> RepoResult<Option<BlocklistEntry>> {
        let row: Option<EntryRow> = diesel::insert_into(blocklist::table)
            .values((
                blocklist::account_id.eq(account.get()),
                blocklist::contact_key.eq(contact_key),
                blocklist::contact_details.eq(contact_details),
                blocklist::entry_type.eq(kind.as_str()),
                blocklist::created_at.eq(now),
            ))
            .on_conflict_do_nothing()
            .returning(ENTRY)
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        let Some(row) = row else { return Ok(None) };
        // The contact's Pending respondents leave their sendouts' pending counts; then the queued, unsent ones follow.
        let blocklisted = RespondentStatus::Blocklisted.as_str();
        let moved = counts::move_pending_contacts(self.conn, account, &[contact_key], blocklisted).or_repo()?;
        let not_yet_sent = [RespondentStatus::Scheduled.as_str(), RespondentStatus::Released.as_str()];
        let followed: Vec<i64> = diesel::update(respondents::table)
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::contact_key.eq(contact_key))
                    .and(respondents::status.eq_any(not_yet_sent)),
            )
            .set(respondents::status.eq(blocklisted))
            .returning(respondents::id)
            .get_results(self.conn)
            .or_repo()?;
        let mut events = Events::default();
        let detail = serde_json::json!({"type": kind.as_str()});
        for id in moved.into_iter().map(|(id, _)| id).chain(followed) {
            events.push(id, now, EventKind::Blocklisted, Some(detail.clone()));
        }
        events.record(self.conn, account.get()).or_repo()?;
        Ok(Some(entry(row)))
    }

    fn delete_blocklist(&mut self, account: AccountId, contact_key: &str) -> RepoResult<bool> {
        let deleted = diesel::delete(blocklist::table)
            .filter(blocklist::account_id.eq(account.get()).and(blocklist::contact_key.eq(contact_key)))
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted > 0)
    }

    fn record_failures(&mut self, account: AccountId, failures: &[NewPermanentFailure]) -> RepoResult<u64> {
        let values: Vec<_> = failures
            .iter()
            .map(|f| {
                (
                    permanent_failures::account_id.eq(account.get()),
                    permanent_failures::email_address.eq(f.email_address()),
                    permanent_failures::email_key.eq(f.email_key()),
                    permanent_failures::sending_domain.eq(f.sending_domain()),
                    permanent_failures::failed_at.eq(f.failed_at()),
                    permanent_failures::reason.eq(f.reason()),
                )
            })
            .collect();
        let recorded = diesel::insert_into(permanent_failures::table)
            .values(values)
            .on_conflict_do_nothing()
            .execute(self.conn)
            .or_repo()?;
        let keys: Vec<&str> = failures.iter().map(NewPermanentFailure::email_key).collect();
        let bounced = RespondentStatus::Bounced.as_str();
        let moved = counts::move_pending_contacts(self.conn, account, &keys, bounced).or_repo()?;
        // The Pending ones are Bounced now; the others, unless blocklisted (or bounced already), follow.
        let unchanged = [RespondentStatus::Blocklisted.as_str(), RespondentStatus::Pending.as_str(), bounced];
        let followed: Vec<(i64, String)> = diesel::update(respondents::table)
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::contact_key.eq_any(keys))
                    .and(respondents::status.ne_all(unchanged)),
            )
            .set(respondents::status.eq(bounced))
            .returning((respondents::id, respondents::contact_key))
            .get_results(self.conn)
            .or_repo()?;
        // Each bounced respondent's event: when its address failed, and why (the first failure of the address).
        let mut events = Events::default();
        for (id, key) in moved.into_iter().chain(followed) {
            if let Some(failure) = failures.iter().find(|f| f.email_key() == key) {
                let detail = serde_json::json!({"code": reply_code(failure.reason()), "reason": failure.reason()});
                events.push(id, failure.failed_at(), EventKind::Bounced, Some(detail));
            }
        }
        events.record(self.conn, account.get()).or_repo()?;
        Ok(recorded as u64)
    }

    fn page_failures(
        &mut self,
        account: AccountId,
        filter: &BounceFilter,
        page: PageRequest,
    ) -> RepoResult<Page<PermanentFailure>> {
        let total_count: i64 = failures_filtered(account, filter).count().get_result(self.conn).or_repo()?;
        let rows: Vec<FailureRow> = if page.offset() >= total_count {
            Vec::new()
        } else {
            failures_filtered(account, filter)
                .order((permanent_failures::failed_at, permanent_failures::id))
                .offset(page.offset())
                .limit(page.size())
                .select(FailureRow::as_select())
                .load(self.conn)
                .or_repo()?
        };
        let items = rows.into_iter().map(PermanentFailure::from).collect();
        Ok(Page { request: page, items, total_count })
    }
}
