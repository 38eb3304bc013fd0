//! A delivery round's outcomes, recorded per account with a few set-based statements each whatever the round's
//! size, every one pinned to its account (`account_id = $1`): the outbox rows (only those still held under the
//! claim's lease), the respondents (one statement for each status the round gives them, four at most: most rounds
//! make every respondent Sent), and for bounces the permanent failures, the bounced respondents' queued messages and
//! their status. The outbox update names its rows' ids twice, joined to the round's arrays and as `id = ANY($2)`,
//! and each respondent update names them as `id = ANY($2)`, so that they reach them by primary key whatever the
//! statistics say (a sendout activated a moment ago is not in them yet).

use canvass_domain::delivery::{Accepted, Outcome, Settled};
use canvass_domain::distribution::{contact_key, reply_code, EventKind, RespondentStatus};
use canvass_domain::ports::RecordedRound;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use std::collections::{BTreeMap, HashSet};

use serde_json::json;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::distribution::counts::OutboxTallies;
use crate::distribution::timeline::Events;
use crate::prepared::prepared;

/// Each outbox row's new state, and the lease it was claimed under.
#[derive(Default)]
struct OutboxRows {
    ids: Vec<i64>,
    leases: Vec<Option<OffsetDateTime>>,
    statuses: Vec<&'static str>,
    errors: Vec<Option<String>>,
    sent_at: Vec<Option<OffsetDateTime>>,
    due_at: Vec<Option<OffsetDateTime>>,
    /// 1 for a held message (its attempt is given back and its hold counted), else 0.
    held: Vec<i32>,
    /// Whose trouble holds it now, if anything does.
    hold_kinds: Vec<Option<&'static str>>,
    /// Milliseconds of its lifetime this outcome uses: the wait before its next try after a transient failure.
    aged_ms: Vec<i64>,
    /// The reply that accepted a sent message: its `sent` or `reminderSent` timeline event (`timeline.rs`).
    accepted: Vec<Option<String>>,
}

/// Respondents whose status follows from their message (bounces apart), by the change it makes.
type RespondentRows = BTreeMap<RespondentChange, Vec<i64>>;

/// What a message's outcome makes of its respondent: a status, and when it was sent (Sent alone).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct RespondentChange {
    status: &'static str,
    sent_at: Option<OffsetDateTime>,
}

impl RespondentChange {
    /// Whether it settles only a Scheduled respondent (Sent and Failed), or also one Sent or Released (Blocklisted
    /// and Expired, the statuses a message is cancelled for).
    fn settles_scheduled_only(&self) -> bool {
        [RespondentStatus::Sent.as_str(), RespondentStatus::Failed.as_str()].contains(&self.status)
    }
}

/// The bounced messages' respondents, addresses and reasons.
#[derive(Default)]
struct BounceRows {
    respondents: Vec<i64>,
    sendouts: Vec<i64>,
    addresses: Vec<String>,
    /// Each address's comparison key, made by the domain's rule (not SQL `lower`, which under a C locale folds
    /// ASCII only), so erasure's key finds it.
    keys: Vec<String>,
    domains: Vec<String>,
    reasons: Vec<String>,
}

