//! The outbox claim, one sendout at a time: list the active sendouts with claimable messages (the one statement
//! that spans accounts, without locks), share the round's limit among their accounts, and claim each sendout's
//! part with one statement pinned to its account that leases the messages and reads their details together.
//!
//! Every statement here reaches the outbox through `outbox_pending_idx (account_id, sendout_id, due_at) WHERE
//! status = 'Pending'`, and each is written so that no other index can serve it, whatever the statistics say: a
//! sendout activated a moment ago has thousands of rows the statistics have not seen (autovacuum analyzes a large
//! outbox only after a tenth of it has changed), and a plan that trusted them would read the whole sendout on
//! every round. See docs/decisions.md, "A claim that reads only what it claims".

use canvass_domain::delivery::ClaimedMessage;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamptz};
use time::OffsetDateTime;

use super::outbox::{claimed, ClaimedRow};
use crate::distribution::counts::OutboxTallies;
use crate::prepared::prepared;

/// The details of a message as a worker sends it, read from the outbox rows named `o` (a CTE the statement
/// starts with) of one account (`$1`): the respondent, its sendout and reminder, whether its contact is
/// blocklisted, the invitation's texts in the language the respondent is shown (`localized`, when the sendout
/// or reminder has them), and what its personal placeholders are filled with: its contact's names and
/// attributes (none once the contact is deleted) and its background data by label name.
macro_rules! details_of_o {
    () => {
        "SELECT o.account_id, o.id, o.respondent_id, o.sendout_id, s.survey_id, \
                o.reminder_id IS NOT NULL AS is_reminder, o.body IS NOT NULL AS own_text, o.idempotency_key, \
                o.message_token, o.attempts, o.holds, o.aged_ms, s.delivery_issue_since IS NOT NULL AS sendout_held, \
                o.lease_until, s.dispatch_type, r.contact_details AS recipient, r.token, \
                coalesce(rem.sender, s.sender, '') AS sender, coalesce(rem.subject, s.subject) AS subject, \
                coalesce(o.body, rem.message, s.message, '') AS template, \
                CASE WHEN o.body IS NULL THEN (CASE WHEN o.reminder_id IS NULL THEN s.messages ELSE rem.messages END) \
                  -> coalesce(r.language, s.language) END AS localized, s.expiry_date, \
                coalesce(r.language, s.language) AS language, \
                EXISTS (SELECT 1 FROM blocklist b WHERE b.account_id = $1 AND b.contact_key = r.contact_key) \
                  AS blocklisted, o.status, c.first_name, c.last_name, c.attributes AS contact_attributes, \
                CASE WHEN o.body IS NULL AND r.background_data <> '{}'::jsonb THEN \
                  (SELECT jsonb_object_agg(l.name, r.background_data ->> l.id::text) FROM bg_labels l \
                   WHERE l.account_id = $1 AND l.sendout_id = r.sendout_id AND r.background_data ? l.id::text) \
                END AS background \
         FROM o \
         JOIN respondents r ON r.account_id = $1 AND r.id = o.respondent_id \
         JOIN sendouts s ON s.account_id = $1 AND s.id = o.sendout_id \
         LEFT JOIN reminders rem ON rem.account_id = $1 AND rem.id = o.reminder_id \
         LEFT JOIN contacts c ON c.account_id = $1 AND c.id = r.contact_id"
    };
}

/// The details of one account's (`$1`) messages by id (`$2`), claimed or a late bounce's. The rows are read
/// first, by primary key, so that the sendout's join cannot lead the plan to read all of its messages.
pub(crate) const DETAILS: &str =
    concat!("WITH o AS MATERIALIZED (SELECT * FROM outbox WHERE account_id = $1 AND id = ANY($2)) ", details_of_o!());

