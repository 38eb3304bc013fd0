//! The alert outbox's claims and records on PostgreSQL, as the outbox's own: the accounts with due emails are
//! listed without locks (the one statement that spans accounts, through the partial index of pending emails), the
//! round's limit is shared among them, and each account's part is claimed with one statement pinned to it that
//! leases the emails `FOR UPDATE SKIP LOCKED`; a round's outcomes are recorded with one statement per account.

use std::collections::BTreeMap;

use canvass_domain::delivery::{ClaimedAlert, Outcome, SettledAlert};
use canvass_domain::ids::{AccountId, AlertId, AnswerSetId};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text, Timestamptz};
use time::OffsetDateTime;

use crate::prepared::prepared;

/// The accounts with claimable alert emails (Pending, due by `$1`, no live lease), the one whose oldest such email
/// has waited longest first, at most `$2` of them.
const DUE_ACCOUNTS: &str = "SELECT account_id FROM alert_emails \
     WHERE status = 'Pending' AND due_at <= $1 AND (lease_until IS NULL OR lease_until < $1) \
     GROUP BY account_id ORDER BY min(due_at), account_id LIMIT $2";

/// Claims up to `$4` of account `$1`'s claimable alert emails, oldest due first, skipping those another worker is
/// claiming: leases them until `$3` and counts the attempt. The rows are picked once, in a materialized CTE (see
/// the outbox's claim, `claim.rs`), and updated by primary key.
const CLAIM: &str = "WITH picked AS MATERIALIZED ( \
         SELECT id FROM alert_emails \
         WHERE account_id = $1 AND status = 'Pending' AND due_at <= $2 AND (lease_until IS NULL OR lease_until < $2) \
         ORDER BY due_at LIMIT $4 FOR UPDATE SKIP LOCKED) \
     UPDATE alert_emails SET lease_until = $3, attempts = attempts + 1 \
     WHERE account_id = $1 AND id = ANY (ARRAY(SELECT id FROM picked)) \
     RETURNING account_id, id, alert_id, answer_set_id, recipient, subject, body, message_token, attempts, holds, \
               aged_ms, lease_until";

/// Records account `$1`'s alert emails `$2` (each still Pending under the lease `$3` it was claimed with): its
/// status `$4`, last error `$5`, when sent `$6`, when due again `$7`, `$8` 1 for a hold (the attempt given back,
/// the hold counted), `$9` the milliseconds of its lifetime used. An email no longer Pending loses its text.
const RECORD: &str = "UPDATE alert_emails a SET status = u.status, last_error = u.error, sent_at = u.sent_at, \
         due_at = coalesce(u.due_at, a.due_at), lease_until = NULL, attempts = a.attempts - u.held, \
         holds = a.holds + u.held, aged_ms = a.aged_ms + u.aged_ms, \
         body = CASE WHEN u.status = 'Pending' THEN a.body ELSE '' END \
     FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], \
                 $8::int[], $9::bigint[]) AS u(id, lease_until, status, error, sent_at, due_at, held, aged_ms) \
     WHERE a.account_id = $1 AND a.id = ANY($2) AND a.id = u.id AND a.status = 'Pending' \
       AND a.lease_until = u.lease_until \
     RETURNING a.id";

#[derive(QueryableByName)]
struct DueAccount {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
}

#[derive(QueryableByName)]
struct Recorded {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// A claimed alert email's row.
#[derive(QueryableByName)]
struct ClaimedAlertRow {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    alert_id: i64,
    #[diesel(sql_type = BigInt)]
    answer_set_id: i64,
    #[diesel(sql_type = Text)]
    recipient: String,
    #[diesel(sql_type = Text)]
    subject: String,
    #[diesel(sql_type = Text)]
    body: String,
    #[diesel(sql_type = Text)]
    message_token: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Integer)]
    holds: i32,
    #[diesel(sql_type = BigInt)]
    aged_ms: i64,
    #[diesel(sql_type = Timestamptz)]
    lease_until: OffsetDateTime,
}

impl From<ClaimedAlertRow> for ClaimedAlert {
    fn from(row: ClaimedAlertRow) -> Self {
        Self {
            account_id: AccountId::new(row.account_id),
            id: row.id,
            alert_id: AlertId::new(row.alert_id),
            answer_set_id: AnswerSetId::new(row.answer_set_id),
            recipient: row.recipient,
            subject: row.subject,
            body: row.body,
            message_token: row.message_token,
            attempts: row.attempts,
            holds: row.holds,
            aged: time::Duration::milliseconds(row.aged_ms),
            lease_until: row.lease_until,
        }
    }
}

