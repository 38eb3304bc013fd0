//! The counts each sendout row keeps, adjusted by the statements that change what they count, so that reading a
//! sendout never counts its respondents and a scrape of `/metrics` never counts the outbox: `respondent_count` and
//! `pending_count` (its respondents, and those still Pending), `outbox_pending` and `outbox_held` (its Pending
//! messages, and those held by a delivery issue).
//!
//! Every change is relative (`count + n`, `count - n`): two transactions changing one sendout both count, whatever
//! their order. Statements that touch several sendouts first lock those sendout rows in id order, as an
//! activation locks its sendout before its respondents, so the two cannot wait on each other in a cycle.

use canvass_domain::ids::{AccountId, SendoutId};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Text};

use crate::prepared::prepared;
use crate::schema::{respondents, sendouts};

/// How far one transaction moves one sendout's counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shift {
    pub(crate) respondents: i64,
    pub(crate) pending: i64,
    pub(crate) outbox_pending: i64,
    pub(crate) outbox_held: i64,
}

impl Shift {
    /// `n` new Pending respondents.
    fn new_pending(n: i64) -> Self {
        Self { respondents: n, pending: n, ..Self::default() }
    }

    fn is_none(&self) -> bool {
        *self == Self::default()
    }

    fn add(&mut self, other: Shift) {
        self.respondents += other.respondents;
        self.pending += other.pending;
        self.outbox_pending += other.outbox_pending;
        self.outbox_held += other.outbox_held;
    }
}

/// Moves the sendout's stored counts by `shift`, in one relative `UPDATE` (never read-modify-write, so concurrent
/// writers all count); nothing to move runs no statement.
fn shift_counts(conn: &mut PgConnection, account: AccountId, sendout: SendoutId, shift: Shift) -> QueryResult<()> {
    if shift.is_none() {
        return Ok(());
    }
    diesel::update(sendouts::table.filter(sendouts::account_id.eq(account.get()).and(sendouts::id.eq(sendout.get()))))
        .set((
            sendouts::respondent_count.eq(sendouts::respondent_count + shift.respondents),
            sendouts::pending_count.eq(sendouts::pending_count + shift.pending),
            sendouts::outbox_pending.eq(sendouts::outbox_pending + shift.outbox_pending),
            sendouts::outbox_held.eq(sendouts::outbox_held + shift.outbox_held),
        ))
        .execute(conn)
        .map(drop)
}

/// The outbox tallies one statement moved, by sendout of one account: written with the transaction's other shifts.
#[derive(Debug, Default)]
pub(crate) struct OutboxTallies {
    moved: Vec<(AccountId, SendoutId, Shift)>,
}

impl OutboxTallies {
    /// Moves the sendout's Pending messages by `pending` and its held ones by `held`.
    pub(crate) fn add(&mut self, account: i64, sendout: i64, pending: i64, held: i64) {
        if pending != 0 || held != 0 {
            let shift = Shift { outbox_pending: pending, outbox_held: held, ..Shift::default() };
            self.moved.push((AccountId::new(account), SendoutId::new(sendout), shift));
        }
    }

    /// Adds another statement's tallies.
    pub(crate) fn extend(&mut self, other: OutboxTallies) {
        self.moved.extend(other.moved);
    }
}

/// The count shifts a transaction holds for its end: those of respondents it added, written as its last statement
/// before `COMMIT`, and the outbox tallies of a delivery round, written just after it.
///
/// An added respondent's shift holds the sendout's row until the transaction ends, and every insert into the
/// sendout shifts it, so it is the last statement before `COMMIT` and nothing of the transaction (its events, its
/// audit event, the answer rendered in the hop) runs while it holds the row. A transaction that adds respondents
/// reads no count after (a count read inside it would not see them yet); one that moves them out of Pending shifts
/// at once (`leave_pending`).
///
/// A round's tallies wait for the commit itself: the round holds the rows of the messages it recorded, and a removal
/// of respondents locks their sendout before it deletes them and their messages, so a round that took the sendout's
/// row before its commit could wait on a removal that waits on it. Written after, each in a statement of its own
/// that holds nothing else, they never wait in a cycle; a failure between the two (the connection lost) leaves a
/// tally off until its sendout drains (`delivery/queued_marks.rs` resets it then).
#[derive(Debug, Default)]
pub(crate) struct DeferredShifts {
    /// `(account, sendout, shift, after the commit)`, in the order added.
    shifts: Vec<(AccountId, SendoutId, Shift, bool)>,
    /// Where each open savepoint began in `shifts`.
    savepoints: Vec<usize>,
}