/// The active sending sendouts with claimable messages (Pending, due by `$1`, no live lease), the one whose
/// oldest such message has waited longest first, at most `$2` of them. It spans accounts and takes no lock: it
/// only says where to claim. It reads only the sendouts marked as having queued messages (`queued_marks.rs`), so
/// an idle poll costs the same however many sendouts are Active. Each sendout's oldest claimable message is the first entry of its part of
/// `outbox_pending_idx` past the leased ones (the rows in flight, claimed oldest first), so this reads a few
/// index entries per active sendout, however long the queue.
const DUE_SENDOUTS: &str = "SELECT account_id, sendout_id FROM ( \
         SELECT s.account_id, s.id AS sendout_id, \
                (SELECT min(o.due_at) FROM outbox o \
                 WHERE o.account_id = s.account_id AND o.sendout_id = s.id AND o.status = 'Pending' \
                   AND o.due_at <= $1 AND (o.lease_until IS NULL OR o.lease_until < $1)) AS oldest \
         FROM sendouts s WHERE s.outbox_queued AND s.status = 'Active' \
           AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY')) due \
     WHERE oldest IS NOT NULL ORDER BY oldest, account_id, sendout_id LIMIT $2";

/// Claims up to `$4` of one sendout's (`$5`, of account `$1`) claimable messages, oldest due first, skipping those
/// another worker is claiming: leases them until `$3`, counts the attempt, and reads their details, each row with
/// the number of the messages claimed that were held (`unheld`). A held message claimed is held no longer while it
/// is tried (its outcome may hold it again): its hold is cleared here, and the caller takes it off the sendout's
/// held tally once the claim has committed (as a round's tallies, `distribution/counts.rs`).
///
/// The rows are picked in a materialized CTE, run once: a `LIMIT ... SKIP LOCKED` subquery under `IN` may be
/// run again for each row the planner joins it to, and each run skips the rows the last one locked, so the
/// update would take more than `$4` rows; the update reaches them by primary key (an array of ids, computed
/// once). The sendout is checked once, before the outbox is read (an InitPlan), so the outbox is reached only
/// through its pending index, in due order.
const CLAIM: &str = concat!(
    "WITH picked AS MATERIALIZED ( \
         SELECT id, hold_kind IS NOT NULL AS held FROM outbox \
         WHERE account_id = $1 AND sendout_id = $5 AND status = 'Pending' AND due_at <= $2 \
           AND (lease_until IS NULL OR lease_until < $2) \
           AND EXISTS (SELECT 1 FROM sendouts WHERE account_id = $1 AND id = $5 AND status = 'Active' \
                         AND dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY')) \
         ORDER BY due_at LIMIT $4 FOR UPDATE SKIP LOCKED), \
     o AS ( \
         UPDATE outbox SET lease_until = $3, attempts = attempts + 1, hold_kind = NULL \
         WHERE account_id = $1 AND id = ANY (ARRAY(SELECT id FROM picked)) \
         RETURNING *) \
     SELECT claimed.*, (SELECT count(*) FROM picked WHERE held) AS unheld FROM (",
    details_of_o!(),
    ") claimed"
);

/// A claimed message's row, and how many of its statement's messages were held.
#[derive(QueryableByName)]
struct ClaimRow {
    #[diesel(embed)]
    message: ClaimedRow,
    #[diesel(sql_type = BigInt)]
    unheld: i64,
}

#[derive(QueryableByName)]
struct DueSendout {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
}

/// One account's part of a round: its sendouts with claimable messages (oldest waiting first), the share it is
/// owed, and what it has claimed.
struct AccountClaim {
    account_id: i64,
    sendouts: Vec<i64>,
    /// Of `sendouts`, the first that may still have messages to claim.
    next: usize,
    share: i64,
    messages: Vec<ClaimedMessage>,
    /// The held tallies its claims took messages off.
    unheld: OutboxTallies,
}

