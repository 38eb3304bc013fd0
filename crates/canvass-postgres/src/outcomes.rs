//! A delivery round's outcomes, recorded with at most five set-based statements whatever the round's size: the
//! outbox rows, the respondents, and for bounces the permanent failures, the bounced respondents' queued messages
//! and their status.

use canvass_domain::delivery::{Outcome, Settled};
use canvass_domain::distribution::RespondentStatus;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Nullable, Text, Timestamptz};
use time::OffsetDateTime;

/// Each outbox row's new state.
#[derive(Default)]
struct OutboxRows {
    accounts: Vec<i64>,
    ids: Vec<i64>,
    statuses: Vec<&'static str>,
    errors: Vec<Option<String>>,
    sent_at: Vec<Option<OffsetDateTime>>,
    due_at: Vec<Option<OffsetDateTime>>,
}

/// Respondents whose status follows from their message (bounces apart).
#[derive(Default)]
struct RespondentRows {
    accounts: Vec<i64>,
    ids: Vec<i64>,
    statuses: Vec<&'static str>,
    sent_at: Vec<Option<OffsetDateTime>>,
    /// Sent and Failed settle only a Scheduled respondent; Blocklisted and Expired also one Sent or Released.
    from_scheduled_only: Vec<bool>,
}

/// The bounced messages' respondents, addresses and reasons.
#[derive(Default)]
struct BounceRows {
    accounts: Vec<i64>,
    respondents: Vec<i64>,
    sendouts: Vec<i64>,
    addresses: Vec<String>,
    domains: Vec<String>,
    reasons: Vec<String>,
}

/// Records every outcome of a round.
pub(crate) fn record(conn: &mut PgConnection, settled: &[Settled], now: OffsetDateTime) -> QueryResult<()> {
    let (mut outbox, mut respondents, mut bounces) =
        (OutboxRows::default(), RespondentRows::default(), BounceRows::default());
    for Settled { message, outcome } in settled {
        let account = message.account_id.get();
        let (status, error, sent_at, due_at) = match outcome {
            Outcome::Sent => ("Sent", None, Some(now), None),
            Outcome::Bounced(reason) => ("Bounced", Some(reason.clone()), None, None),
            Outcome::Failed(error) => ("Failed", Some(error.clone()), None, None),
            Outcome::DueAgain(at, error) => ("Pending", Some(error.clone()), None, Some(*at)),
            Outcome::Cancelled(status) => ("Cancelled", Some(status.as_str().to_owned()), None, None),
        };
        outbox.accounts.push(account);
        outbox.ids.push(message.id);
        outbox.statuses.push(status);
        outbox.errors.push(error);
        outbox.sent_at.push(sent_at);
        outbox.due_at.push(due_at);
        let respondent = match outcome {
            Outcome::Sent if message.is_invitation() => Some((RespondentStatus::Sent, Some(now), true)),
            Outcome::Failed(_) if message.is_invitation() => Some((RespondentStatus::Failed, None, true)),
            Outcome::Cancelled(status) if message.is_invitation() || *status == RespondentStatus::Blocklisted => {
                Some((*status, None, false))
            }
            Outcome::Bounced(reason) => {
                bounces.accounts.push(account);
                bounces.respondents.push(message.respondent_id);
                bounces.sendouts.push(message.sendout_id);
                bounces.addresses.push(message.recipient.clone());
                bounces.domains.push(sending_domain(&message.sender));
                bounces.reasons.push(reason.clone());
                None
            }
            _ => None,
        };
        if let Some((status, sent_at, from_scheduled_only)) = respondent {
            respondents.accounts.push(account);
            respondents.ids.push(message.respondent_id);
            respondents.statuses.push(status.as_str());
            respondents.sent_at.push(sent_at);
            respondents.from_scheduled_only.push(from_scheduled_only);
        }
    }
    update_outbox(conn, &outbox)?;
    update_respondents(conn, &respondents)?;
    record_bounces(conn, &bounces, now)
}

fn sending_domain(sender: &str) -> String {
    sender.rsplit_once('@').map_or("", |(_, domain)| domain).to_lowercase()
}