impl DeferredShifts {
    /// Holds `n` new Pending respondents of the sendout until the commit.
    pub(crate) fn add_pending(&mut self, account: AccountId, sendout: SendoutId, n: usize) {
        if n > 0 {
            self.shifts.push((account, sendout, Shift::new_pending(count(n)), false));
        }
    }

    /// Holds the outbox tallies a round moved until just after the commit.
    pub(crate) fn add_outbox(&mut self, tallies: OutboxTallies) {
        self.shifts.extend(tallies.moved.into_iter().map(|(account, sendout, shift)| (account, sendout, shift, true)));
    }

    /// A savepoint opened: what follows is undone with it.
    pub(crate) fn savepoint(&mut self) {
        self.savepoints.push(self.shifts.len());
    }

    /// The innermost savepoint released: its shifts stay for the commit.
    pub(crate) fn release(&mut self) {
        self.savepoints.pop();
    }

    /// The innermost savepoint rolled back: its shifts go with it.
    pub(crate) fn rollback_savepoint(&mut self) {
        if let Some(from) = self.savepoints.pop() {
            self.shifts.truncate(from);
        }
    }

    /// The transaction ended without committing: nothing to write.
    pub(crate) fn forget(&mut self) {
        self.shifts.clear();
        self.savepoints.clear();
    }

    /// Writes the shifts held for before the commit, one `UPDATE` per sendout, in sendout order (the order every
    /// statement that locks several sendouts takes them in); answers those held for after it, to write with
    /// [`write_outbox`] once the transaction has committed.
    pub(crate) fn write(&mut self, conn: &mut PgConnection) -> QueryResult<OutboxTallies> {
        self.savepoints.clear();
        let (after, before): (Vec<_>, Vec<_>) = std::mem::take(&mut self.shifts).into_iter().partition(|held| held.3);
        let strip = |held: Vec<(AccountId, SendoutId, Shift, bool)>| {
            held.into_iter().map(|(account, sendout, shift, _)| (account, sendout, shift)).collect::<Vec<_>>()
        };
        write_merged(conn, strip(before))?;
        Ok(OutboxTallies { moved: strip(after) })
    }
}

/// Writes `shifts`, one `UPDATE` per sendout, in sendout order (the order every statement that locks several
/// sendouts takes them in).
fn write_merged(conn: &mut PgConnection, mut shifts: Vec<(AccountId, SendoutId, Shift)>) -> QueryResult<()> {
    shifts.sort_by_key(|(account, sendout, _)| (account.get(), sendout.get()));
    let mut merged: Vec<(AccountId, SendoutId, Shift)> = Vec::with_capacity(shifts.len());
    for (account, sendout, shift) in shifts {
        match merged.last_mut() {
            Some(last) if (last.0, last.1) == (account, sendout) => last.2.add(shift),
            _ => merged.push((account, sendout, shift)),
        }
    }
    for (account, sendout, shift) in merged {
        shift_counts(conn, account, sendout, shift)?;
    }
    Ok(())
}

/// Writes outbox tallies, one `UPDATE` per sendout in sendout order, each its own transaction when none is open.
pub(crate) fn write_outbox(conn: &mut PgConnection, tallies: OutboxTallies) -> QueryResult<()> {
    write_merged(conn, tallies.moved)
}

/// `n` as a count column takes it.
pub(crate) fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Adds `n` new Pending respondents to the sendout's counts.
pub(crate) fn add_pending(
    conn: &mut PgConnection,
    account: AccountId,
    sendout: SendoutId,
    n: usize,
) -> QueryResult<()> {
    shift_counts(conn, account, sendout, Shift::new_pending(count(n)))
}