/// Claims up to `limit` due alert emails, shared fairly among the accounts that have some: each gets an equal
/// share (the accounts waiting longest the remainder), and what an account leaves unused goes, in the same order,
/// to the accounts that took their whole share. Returns them by id.
pub(crate) fn claim_due_alerts(
    conn: &mut PgConnection,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> QueryResult<Vec<ClaimedAlert>> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let accounts: Vec<DueAccount> =
        prepared(DUE_ACCOUNTS).bind::<Timestamptz, _>(now).bind::<BigInt, _>(limit).load(conn)?;
    let mut claim = |account: i64, want: i64| -> QueryResult<Vec<ClaimedAlert>> {
        let rows: Vec<ClaimedAlertRow> = prepared(CLAIM)
            .bind::<BigInt, _>(account)
            .bind::<Timestamptz, _>(now)
            .bind::<Timestamptz, _>(lease_until)
            .bind::<BigInt, _>(want)
            .load(conn)?;
        Ok(rows.into_iter().map(ClaimedAlert::from).collect())
    };
    let mut claimed = Vec::new();
    let mut filled = Vec::new();
    for (n, due) in accounts.iter().enumerate() {
        let share = super::claim::share_of(limit, accounts.len(), n);
        let got = claim(due.account_id, share)?;
        if got.len() as i64 == share {
            filled.push(due.account_id);
        }
        claimed.extend(got);
    }
    for account in filled {
        let left = limit - claimed.len() as i64;
        if left <= 0 {
            break;
        }
        claimed.extend(claim(account, left)?);
    }
    claimed.sort_by_key(|alert| alert.id);
    Ok(claimed)
}

/// Each account's rows of a round, in step.
#[derive(Default)]
struct Rows {
    ids: Vec<i64>,
    leases: Vec<OffsetDateTime>,
    statuses: Vec<&'static str>,
    errors: Vec<Option<String>>,
    sent_at: Vec<Option<OffsetDateTime>>,
    due_at: Vec<Option<OffsetDateTime>>,
    held: Vec<i32>,
    aged_ms: Vec<i64>,
}

impl Rows {
    fn push(&mut self, done: &SettledAlert, now: OffsetDateTime) {
        let (status, error, sent_at, due_at) = match &done.outcome {
            Outcome::Sent(_) => ("Sent", None, Some(now), None),
            Outcome::Bounced(reason) => ("Bounced", Some(reason.clone()), None, None),
            Outcome::Failed(reason) => ("Failed", Some(reason.clone()), None, None),
            Outcome::Cancelled(status) => ("Failed", Some(status.as_str().to_owned()), None, None),
            Outcome::DueAgain(at, reason) => ("Pending", Some(reason.clone()), None, Some(*at)),
            Outcome::Held(at, hold) => ("Pending", Some(hold.reason.clone()), None, Some(*at)),
        };
        self.ids.push(done.alert.id);
        self.leases.push(done.alert.lease_until);
        self.statuses.push(status);
        self.errors.push(error);
        self.sent_at.push(sent_at);
        self.due_at.push(due_at);
        self.held.push(i32::from(matches!(done.outcome, Outcome::Held(..))));
        self.aged_ms.push(match &done.outcome {
            Outcome::DueAgain(at, _) => (*at - now).whole_milliseconds().clamp(0, i64::MAX.into()) as i64,
            _ => 0,
        });
    }
}

/// Records a round's alert emails, one statement per account; returns the ids of those still held under their
/// claim's lease, which are the ones recorded.
pub(crate) fn record_alert_round(
    conn: &mut PgConnection,
    settled: &[SettledAlert],
    now: OffsetDateTime,
) -> QueryResult<Vec<i64>> {
    let mut by_account: BTreeMap<i64, Rows> = BTreeMap::new();
    for done in settled {
        by_account.entry(done.alert.account_id.get()).or_default().push(done, now);
    }
    let mut recorded = Vec::with_capacity(settled.len());
    for (account, rows) in by_account {
        let ids: Vec<Recorded> = prepared(RECORD)
            .bind::<BigInt, _>(account)
            .bind::<Array<BigInt>, _>(&rows.ids)
            .bind::<Array<Timestamptz>, _>(&rows.leases)
            .bind::<Array<Text>, _>(&rows.statuses)
            .bind::<Array<Nullable<Text>>, _>(&rows.errors)
            .bind::<Array<Nullable<Timestamptz>>, _>(&rows.sent_at)
            .bind::<Array<Nullable<Timestamptz>>, _>(&rows.due_at)
            .bind::<Array<Integer>, _>(&rows.held)
            .bind::<Array<BigInt>, _>(&rows.aged_ms)
            .load(conn)?;
        recorded.extend(ids.into_iter().map(|row| row.id));
    }
    Ok(recorded)
}
