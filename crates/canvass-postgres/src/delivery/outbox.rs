//! The outbox on PostgreSQL: enqueueing invitations and reminders (per account), claiming per account with
//! `FOR UPDATE SKIP LOCKED` under a lease (`claim.rs`), and recording a round's outcomes with a fixed number of
//! set-based statements per account (`outcomes.rs`).

use canvass_domain::delivery::{ClaimedAlert, ClaimedMessage, Settled, SettledAlert};
use canvass_domain::distribution::{DispatchType, TokenContext};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::ports::{OutboxBacklog, OutboxRepository, RecordedRound, RepoResult, SentLookup};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use time::OffsetDateTime;

use super::claim::DETAILS;
use crate::error::OrRepoError;
use crate::named::Named;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

/// The backlog of every account: the Pending messages a worker would claim (those of active sending sendouts), as
/// their sendouts' tallies count them (`distribution/counts.rs`), and the earliest due date among those due. It
/// reads only the sendouts marked as having queued messages (`queued_marks.rs`) and, for each, the first entry of
/// its part of `outbox_pending_idx`: a scrape costs the same however long the queue. A tally a race left below 0
/// (a message counted twice) counts as 0 until the sendout drains and its mark's clear resets it.
const BACKLOG: &str = "SELECT coalesce(sum(pending), 0)::bigint AS pending, coalesce(sum(held), 0)::bigint AS held, \
         min(oldest) FILTER (WHERE oldest <= $1) AS oldest_due \
     FROM (SELECT greatest(s.outbox_pending, 0) AS pending, \
                  greatest(least(s.outbox_held, s.outbox_pending), 0) AS held, \
                  (SELECT min(o.due_at) FROM outbox o \
                   WHERE o.account_id = s.account_id AND o.sendout_id = s.id AND o.status = 'Pending') AS oldest \
           FROM sendouts s WHERE s.outbox_queued AND s.status = 'Active' \
             AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY')) marked";

/// The accounts with reminders due by `$1`: the list of due accounts that spans accounts, without locks (the
/// reminders still Scheduled, a small table), so that each account's reminders are then enqueued on its own.
const REMINDER_ACCOUNTS: &str =
    "SELECT DISTINCT account_id FROM reminders WHERE status = 'Scheduled' AND send_date <= $1 ORDER BY account_id";

/// Marks one account's (`$2`) due reminders sent and queues their messages for the respondents their
/// SendoutLogic selects, marking their sendouts as having queued messages and counting them in their tallies
/// (`delivery/queued_marks.rs`); counts the messages queued.
const ENQUEUE_REMINDERS: &str = "WITH due AS ( \
         UPDATE reminders SET status = 'Sent' WHERE account_id = $2 AND status = 'Scheduled' AND send_date <= $1 \
         RETURNING account_id, id, sendout_id, sendout_logic), \
     queued AS ( \
         INSERT INTO outbox (account_id, respondent_id, sendout_id, reminder_id, idempotency_key, status, due_at, created_at) \
         SELECT r.account_id, r.id, r.sendout_id, due.id, 'rem-' || due.id || '-' || r.id, 'Pending', $1, $1 \
         FROM due JOIN respondents r ON r.sendout_id = due.sendout_id \
         WHERE r.account_id = $2 AND r.send_mail AND r.status = 'Sent' \
           AND NOT EXISTS (SELECT 1 FROM blocklist b WHERE b.account_id = r.account_id AND b.contact_key = r.contact_key) \
           AND (due.sendout_logic = 'All' \
             OR (due.sendout_logic = 'NotResponded' AND NOT EXISTS ( \
                   SELECT 1 FROM answer_sets a WHERE a.account_id = r.account_id AND a.respondent_id = r.id)) \
             OR (due.sendout_logic = 'NotCompleted' AND NOT EXISTS ( \
                   SELECT 1 FROM answer_sets a WHERE a.account_id = r.account_id AND a.respondent_id = r.id AND a.completed))) \
         ON CONFLICT (account_id, respondent_id, idempotency_key) DO NOTHING RETURNING sendout_id), \
     marked AS ( \
         UPDATE sendouts s SET outbox_queued = true, outbox_pending = s.outbox_pending + q.n \
         FROM (SELECT sendout_id, count(*) AS n FROM queued GROUP BY sendout_id) q \
         WHERE s.account_id = $2 AND s.id = q.sendout_id) \
     SELECT count(*) AS count FROM queued";

#[derive(QueryableByName)]
struct Account {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
}