/// Takes `n` respondents that left Pending (released, held back or blocklisted) off the sendout's pending count.
pub(crate) fn leave_pending(
    conn: &mut PgConnection,
    account: AccountId,
    sendout: SendoutId,
    n: usize,
) -> QueryResult<()> {
    shift_counts(conn, account, sendout, Shift { pending: -count(n), ..Shift::default() })
}

/// Locks, in id order, the sendouts with a Pending respondent of one of `keys`.
fn lock_sendouts_pending(conn: &mut PgConnection, account: AccountId, keys: &[&str]) -> QueryResult<()> {
    let pending = respondents::table
        .filter(
            respondents::account_id
                .eq(account.get())
                .and(respondents::contact_key.eq_any(keys))
                .and(respondents::status.eq("Pending")),
        )
        .select(respondents::sendout_id);
    sendouts::table
        .filter(sendouts::account_id.eq(account.get()).and(sendouts::id.eq_any(pending)))
        .order(sendouts::id)
        .select(sendouts::id)
        .for_update()
        .load::<i64>(conn)
        .map(drop)
}

/// Gives every Pending respondent of one of `keys` (in any sendout of the account) the status `to`, and takes
/// them off their sendouts' pending counts, in one statement; answers each moved respondent's id and key.
pub(crate) fn move_pending_contacts(
    conn: &mut PgConnection,
    account: AccountId,
    keys: &[&str],
    to: &str,
) -> QueryResult<Vec<(i64, String)>> {
    #[derive(QueryableByName)]
    struct Moved {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = Text)]
        contact_key: String,
    }
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    lock_sendouts_pending(conn, account, keys)?;
    let moved: Vec<Moved> = prepared(
        "WITH moved AS (UPDATE respondents SET status = $3 \
             WHERE account_id = $1 AND contact_key = ANY ($2) AND status = 'Pending' \
             RETURNING id, contact_key, sendout_id), \
         counted AS (UPDATE sendouts s SET pending_count = s.pending_count - m.n \
             FROM (SELECT sendout_id, count(*) AS n FROM moved GROUP BY sendout_id) AS m \
             WHERE s.account_id = $1 AND s.id = m.sendout_id) \
         SELECT id, contact_key FROM moved",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<Array<Text>, _>(keys)
    .bind::<Text, _>(to)
    .load(conn)?;
    Ok(moved.into_iter().map(|row| (row.id, row.contact_key)).collect())
}

/// The CTEs that follow a statement's `gone` CTE, which deleted respondents (`RETURNING id, sendout_id, status`),
/// with `$1` the account: `counted` takes them off their sendouts' stored counts, and their Pending messages (which
/// the delete cascades to, read here as they were before it) off the outbox tallies, and `forgotten` deletes their
/// timeline events (`respondent_events` has no foreign key to cascade them; migration `000041`). The one text every
/// respondent removal shares, as a literal so that both `format!` and `concat!` (for a `prepared` statement) can
/// use it.
macro_rules! respondents_gone {
    () => {
        "counted AS (UPDATE sendouts s SET respondent_count = s.respondent_count - g.removed, \
             pending_count = s.pending_count - g.pending, \
             outbox_pending = s.outbox_pending - coalesce(q.queued, 0), \
             outbox_held = s.outbox_held - coalesce(q.held, 0) \
         FROM (SELECT sendout_id, count(*) AS removed, count(*) FILTER (WHERE status = 'Pending') AS pending \
               FROM gone GROUP BY sendout_id) AS g \
         LEFT JOIN (SELECT o.sendout_id, count(*) AS queued, count(o.hold_kind) AS held FROM outbox o \
               WHERE o.account_id = $1 AND o.status = 'Pending' AND o.respondent_id IN (SELECT id FROM gone) \
               GROUP BY o.sendout_id) AS q ON q.sendout_id = g.sendout_id \
         WHERE s.account_id = $1 AND s.id = g.sendout_id), \
         forgotten AS (DELETE FROM respondent_events e USING gone WHERE e.account_id = $1 AND e.respondent_id = gone.id)"
    };
}
pub(crate) use respondents_gone;
