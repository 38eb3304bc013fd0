//! What holds do beyond their own messages, recorded with the round: a sendout's delivery issue (set by a hold,
//! cleared by the next hand-over, its start announced once), and a refused envelope sender holding the rest of
//! its sendout's invitations together instead of each being refused in turn.

use std::collections::{BTreeMap, HashSet};

use canvass_domain::delivery::{HoldKind, Outcome, Settled};
use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
use canvass_domain::ports::HoldStarted;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Text, Timestamptz};
use time::OffsetDateTime;

use crate::distribution::counts::OutboxTallies;
use crate::prepared::prepared;

/// What a round's outcomes make of their sendouts' delivery issues: set by a hold, cleared by a hand-over.
#[derive(Default)]
pub(crate) struct SendoutIssues {
    /// Each held sendout once, with the last hold's kind and reply.
    held: BTreeMap<i64, (i64, HoldKind, String)>,
    /// Sendouts with an issue whose message was handed over (and none held in this round).
    cleared: Vec<i64>,
}

/// The delivery issues one account's recorded outcomes set or clear.
pub(crate) fn sendout_issues(settled: &[&Settled], recorded: &HashSet<i64>) -> SendoutIssues {
    let mut issues = SendoutIssues::default();
    let mut handed_over = Vec::new();
    for Settled { message, outcome } in settled.iter().copied().filter(|done| recorded.contains(&done.message.id)) {
        match outcome {
            Outcome::Held(_, hold) => {
                let entry = (message.survey_id.get(), hold.kind, hold.reason.clone());
                issues.held.insert(message.sendout_id.get(), entry);
            }
            Outcome::Sent(_) if message.sendout_held => handed_over.push(message.sendout_id.get()),
            _ => {}
        }
    }
    handed_over.sort_unstable();
    handed_over.dedup();
    handed_over.retain(|sendout| !issues.held.contains_key(sendout));
    issues.cleared = handed_over;
    issues
}

#[derive(QueryableByName)]
struct IssueSet {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    survey_id: i64,
    #[diesel(sql_type = Text)]
    kind: String,
    /// Whether the sendout had no issue before: its hold starts now.
    #[diesel(sql_type = Bool)]
    started: bool,
}

