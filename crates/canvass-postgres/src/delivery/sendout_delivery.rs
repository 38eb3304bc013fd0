//! A sendout's delivery as the API shows it: its messages counted by where they stand (one statement for every
//! sendout read, through `outbox_sendout_status_idx`), and the day's limit as an issue of the sendouts it holds
//! back.

use std::collections::HashMap;

use canvass_domain::distribution::{DeliveryIssue, DeliveryIssueKind, Sendout, SendoutDelivery};
use canvass_domain::ids::AccountId;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Nullable, Timestamptz};
use time::OffsetDateTime;

use crate::prepared::prepared;

/// One account's sendouts' messages by where they stand; `due` counts the queued ones that are due now and not
/// held (what the day's limit keeps back). Expired messages are those cancelled because the sendout expired.
const COUNTS: &str = "SELECT sendout_id, \
         count(*) FILTER (WHERE status = 'Pending') AS queued, \
         count(*) FILTER (WHERE status = 'Sent') AS sent, \
         count(*) FILTER (WHERE status = 'Bounced') AS bounced, \
         count(*) FILTER (WHERE status = 'Failed') AS failed, \
         count(*) FILTER (WHERE status = 'Cancelled' AND last_error = 'Expired') AS expired, \
         count(*) FILTER (WHERE status = 'Pending' AND hold_kind IS NOT NULL) AS held, \
         count(*) FILTER (WHERE status = 'Pending' AND hold_kind IS NULL AND due_at <= now()) AS due, \
         (SELECT p.day_full_at FROM delivery_pace p \
          WHERE p.id = 1 AND p.day = (now() AT TIME ZONE 'UTC')::date) AS day_full_at \
     FROM outbox WHERE account_id = $1 AND sendout_id = ANY($2) GROUP BY sendout_id";

#[derive(QueryableByName)]
struct Counts {
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
    #[diesel(sql_type = BigInt)]
    queued: i64,
    #[diesel(sql_type = BigInt)]
    sent: i64,
    #[diesel(sql_type = BigInt)]
    bounced: i64,
    #[diesel(sql_type = BigInt)]
    failed: i64,
    #[diesel(sql_type = BigInt)]
    expired: i64,
    #[diesel(sql_type = BigInt)]
    held: i64,
    #[diesel(sql_type = BigInt)]
    due: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    day_full_at: Option<OffsetDateTime>,
}

/// Fills in the delivery of each sendout (all of `account`), and a `dailyLimit` issue where the day's limit keeps
/// due messages back and no hold names another.
pub(crate) fn fill(conn: &mut PgConnection, account: AccountId, sendouts: &mut [Sendout]) -> QueryResult<()> {
    if sendouts.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = sendouts.iter().map(|sendout| sendout.id.get()).collect();
    let rows: Vec<Counts> =
        prepared(COUNTS).bind::<BigInt, _>(account.get()).bind::<Array<BigInt>, _>(&ids).load(conn)?;
    let mut by_sendout: HashMap<i64, Counts> = rows.into_iter().map(|row| (row.sendout_id, row)).collect();
    for sendout in sendouts {
        let Some(row) = by_sendout.remove(&sendout.id.get()) else { continue };
        sendout.delivery = SendoutDelivery {
            queued: row.queued,
            sent: row.sent,
            bounced: row.bounced,
            failed: row.failed,
            expired: row.expired,
            held: row.held,
        };
        if let (None, Some(since), 1..) = (&sendout.delivery_issue, row.day_full_at, row.due) {
            sendout.delivery_issue = Some(DeliveryIssue {
                kind: DeliveryIssueKind::DailyLimit,
                reply: "DELIVERY_DAILY_LIMIT is reached for the UTC day; the rest go from midnight UTC".into(),
                since,
            });
        }
    }
    Ok(())
}