#[derive(QueryableByName)]
struct BacklogRow {
    #[diesel(sql_type = BigInt)]
    pending: i64,
    #[diesel(sql_type = BigInt)]
    held: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    oldest_due: Option<OffsetDateTime>,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// A claimed message's row, with its respondent, sendout and reminder.
#[derive(QueryableByName)]
pub(crate) struct ClaimedRow {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    respondent_id: i64,
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
    #[diesel(sql_type = BigInt)]
    survey_id: i64,
    #[diesel(sql_type = Bool)]
    is_reminder: bool,
    #[diesel(sql_type = Bool)]
    own_text: bool,
    #[diesel(sql_type = Text)]
    idempotency_key: String,
    #[diesel(sql_type = Text)]
    message_token: String,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Integer)]
    holds: i32,
    #[diesel(sql_type = BigInt)]
    aged_ms: i64,
    #[diesel(sql_type = Bool)]
    sendout_held: bool,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    lease_until: Option<OffsetDateTime>,
    #[diesel(sql_type = Text)]
    dispatch_type: Named<DispatchType>,
    #[diesel(sql_type = Text)]
    recipient: String,
    #[diesel(sql_type = Text)]
    token: String,
    #[diesel(sql_type = Text)]
    sender: String,
    #[diesel(sql_type = Nullable<Text>)]
    subject: Option<String>,
    #[diesel(sql_type = Text)]
    template: String,
    #[diesel(sql_type = Nullable<diesel::sql_types::Jsonb>)]
    localized: Option<serde_json::Value>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    expiry_date: Option<OffsetDateTime>,
    #[diesel(sql_type = Text)]
    language: Named<canvass_domain::language::Language>,
    #[diesel(sql_type = Bool)]
    blocklisted: bool,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Nullable<Text>)]
    first_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    last_name: Option<String>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Jsonb>)]
    contact_attributes: Option<serde_json::Value>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Jsonb>)]
    background: Option<serde_json::Value>,
}

/// A JSON object of texts (attributes by name, background data by label name) as a map; anything else is empty.
pub(crate) fn texts_of(json: Option<serde_json::Value>) -> std::collections::BTreeMap<String, String> {
    match json {
        Some(serde_json::Value::Object(map)) => map
            .into_iter()
            .filter_map(|(name, value)| match value {
                serde_json::Value::String(text) => Some((name, text)),
                _ => None,
            })
            .collect(),
        _ => std::collections::BTreeMap::new(),
    }
}

impl PgUnitOfWork<'_> {
    /// Writes the invitation of every respondent of the sendout released at `now` with status Scheduled; due at
    /// the sendout's send date (at once when it is past).
    pub(crate) fn enqueue_invitations(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        now: OffsetDateTime,
    ) -> QueryResult<usize> {
        let queued = diesel::sql_query(
            "INSERT INTO outbox (account_id, respondent_id, sendout_id, idempotency_key, status, due_at, created_at) \
             SELECT r.account_id, r.id, r.sendout_id, 'inv-' || r.account_id || '-' || r.id, 'Pending', \
                    coalesce(s.send_date, $3), $3 \
             FROM respondents r JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
             WHERE r.account_id = $1 AND r.sendout_id = $2 AND r.status = 'Scheduled' AND r.released_at = $3 \
             ON CONFLICT (account_id, respondent_id, idempotency_key) DO NOTHING",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .bind::<Timestamptz, _>(now)
        .execute(self.conn)?;
        if queued > 0 {
            super::queued_marks::mark(self.conn, account.get(), sendout.get(), queued)?;
        }
        Ok(queued)
    }
}