/// Sets one account's held sendouts' delivery issue (kind and reply; since kept from the hold's start) and clears
/// the issue of those a hand-over ended; returns the sendouts whose hold starts now (their issue was unset).
pub(crate) fn update_sendout_issues(
    conn: &mut PgConnection,
    account: i64,
    issues: &SendoutIssues,
    now: OffsetDateTime,
) -> QueryResult<Vec<HoldStarted>> {
    if !issues.cleared.is_empty() {
        prepared(
            "UPDATE sendouts SET delivery_issue_kind = NULL, delivery_issue_reply = NULL, delivery_issue_since = NULL \
             WHERE account_id = $1 AND id = ANY($2) AND delivery_issue_since IS NOT NULL",
        )
        .bind::<BigInt, _>(account)
        .bind::<Array<BigInt>, _>(&issues.cleared)
        .execute(conn)?;
    }
    if issues.held.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = issues.held.keys().copied().collect();
    let kinds: Vec<&str> = issues.held.values().map(|(_, kind, _)| kind.as_str()).collect();
    let replies: Vec<&str> = issues.held.values().map(|(_, _, reply)| reply.as_str()).collect();
    let set: Vec<IssueSet> = prepared(
        "WITH before AS ( \
             SELECT id, delivery_issue_since FROM sendouts WHERE account_id = $1 AND id = ANY($2) FOR UPDATE) \
         UPDATE sendouts s SET delivery_issue_kind = u.kind, delivery_issue_reply = u.reply, \
             delivery_issue_since = coalesce(s.delivery_issue_since, $5) \
         FROM unnest($2::bigint[], $3::text[], $4::text[]) AS u(id, kind, reply), before b \
         WHERE s.account_id = $1 AND s.id = u.id AND b.id = u.id \
         RETURNING s.id, s.survey_id, s.delivery_issue_kind AS kind, b.delivery_issue_since IS NULL AS started",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<BigInt>, _>(&ids)
    .bind::<Array<Text>, _>(&kinds)
    .bind::<Array<Text>, _>(&replies)
    .bind::<Timestamptz, _>(now)
    .load(conn)?;
    Ok(set
        .into_iter()
        .filter(|row| row.started)
        .filter_map(|row| {
            Some(HoldStarted {
                account_id: AccountId::new(account),
                survey_id: SurveyId::new(row.survey_id),
                sendout_id: SendoutId::new(row.id),
                kind: HoldKind::parse(&row.kind)?,
            })
        })
        .collect())
}

/// A refusal at `MAIL FROM` holds only that envelope sender's messages, and holds them together: the queued
/// invitations of a sendout whose invitation was refused so (the sendout's sender) wait until the same time, with
/// the same reply, instead of each being tried and refused in turn. Messages under a lease (being tried, or left by
/// a worker that stopped: the next claim takes them), reminders and messages of their own text (which may have
/// other senders) are left alone. One statement per account, only when a round has such a refusal; it locks the
/// messages first, so that it knows which were not held yet, and returns how it moved their sendouts' held tallies.
pub(crate) fn hold_senders_together(
    conn: &mut PgConnection,
    account: i64,
    settled: &[&Settled],
    recorded: &HashSet<i64>,
) -> QueryResult<OutboxTallies> {
    let mut held: BTreeMap<i64, (OffsetDateTime, String)> = BTreeMap::new();
    for Settled { message, outcome } in settled.iter().copied() {
        if let Outcome::Held(at, hold) = outcome {
            if hold.kind == HoldKind::Sender && message.is_invitation() && recorded.contains(&message.id) {
                held.insert(message.sendout_id.get(), (*at, hold.reason.clone()));
            }
        }
    }
    let mut tallies = OutboxTallies::default();
    if held.is_empty() {
        return Ok(tallies);
    }
    let sendouts: Vec<i64> = held.keys().copied().collect();
    let until: Vec<OffsetDateTime> = held.values().map(|(at, _)| *at).collect();
    let replies: Vec<&str> = held.values().map(|(_, reply)| reply.as_str()).collect();
    let newly_held: Vec<NewlyHeld> = prepared(
        "WITH locked AS MATERIALIZED (SELECT o.id, o.sendout_id, o.hold_kind IS NULL AS newly FROM outbox o \
             JOIN unnest($2::bigint[], $3::timestamptz[]) AS u(sendout_id, due_at) ON o.sendout_id = u.sendout_id \
             WHERE o.account_id = $1 AND o.sendout_id = ANY($2) AND o.status = 'Pending' AND o.reminder_id IS NULL \
               AND o.body IS NULL AND o.due_at < u.due_at AND o.lease_until IS NULL \
             FOR UPDATE OF o), \
         changed AS (UPDATE outbox o SET due_at = u.due_at, hold_kind = 'sender', last_error = u.reply \
             FROM locked JOIN unnest($2::bigint[], $3::timestamptz[], $4::text[]) AS u(sendout_id, due_at, reply) \
                 ON u.sendout_id = locked.sendout_id \
             WHERE o.account_id = $1 AND o.id = locked.id) \
         SELECT sendout_id, count(*) AS count FROM locked WHERE newly GROUP BY sendout_id",
    )
    .bind::<BigInt, _>(account)
    .bind::<Array<BigInt>, _>(&sendouts)
    .bind::<Array<Timestamptz>, _>(&until)
    .bind::<Array<Text>, _>(&replies)
    .load(conn)?;
    for NewlyHeld { sendout_id, count } in newly_held {
        tallies.add(account, sendout_id, 0, count);
    }
    Ok(tallies)
}

/// A sendout's messages a sender's hold held that were not held before.
#[derive(QueryableByName)]
struct NewlyHeld {
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
    #[diesel(sql_type = BigInt)]
    count: i64,
}