/// Records every outcome of a round. Only messages still held under the lease they were claimed with (or, for a
/// late bounce, still Sent) are recorded: a worker whose lease ran out, and whose messages another worker has
/// claimed since, changes nothing. The outcomes are grouped by account and each statement runs once per account;
/// every account's outbox rows are recorded first, then the respondents, and bounces last. Returns the ids of the
/// outbox rows recorded, and how the round moved each sendout's outbox tallies (for the caller to write once its
/// transaction has committed: `distribution/counts.rs`).
pub(crate) fn record(
    conn: &mut PgConnection,
    settled: &[Settled],
    now: OffsetDateTime,
) -> QueryResult<(RecordedRound, OutboxTallies)> {
    let mut by_account: BTreeMap<i64, Vec<&Settled>> = BTreeMap::new();
    for done in settled {
        by_account.entry(done.message.account_id.get()).or_default().push(done);
    }
    let mut rounds = Vec::with_capacity(by_account.len());
    let mut recorded = RecordedRound { ids: Vec::with_capacity(settled.len()), holds_started: Vec::new() };
    let mut tallies = OutboxTallies::default();
    for (account, settled) in by_account {
        let held: HashSet<i64> = update_outbox(conn, account, &outbox_rows(&settled, now))?.into_iter().collect();
        tally_outcomes(&mut tallies, account, &settled, &held);
        let issues = super::holds::sendout_issues(&settled, &held);
        recorded.holds_started.extend(super::holds::update_sendout_issues(conn, account, &issues, now)?);
        tallies.extend(super::holds::hold_senders_together(conn, account, &settled, &held)?);
        rounds.push((account, respondent_rows(&settled, &held, now)));
        events_of(&settled, &held, now).record(conn, account)?;
        recorded.ids.extend(held);
    }
    for (account, (respondents, _)) in &rounds {
        update_respondents(conn, *account, respondents)?;
    }
    for (account, (_, bounces)) in &rounds {
        tallies.extend(record_bounces(conn, *account, bounces, now)?);
    }
    Ok((recorded, tallies))
}

/// How one account's recorded outcomes move its sendouts' tallies: a message that leaves Pending is one Pending
/// less, and one held again is one held more (its claim cleared its hold). A late bounce's message was Sent.
fn tally_outcomes(tallies: &mut OutboxTallies, account: i64, settled: &[&Settled], recorded: &HashSet<i64>) {
    for Settled { message, outcome } in settled.iter().copied() {
        if !recorded.contains(&message.id) || message.lease_until.is_none() {
            continue;
        }
        let (pending, held) = match outcome {
            Outcome::Held(..) => (0, 1),
            Outcome::DueAgain(..) => (0, 0),
            _ => (-1, 0),
        };
        tallies.add(account, message.sendout_id.get(), pending, held);
    }
}

/// The timeline events of one account's outcomes whose messages were still held: a text of its own (a TWOWAY
/// question) makes none, and a sent message is its own event (its outbox row keeps the reply that accepted it,
/// read as a `sent` or `reminderSent` event: `timeline.rs`).
fn events_of(settled: &[&Settled], held: &HashSet<i64>, now: OffsetDateTime) -> Events {
    let mut events = Events::default();
    let next = |at: &OffsetDateTime| at.format(&Rfc3339).ok();
    for Settled { message, outcome } in settled.iter().copied() {
        if !held.contains(&message.id) || message.own_text {
            continue;
        }
        let (kind, detail) = match outcome {
            Outcome::Sent(_) => continue,
            Outcome::DueAgain(at, reply) => {
                (EventKind::Deferred, Some(json!({"reply": reply, "nextAttemptAt": next(at)})))
            }
            Outcome::Held(at, hold) => {
                (EventKind::Held, Some(json!({"refusal": hold.reason, "nextAttemptAt": next(at)})))
            }
            Outcome::Bounced(reason) => {
                (EventKind::Bounced, Some(json!({"code": reply_code(reason), "reason": reason})))
            }
            Outcome::Failed(reason) => (EventKind::Failed, Some(json!({"reason": reason}))),
            Outcome::Cancelled(RespondentStatus::Expired) => (EventKind::Expired, None),
            Outcome::Cancelled(_) => (EventKind::Blocklisted, None),
        };
        events.push(message.respondent_id.get(), now, kind, detail);
    }
    events
}

