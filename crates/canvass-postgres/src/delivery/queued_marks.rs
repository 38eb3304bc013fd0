//! The mark of a sendout whose outbox holds Pending messages (`sendouts.outbox_queued`), so that the list of due
//! sendouts reads only marked ones (`sendouts_outbox_queued_idx`, a partial index) and an idle poll costs the same
//! however many sendouts are Active.
//!
//! Every statement that queues a message sets the mark in its transaction with an unconditional `UPDATE`, which
//! takes the sendout's row lock; the worker clears it only under that lock (`FOR UPDATE SKIP LOCKED`) and with a
//! statement that starts after the lock is taken, so it sees every message whose mark was set before it. A queuer
//! that comes after the clear waits for it and sets the mark again. So a mark is never cleared while its sendout
//! has a Pending message committed or about to be.
//!
//! The mark also counts what it marks (`outbox_pending`, `outbox_held`, see `distribution/counts.rs`): a queuer
//! adds what it queued, and the clear sets both to 0, which also undoes any drift a race left in them (a message
//! counted twice by two transactions that both saw it Pending).

use diesel::prelude::*;
use diesel::sql_types::BigInt;

use crate::prepared::prepared;

/// Marks one sendout (`$2`, of account `$1`): it has `$3` more Pending messages.
const MARK: &str = "UPDATE sendouts SET outbox_queued = true, outbox_pending = outbox_pending + $3 \
     WHERE account_id = $1 AND id = $2";

/// Marked sendouts with no Pending message left, at most `$1` of them. Spans accounts without locks, as the list
/// of due sendouts does, and reads only the marked rows (the partial index) and one outbox index entry each.
const STALE: &str = "SELECT s.account_id, s.id AS sendout_id FROM sendouts s WHERE s.outbox_queued \
       AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.account_id = s.account_id AND o.sendout_id = s.id \
                         AND o.status = 'Pending') \
     ORDER BY s.account_id, s.id LIMIT $1";

/// Takes one marked sendout's row lock, unless a queuer holds it.
const LOCK: &str = "SELECT id FROM sendouts WHERE account_id = $1 AND id = $2 AND outbox_queued FOR UPDATE SKIP LOCKED";

/// Clears the mark of one locked sendout, and its tallies, when no Pending message is left (a statement of its own,
/// so its snapshot is taken after the lock).
const CLEAR: &str = "UPDATE sendouts SET outbox_queued = false, outbox_pending = 0, outbox_held = 0 \
     WHERE account_id = $1 AND id = $2 \
       AND NOT EXISTS (SELECT 1 FROM outbox WHERE account_id = $1 AND sendout_id = $2 AND status = 'Pending')";

/// Stale marks cleared per idle poll.
const CLEARED_PER_POLL: i64 = 100;

#[derive(QueryableByName)]
struct Marked {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
}

#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = BigInt)]
    #[expect(dead_code, reason = "the row is what the lock holds; its id is not read")]
    id: i64,
}

/// Marks `sendout` of `account` as having `queued` more Pending messages; call in the transaction that queued them.
pub(crate) fn mark(conn: &mut PgConnection, account: i64, sendout: i64, queued: usize) -> QueryResult<()> {
    prepared(MARK)
        .bind::<BigInt, _>(account)
        .bind::<BigInt, _>(sendout)
        .bind::<BigInt, _>(crate::distribution::counts::count(queued))
        .execute(conn)
        .map(drop)
}

/// Clears the marks of sendouts with nothing left to send (on a poll that found nothing due); returns how many.
pub(crate) fn clear_stale(conn: &mut PgConnection) -> QueryResult<usize> {
    let stale: Vec<Marked> = prepared(STALE).bind::<BigInt, _>(CLEARED_PER_POLL).load(conn)?;
    let mut cleared = 0;
    for Marked { account_id, sendout_id } in stale {
        cleared += conn.transaction(|conn| {
            let locked: Option<Locked> = prepared(LOCK)
                .bind::<BigInt, _>(account_id)
                .bind::<BigInt, _>(sendout_id)
                .get_result(conn)
                .optional()?;
            match locked {
                Some(_) => prepared(CLEAR).bind::<BigInt, _>(account_id).bind::<BigInt, _>(sendout_id).execute(conn),
                None => Ok(0),
            }
        })?;
    }
    Ok(cleared)
}
