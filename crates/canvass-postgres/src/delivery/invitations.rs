//! How respondents' invitations stand with the relay: their outbox rows (the one message of each respondent that
//! is neither a reminder nor a message of its own text), found through the outbox's respondent index, one
//! statement for a page of respondents.

use std::collections::HashMap;

use canvass_domain::distribution::{InvitationDelivery, Respondent};
use canvass_domain::ids::AccountId;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Nullable, Text, Timestamptz};
use time::OffsetDateTime;

use crate::prepared::prepared;

/// One account's invitations by key: attempts, the last refusal (none once sent or cancelled), and when a queued
/// one is tried next.
const INVITATIONS: &str = "SELECT respondent_id, attempts, \
         CASE WHEN status IN ('Pending', 'Bounced', 'Failed') THEN last_error END AS last_error, \
         CASE WHEN status = 'Pending' THEN due_at END AS next_attempt_at \
     FROM outbox WHERE account_id = $1 AND respondent_id = ANY($2) AND reminder_id IS NULL AND body IS NULL";

#[derive(QueryableByName)]
struct Invitation {
    #[diesel(sql_type = BigInt)]
    respondent_id: i64,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Nullable<Text>)]
    last_error: Option<String>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    next_attempt_at: Option<OffsetDateTime>,
}

/// Fills in each respondent's invitation delivery (respondents of `account`).
pub(crate) fn fill(conn: &mut PgConnection, account: AccountId, respondents: &mut [Respondent]) -> QueryResult<()> {
    if respondents.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = respondents.iter().map(|respondent| respondent.id.get()).collect();
    let rows: Vec<Invitation> =
        prepared(INVITATIONS).bind::<BigInt, _>(account.get()).bind::<Array<BigInt>, _>(&ids).load(conn)?;
    let mut found: HashMap<i64, Invitation> = rows.into_iter().map(|row| (row.respondent_id, row)).collect();
    for respondent in respondents {
        if let Some(row) = found.remove(&respondent.id.get()) {
            respondent.delivery = InvitationDelivery {
                attempts: row.attempts,
                last_error: row.last_error,
                next_attempt_at: row.next_attempt_at,
            };
        }
    }
    Ok(())
}