impl AccountClaim {
    /// Claims up to `want` more of this account's messages from its sendouts in order, passing over a sendout
    /// once it gives fewer than asked; returns how many it claimed.
    fn claim(
        &mut self,
        conn: &mut PgConnection,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        want: i64,
    ) -> QueryResult<i64> {
        let mut taken = 0;
        while taken < want && self.next < self.sendouts.len() {
            let asked = want - taken;
            let rows: Vec<ClaimRow> = prepared(CLAIM)
                .bind::<BigInt, _>(self.account_id)
                .bind::<Timestamptz, _>(now)
                .bind::<Timestamptz, _>(lease_until)
                .bind::<BigInt, _>(asked)
                .bind::<BigInt, _>(self.sendouts[self.next])
                .load(conn)?;
            let got = rows.len() as i64;
            taken += got;
            if let Some(first) = rows.first() {
                self.unheld.add(self.account_id, self.sendouts[self.next], 0, -first.unheld);
            }
            self.messages.extend(rows.into_iter().map(|claim| claimed(claim.message)));
            if got < asked {
                self.next += 1;
            }
        }
        Ok(taken)
    }

    fn took_whole_share(&self) -> bool {
        self.messages.len() as i64 >= self.share && self.next < self.sendouts.len()
    }
}

/// Claims up to `limit` due messages, shared fairly among the accounts that have some: each account listed gets
/// an equal share (the accounts waiting longest get the remainder), and what an account leaves unused goes, in
/// the same order, to the accounts that took their whole share. An account with a large backlog cannot starve
/// the others: every round serves every account it lists, oldest waiting first. Within an account, its sendouts
/// are served oldest waiting first, each one's messages oldest due first. Returns the messages by id, and the held
/// tallies to take the held messages claimed off once the claim commits.
pub(crate) fn claim_due(
    conn: &mut PgConnection,
    now: OffsetDateTime,
    lease_until: OffsetDateTime,
    limit: i64,
) -> QueryResult<(Vec<ClaimedMessage>, OutboxTallies)> {
    if limit <= 0 {
        return Ok(Default::default());
    }
    let due: Vec<DueSendout> =
        prepared(DUE_SENDOUTS).bind::<Timestamptz, _>(now).bind::<BigInt, _>(limit).load(conn)?;
    if due.is_empty() {
        // Nothing due: the poll is idle, so it is the time to clear the marks of sendouts with nothing left.
        super::queued_marks::clear_stale(conn)?;
        return Ok(Default::default());
    }
    let mut accounts: Vec<AccountClaim> = Vec::new();
    for DueSendout { account_id, sendout_id } in due {
        match accounts.iter_mut().find(|claim| claim.account_id == account_id) {
            Some(claim) => claim.sendouts.push(sendout_id),
            None => accounts.push(AccountClaim {
                account_id,
                sendouts: vec![sendout_id],
                next: 0,
                share: 0,
                messages: Vec::new(),
                unheld: OutboxTallies::default(),
            }),
        }
    }
    let mut left = limit;
    let count = accounts.len();
    for (n, account) in accounts.iter_mut().enumerate() {
        account.share = share_of(limit, count, n);
        left -= account.claim(conn, now, lease_until, account.share)?;
    }
    for account in &mut accounts {
        if left <= 0 {
            break;
        }
        if account.took_whole_share() {
            left -= account.claim(conn, now, lease_until, left)?;
        }
    }
    let mut unheld = OutboxTallies::default();
    let mut messages: Vec<ClaimedMessage> = Vec::new();
    for account in accounts {
        messages.extend(account.messages);
        unheld.extend(account.unheld);
    }
    messages.sort_by_key(|message| message.id);
    Ok((messages, unheld))
}

/// The `n`th (from 0) of `accounts` accounts' equal share of a round of `limit`: the remainder goes one each to
/// the first, who have waited longest.
pub(super) fn share_of(limit: i64, accounts: usize, n: usize) -> i64 {
    let count = accounts.max(1) as i64;
    limit / count + i64::from((n as i64) < limit % count)
}