fn update_outbox(conn: &mut PgConnection, rows: &OutboxRows) -> QueryResult<()> {
    if rows.ids.is_empty() {
        return Ok(());
    }
    diesel::sql_query(
        "UPDATE outbox o SET status = u.status, last_error = u.error, sent_at = coalesce(u.sent_at, o.sent_at), \
             due_at = coalesce(u.due_at, o.due_at), lease_until = NULL \
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[]) \
             AS u(account_id, id, status, error, sent_at, due_at) \
         WHERE o.account_id = u.account_id AND o.id = u.id",
    )
    .bind::<Array<BigInt>, _>(&rows.accounts)
    .bind::<Array<BigInt>, _>(&rows.ids)
    .bind::<Array<Text>, _>(&rows.statuses)
    .bind::<Array<Nullable<Text>>, _>(&rows.errors)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.sent_at)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.due_at)
    .execute(conn)
    .map(drop)
}

fn update_respondents(conn: &mut PgConnection, rows: &RespondentRows) -> QueryResult<()> {
    if rows.ids.is_empty() {
        return Ok(());
    }
    diesel::sql_query(
        "UPDATE respondents r SET status = u.status, sent_at = coalesce(u.sent_at, r.sent_at) \
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[], $5::bool[]) \
             AS u(account_id, id, status, sent_at, from_scheduled_only) \
         WHERE r.account_id = u.account_id AND r.id = u.id \
           AND (r.status = 'Scheduled' OR (NOT u.from_scheduled_only AND r.status IN ('Sent', 'Released')))",
    )
    .bind::<Array<BigInt>, _>(&rows.accounts)
    .bind::<Array<BigInt>, _>(&rows.ids)
    .bind::<Array<Text>, _>(&rows.statuses)
    .bind::<Array<Nullable<Timestamptz>>, _>(&rows.sent_at)
    .bind::<Array<Bool>, _>(&rows.from_scheduled_only)
    .execute(conn)
    .map(drop)
}

/// A bounce records a permanent failure, cancels what is still queued for the respondent (nothing more goes to
/// an address that refuses mail) and makes the respondent Bounced.
fn record_bounces(conn: &mut PgConnection, rows: &BounceRows, now: OffsetDateTime) -> QueryResult<()> {
    if rows.respondents.is_empty() {
        return Ok(());
    }
    diesel::sql_query(
        "INSERT INTO permanent_failures (account_id, email_address, email_key, sending_domain, failed_at, reason, \
             sendout_id, respondent_id) \
         SELECT u.account_id, u.address, lower(u.address), u.domain, $7, u.reason, u.sendout_id, u.respondent_id \
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) \
             AS u(account_id, address, domain, reason, sendout_id, respondent_id) \
         ON CONFLICT DO NOTHING",
    )
    .bind::<Array<BigInt>, _>(&rows.accounts)
    .bind::<Array<Text>, _>(&rows.addresses)
    .bind::<Array<Text>, _>(&rows.domains)
    .bind::<Array<Text>, _>(&rows.reasons)
    .bind::<Array<BigInt>, _>(&rows.sendouts)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .bind::<Timestamptz, _>(now)
    .execute(conn)?;
    diesel::sql_query(
        "UPDATE outbox o SET status = 'Cancelled', last_error = 'Bounced', lease_until = NULL \
         FROM unnest($1::bigint[], $2::bigint[]) AS u(account_id, respondent_id) \
         WHERE o.account_id = u.account_id AND o.respondent_id = u.respondent_id AND o.status = 'Pending'",
    )
    .bind::<Array<BigInt>, _>(&rows.accounts)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .execute(conn)?;
    diesel::sql_query(
        "UPDATE respondents r SET status = 'Bounced' \
         FROM unnest($1::bigint[], $2::bigint[]) AS u(account_id, id) \
         WHERE r.account_id = u.account_id AND r.id = u.id AND r.status IN ('Scheduled', 'Sent', 'Released')",
    )
    .bind::<Array<BigInt>, _>(&rows.accounts)
    .bind::<Array<BigInt>, _>(&rows.respondents)
    .execute(conn)
    .map(drop)
}