/// The respondents and bounces that follow from one account's outcomes whose messages were still held.
fn respondent_rows(settled: &[&Settled], held: &HashSet<i64>, now: OffsetDateTime) -> (RespondentRows, BounceRows) {
    let (mut respondents, mut bounces) = (RespondentRows::default(), BounceRows::default());
    for Settled { message, outcome } in settled.iter().copied() {
        if !held.contains(&message.id) {
            continue;
        }
        let respondent = match outcome {
            Outcome::Sent(_) if message.is_invitation() => Some((RespondentStatus::Sent, Some(now))),
            Outcome::Failed(_) if message.is_invitation() => Some((RespondentStatus::Failed, None)),
            Outcome::Cancelled(status) if message.is_invitation() || *status == RespondentStatus::Blocklisted => {
                Some((*status, None))
            }
            Outcome::Bounced(reason) => {
                bounces.respondents.push(message.respondent_id.get());
                bounces.sendouts.push(message.sendout_id.get());
                bounces.addresses.push(message.recipient.clone());
                bounces.keys.push(contact_key(&message.recipient));
                bounces.domains.push(sending_domain(&message.sender));
                bounces.reasons.push(reason.clone());
                None
            }
            _ => None,
        };
        if let Some((status, sent_at)) = respondent {
            let change = RespondentChange { status: status.as_str(), sent_at };
            respondents.entry(change).or_default().push(message.respondent_id.get());
        }
    }
    (respondents, bounces)
}

fn outbox_rows(settled: &[&Settled], now: OffsetDateTime) -> OutboxRows {
    let mut rows = OutboxRows::default();
    for Settled { message, outcome } in settled.iter().copied() {
        let (status, error, sent_at, due_at) = match outcome {
            Outcome::Sent(_) => ("Sent", None, Some(now), None),
            Outcome::Bounced(reason) => ("Bounced", Some(reason.clone()), None, None),
            Outcome::Failed(error) => ("Failed", Some(error.clone()), None, None),
            Outcome::DueAgain(at, error) => ("Pending", Some(error.clone()), None, Some(*at)),
            Outcome::Held(at, hold) => ("Pending", Some(hold.reason.clone()), None, Some(*at)),
            Outcome::Cancelled(status) => ("Cancelled", Some(status.as_str().to_owned()), None, None),
        };
        rows.accepted.push(match outcome {
            Outcome::Sent(Accepted(reply)) => Some(reply.clone()),
            _ => None,
        });
        rows.ids.push(message.id);
        rows.leases.push(message.lease_until);
        rows.statuses.push(status);
        rows.errors.push(error);
        rows.sent_at.push(sent_at);
        rows.due_at.push(due_at);
        rows.held.push(i32::from(matches!(outcome, Outcome::Held(..))));
        rows.hold_kinds.push(match outcome {
            Outcome::Held(_, hold) => Some(hold.kind.as_str()),
            _ => None,
        });
        rows.aged_ms.push(match outcome {
            Outcome::DueAgain(at, _) => (*at - now).whole_milliseconds().clamp(0, i64::MAX.into()) as i64,
            _ => 0,
        });
    }
    rows
}

#[derive(QueryableByName)]
struct Held {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

fn sending_domain(sender: &str) -> String {
    sender.rsplit_once('@').map_or("", |(_, domain)| domain).to_lowercase()
}

/// Updates one account's rows still held under their claim's lease (a late bounce's row: still Sent); returns
/// their ids.
fn update_outbox(conn: &mut PgConnection, account: i64, rows: &OutboxRows) -> QueryResult<Vec<i64>> {
    if rows.ids.is_empty() {
        return Ok(Vec::new());
    }
    let held: Vec<Held> = prepared(
        "UPDATE outbox o SET status = u.status, last_error = u.error, sent_at = coalesce(u.sent_at, o.sent_at), \
             due_at = coalesce(u.due_at, o.due_at), lease_until = NULL, attempts = o.attempts - u.held, \
             holds = o.holds + u.held, hold_kind = u.hold_kind, aged_ms = o.aged_ms + u.aged_ms, \
             accepted_reply = coalesce(u.accepted, o.accepted_reply) \
         FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], \
                     $8::int[], $9::text[], $10::bigint[], $11::text[]) \
             AS u(id, lease_until, status, error, sent_at, due_at, held, hold_kind, aged_ms, accepted) \
         WHERE o.account_id = $1 AND o.id = ANY($2) AND o.id = u.id \
           AND CASE WHEN u.lease_until IS NULL THEN o.status = 'Sent' \
                    ELSE o.status = 'Pending' AND o.lease_until = u.lease_until END \
         RETURNING o.id",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<BigInt>, _>(&rows.ids)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.leases)
    .bind::<Array<Text>, _>(&rows.statuses)
    .bind::<Array<Nullable<Text>>, _>(&rows.errors)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.sent_at)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.due_at)
    .bind::<Array<Integer>, _>(&rows.held)
    .bind::<Array<Nullable<Text>>, _>(&rows.hold_kinds)
    .bind::<Array<BigInt>, _>(&rows.aged_ms)
    .bind::<Array<Nullable<Text>>, _>(&rows.accepted)
    .load(conn)?;
    Ok(held.into_iter().map(|row| row.id).collect())
}

