//! The pace every worker on the database keeps together: one row of `delivery_pace` (a reference table on Citus),
//! read, or locked for the length of a transaction, and written back whole. Its arithmetic is the domain's.

use canvass_domain::delivery::Pace;
use canvass_domain::ports::{PaceRepository, RepoResult};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Double, Nullable, Timestamptz};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

#[derive(QueryableByName)]
struct PaceRow {
    #[diesel(sql_type = Double)]
    tokens: f64,
    #[diesel(sql_type = Timestamptz)]
    refilled_at: OffsetDateTime,
    #[diesel(sql_type = Nullable<Double>)]
    ceiling: Option<f64>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    ceiling_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Date)]
    day: time::Date,
    #[diesel(sql_type = BigInt)]
    day_sent: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    day_full_at: Option<OffsetDateTime>,
}

impl From<PaceRow> for Pace {
    fn from(row: PaceRow) -> Self {
        Pace {
            tokens: row.tokens,
            refilled_at: row.refilled_at,
            ceiling: row.ceiling,
            ceiling_at: row.ceiling_at,
            day: row.day,
            day_sent: row.day_sent,
            day_full_at: row.day_full_at,
        }
    }
}

/// The row, read.
const READ: &str = "SELECT tokens, refilled_at, ceiling, ceiling_at, day, day_sent, day_full_at \
     FROM delivery_pace WHERE id = 1";
/// The row, locked until the transaction ends.
const LOCK: &str = "SELECT tokens, refilled_at, ceiling, ceiling_at, day, day_sent, day_full_at \
     FROM delivery_pace WHERE id = 1 FOR UPDATE";
/// The row written whole (made on first use).
const SAVE: &str = "INSERT INTO delivery_pace AS p (id, tokens, refilled_at, ceiling, ceiling_at, day, day_sent, \
         day_full_at) VALUES (1, $1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (id) DO UPDATE SET tokens = $1, refilled_at = $2, ceiling = $3, ceiling_at = $4, day = $5, \
         day_sent = $6, day_full_at = $7";

impl PaceRepository for PgUnitOfWork<'_> {
    fn pace(&mut self, lock: bool) -> RepoResult<Option<Pace>> {
        let row: Option<PaceRow> =
            prepared(if lock { LOCK } else { READ }).get_result(self.conn).optional().or_repo()?;
        Ok(row.map(Pace::from))
    }

    fn save_pace(&mut self, pace: &Pace) -> RepoResult<()> {
        prepared(SAVE)
            .bind::<Double, _>(pace.tokens)
            .bind::<Timestamptz, _>(pace.refilled_at)
            .bind::<Nullable<Double>, _>(pace.ceiling)
            .bind::<Nullable<Timestamptz>, _>(pace.ceiling_at)
            .bind::<Date, _>(pace.day)
            .bind::<BigInt, _>(pace.day_sent)
            .bind::<Nullable<Timestamptz>, _>(pace.day_full_at)
            .execute(self.conn)
            .map(drop)
            .or_repo()
    }
}