impl OutboxRepository for PgUnitOfWork<'_> {
    fn backlog(&mut self, now: OffsetDateTime) -> RepoResult<OutboxBacklog> {
        let row: BacklogRow = prepared(BACKLOG).bind::<Timestamptz, _>(now).get_result(self.conn).or_repo()?;
        Ok(OutboxBacklog {
            pending: row.pending.max(0) as u64,
            held: row.held.max(0) as u64,
            oldest_due: row.oldest_due,
        })
    }

    fn enqueue_due_reminders(&mut self, now: OffsetDateTime) -> RepoResult<u64> {
        let accounts: Vec<Account> =
            prepared(REMINDER_ACCOUNTS).bind::<Timestamptz, _>(now).load(self.conn).or_repo()?;
        let mut queued = 0;
        for Account { account_id } in accounts {
            let row: Count = prepared(ENQUEUE_REMINDERS)
                .bind::<Timestamptz, _>(now)
                .bind::<BigInt, _>(account_id)
                .get_result(self.conn)
                .or_repo()?;
            queued += row.count.max(0) as u64;
        }
        Ok(queued)
    }

    fn claim_due(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedMessage>> {
        let (claimed, unheld) = super::claim::claim_due(self.conn, now, lease_until, limit).or_repo()?;
        self.add_outbox_tallies(unheld)?;
        Ok(claimed)
    }

    fn claim_due_alerts(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedAlert>> {
        super::alert_emails::claim_due_alerts(self.conn, now, lease_until, limit).or_repo()
    }

    fn record_alert_round(&mut self, settled: &[SettledAlert], now: OffsetDateTime) -> RepoResult<Vec<i64>> {
        if settled.is_empty() {
            return Ok(Vec::new());
        }
        super::alert_emails::record_alert_round(self.conn, settled, now).or_repo()
    }

    fn record_round(&mut self, settled: &[Settled], now: OffsetDateTime) -> RepoResult<RecordedRound> {
        let (recorded, tallies) = super::outcomes::record(self.conn, settled, now).or_repo()?;
        self.add_outbox_tallies(tallies)?;
        Ok(recorded)
    }

    fn find_sent_by_token(&mut self, message_token: &str) -> RepoResult<SentLookup> {
        #[derive(QueryableByName)]
        struct Found {
            #[diesel(sql_type = BigInt)]
            account_id: i64,
            #[diesel(sql_type = BigInt)]
            id: i64,
        }
        // A Message-ID names no account (the contract keeps it opaque), so the message is found by its token alone:
        // one indexed row, the only statement of a late bounce that spans accounts. Its details are then read
        // within that account.
        let found: Option<Found> = diesel::sql_query(
            "SELECT account_id, id FROM outbox WHERE message_token = $1 AND status IN ('Sent', 'Pending') \
                 AND attempts > 0 ORDER BY status = 'Sent' DESC LIMIT 1",
        )
        .bind::<Text, _>(message_token)
        .get_result(self.conn)
        .optional()
        .or_repo()?;
        let Some(found) = found else { return Ok(SentLookup::Unknown) };
        let row: Option<ClaimedRow> = prepared(DETAILS)
            .bind::<BigInt, _>(found.account_id)
            .bind::<Array<BigInt>, _>([found.id].as_slice())
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        Ok(match row {
            Some(row) if row.lease_until.is_none() && row.status == "Sent" => SentLookup::Sent(Box::new(claimed(row))),
            Some(row) if row.status == "Sent" || row.status == "Pending" => SentLookup::InFlight,
            // Settled since the look-up (the same report, handed over at once, bounced it first): nothing to do.
            Some(_) | None => SentLookup::Unknown,
        })
    }

    fn enqueue_message(
        &mut self,
        context: &TokenContext,
        key: &str,
        body: &str,
        now: OffsetDateTime,
    ) -> RepoResult<bool> {
        let queued = diesel::sql_query(
            "INSERT INTO outbox (account_id, respondent_id, sendout_id, reminder_id, idempotency_key, status, due_at, \
                 created_at, body) VALUES ($1, $2, $3, NULL, $4, 'Pending', $5, $5, $6) \
             ON CONFLICT (account_id, respondent_id, idempotency_key) DO NOTHING",
        )
        .bind::<BigInt, _>(context.account_id.get())
        .bind::<BigInt, _>(context.respondent_id.get())
        .bind::<BigInt, _>(context.sendout_id.get())
        .bind::<Text, _>(key)
        .bind::<Timestamptz, _>(now)
        .bind::<Text, _>(body)
        .execute(self.conn)
        .or_repo()?;
        if queued == 1 {
            super::queued_marks::mark(self.conn, context.account_id.get(), context.sendout_id.get(), 1).or_repo()?;
        }
        Ok(queued == 1)
    }
}

/// The message a row describes.
pub(crate) fn claimed(row: ClaimedRow) -> ClaimedMessage {
    let (subject, template) = match row.localized.and_then(crate::distribution::localized::one) {
        Some(localized) => (localized.subject, localized.message),
        None => (row.subject, row.template),
    };
    ClaimedMessage {
        channel: row.dispatch_type.0,
        account_id: AccountId::new(row.account_id),
        id: row.id,
        respondent_id: RespondentId::new(row.respondent_id),
        sendout_id: SendoutId::new(row.sendout_id),
        survey_id: SurveyId::new(row.survey_id),
        is_reminder: row.is_reminder,
        own_text: row.own_text,
        idempotency_key: row.idempotency_key,
        message_token: row.message_token,
        attempts: row.attempts,
        holds: row.holds,
        aged: time::Duration::milliseconds(row.aged_ms),
        sendout_held: row.sendout_held,
        lease_until: row.lease_until,
        recipient: row.recipient,
        token: row.token,
        sender: row.sender,
        subject,
        template,
        expiry_date: row.expiry_date,
        language: row.language.0,
        blocklisted: row.blocklisted,
        personal: canvass_domain::delivery::Personal {
            first_name: row.first_name,
            last_name: row.last_name,
            contact: texts_of(row.contact_attributes),
            background: texts_of(row.background),
        },
    }
}
