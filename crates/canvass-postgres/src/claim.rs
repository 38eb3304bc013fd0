//! The outbox claim, one account at a time: list the accounts with claimable messages (the one statement that
//! spans accounts, without locks), share the round's limit among them, claim each account's share with one
//! `UPDATE ... FOR UPDATE SKIP LOCKED` pinned to it, and read the claimed messages' details per account.

use canvass_domain::delivery::ClaimedMessage;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Timestamptz};
use time::OffsetDateTime;

use crate::outbox::{claimed, ClaimedRow};
use crate::prepared::prepared;

/// The accounts with claimable messages (Pending, due, no live lease, of an active EMAIL, SMS or TWOWAY
/// sendout), the one whose oldest message has waited longest first, at most `$2` of them. It spans accounts and
/// takes no lock: it only says where to claim. It reads the entries of the partial due index up to `now`.
const DUE_ACCOUNTS: &str = "SELECT o.account_id FROM outbox o \
     JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
     WHERE o.status = 'Pending' AND o.due_at <= $1 AND (o.lease_until IS NULL OR o.lease_until < $1) \
       AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY') AND s.status = 'Active' \
     GROUP BY o.account_id ORDER BY min(o.due_at), o.account_id LIMIT $2";

/// Claims up to `$4` of one account's claimable messages, oldest due first, skipping those another worker is
/// claiming: leases them until `$2` and counts the attempt.
///
/// The rows are picked in a materialized CTE, run once: a `LIMIT ... SKIP LOCKED` subquery under `IN` may be
/// run again for each row the planner joins it to, and each run skips the rows the last one locked, so the
/// update would take more than `$4` rows.
const CLAIM: &str = "WITH picked AS MATERIALIZED ( \
         SELECT o.id FROM outbox o \
         JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
         WHERE o.account_id = $3 AND o.status = 'Pending' AND o.due_at <= $1 \
           AND (o.lease_until IS NULL OR o.lease_until < $1) \
           AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY') AND s.status = 'Active' \
         ORDER BY o.due_at LIMIT $4 FOR UPDATE OF o SKIP LOCKED) \
     UPDATE outbox SET lease_until = $2, attempts = attempts + 1 \
     WHERE account_id = $3 AND id IN (SELECT id FROM picked) \
     RETURNING id";

/// The details of one account's messages (claimed, or a late bounce's): the respondent, its sendout and reminder.
pub(crate) const DETAILS: &str = "\
    SELECT o.account_id, o.id, o.respondent_id, o.sendout_id, s.survey_id, o.reminder_id IS NOT NULL AS is_reminder, \
           o.body IS NOT NULL AS own_text, o.idempotency_key, o.message_token, o.attempts, o.holds, o.aged_ms, \
           s.delivery_issue_since IS NOT NULL AS sendout_held, o.lease_until, s.dispatch_type, \
           r.contact_details AS recipient, r.token, coalesce(rem.sender, s.sender, '') AS sender, \
           coalesce(rem.subject, s.subject) AS subject, coalesce(o.body, rem.message, s.message, '') AS template, \
           s.expiry_date, \
           EXISTS (SELECT 1 FROM blocklist b WHERE b.account_id = r.account_id AND b.contact_key = r.contact_key) \
             AS blocklisted, o.status \
    FROM outbox o \
    JOIN respondents r ON r.account_id = o.account_id AND r.id = o.respondent_id \
    JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
    LEFT JOIN reminders rem ON rem.account_id = o.account_id AND rem.id = o.reminder_id \
    WHERE o.account_id = $1 AND o.id = ANY($2)";

#[derive(QueryableByName)]
struct Account {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// Claims up to `limit` due messages, shared fairly among the accounts that have some: each account listed gets
/// an equal share (the accounts waiting longest get the remainder), and what an account leaves unused goes, in
/// the same order, to the accounts that took their whole share. An account with a large backlog cannot starve
/// the others: every round serves every account it lists, oldest waiting first. Returns the messages by id.
pub(crate) fn claim_due(
    conn: &mut PgConnection,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> QueryResult<Vec<ClaimedMessage>> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let accounts: Vec<Account> =
        prepared(DUE_ACCOUNTS).bind::<Timestamptz, _>(now).bind::<BigInt, _>(limit).load(conn)?;
    let count = accounts.len().max(1) as i64;
    let mut left = limit;
    // Each account's share, and what it took of it.
    let mut claims: Vec<(i64, i64, Vec<i64>)> = Vec::with_capacity(accounts.len());
    for (n, Account { account_id }) in accounts.into_iter().enumerate() {
        let share = limit / count + i64::from((n as i64) < limit % count);
        let ids = claim_account(conn, account_id, now, lease_until, share)?;
        left -= ids.len() as i64;
        claims.push((account_id, share, ids));
    }
    for (account_id, share, ids) in &mut claims {
        if left <= 0 {
            break;
        }
        if (ids.len() as i64) < *share {
            continue; // It has no more to claim.
        }
        let more = claim_account(conn, *account_id, now, lease_until, left)?;
        left -= more.len() as i64;
        ids.extend(more);
    }
    let mut messages = Vec::with_capacity(usize::try_from(limit - left).unwrap_or(0));
    for (account_id, _, ids) in claims.into_iter().filter(|(_, _, ids)| !ids.is_empty()) {
        let rows: Vec<ClaimedRow> =
            prepared(DETAILS).bind::<BigInt, _>(account_id).bind::<Array<BigInt>, _>(&ids).load(conn)?;
        messages.extend(rows.into_iter().map(claimed));
    }
    messages.sort_by_key(|message| message.id);
    Ok(messages)
}

/// Claims up to `limit` of one account's claimable messages; returns their ids.
fn claim_account(
    conn: &mut PgConnection,
    account_id: i64,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> QueryResult<Vec<i64>> {
    let ids: Vec<Id> = prepared(CLAIM)
        .bind::<Timestamptz, _>(now)
        .bind::<Timestamptz, _>(lease_until)
        .bind::<BigInt, _>(account_id)
        .bind::<BigInt, _>(limit)
        .load(conn)?;
    Ok(ids.into_iter().map(|row| row.id).collect())
}