/// Gives one account's respondents the statuses their messages' outcomes make, one statement for each change:
/// scalar values and the ids as an array, which costs a quarter less a row than joining the round's arrays.
fn update_respondents(conn: &mut PgConnection, account: i64, rows: &RespondentRows) -> QueryResult<()> {
    for (change, ids) in rows {
        prepared(
            "UPDATE respondents r SET status = $3, sent_at = coalesce($4, r.sent_at) \
             WHERE r.account_id = $1 AND r.id = ANY($2) \
               AND (r.status = 'Scheduled' OR (NOT $5 AND r.status IN ('Sent', 'Released')))",
        )
        .bind::<BigInt, _>(account)
        .bind::<Array<BigInt>, _>(ids)
        .bind::<Text, _>(change.status)
        .bind::<Nullable<Timestamptz>, _>(change.sent_at)
        .bind::<Bool, _>(change.settles_scheduled_only())
        .execute(conn)?;
    }
    Ok(())
}

/// A bounce records a permanent failure, cancels what is still queued for the respondent (nothing more goes to
/// an address that refuses mail) and makes the respondent Bounced: one account's bounces. Returns how the
/// cancelled messages move their sendouts' tallies.
fn record_bounces(
    conn: &mut PgConnection,
    account: i64,
    rows: &BounceRows,
    now: OffsetDateTime,
) -> QueryResult<OutboxTallies> {
    let mut tallies = OutboxTallies::default();
    if rows.respondents.is_empty() {
        return Ok(tallies);
    }
    prepared(
        "INSERT INTO permanent_failures (account_id, email_address, email_key, sending_domain, failed_at, reason, \
             sendout_id, respondent_id) \
         SELECT $1, u.address, u.key, u.domain, $7, u.reason, u.sendout_id, u.respondent_id \
         FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $8::text[]) \
             AS u(address, domain, reason, sendout_id, respondent_id, key) \
         ON CONFLICT DO NOTHING",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<Text>, _>(&rows.addresses)
    .bind::<Array<Text>, _>(&rows.domains)
    .bind::<Array<Text>, _>(&rows.reasons)
    .bind::<Array<BigInt>, _>(&rows.sendouts)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .bind::<Timestamptz, _>(now)
    .bind::<Array<Text>, _>(&rows.keys)
    .execute(conn)?;
    let cancelled: Vec<Cancelled> = prepared(
        "UPDATE outbox o SET status = 'Cancelled', last_error = 'Bounced', lease_until = NULL \
         WHERE o.account_id = $1 AND o.respondent_id = ANY($2) AND o.status = 'Pending' \
         RETURNING o.sendout_id, o.hold_kind IS NOT NULL AS held",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .load(conn)?;
    for Cancelled { sendout_id, held } in cancelled {
        tallies.add(account, sendout_id, -1, -i64::from(held));
    }
    prepared(
        "UPDATE respondents r SET status = 'Bounced' \
         WHERE r.account_id = $1 AND r.id = ANY($2) AND r.status IN ('Scheduled', 'Sent', 'Released')",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .execute(conn)?;
    Ok(tallies)
}

/// A Pending message a bounce cancelled: its sendout, and whether it was held.
#[derive(QueryableByName)]
struct Cancelled {
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
    #[diesel(sql_type = Bool)]
    held: bool,
}
