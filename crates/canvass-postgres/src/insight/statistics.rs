//! A sendout's statistics in three statements: its respondents by status (with those opted out through its links),
//! the funnel of the reached respondents with the median time to complete (`percentile_cont`), and the daily series
//! (`generate_series` over the days since the first activation). The answer sets are those of the sendout
//! (`sendout_id = $2`, which `answer_sets_sendout_idx` serves), each matched to its respondent by `respondent_id`.

use canvass_domain::distribution::RespondentStatus;
use canvass_domain::ids::{AccountId, SendoutId};
use canvass_domain::insight::{DailyActivity, SendoutFigures, StatusCounts};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date as SqlDate, Double, Nullable, Text};
use diesel::QueryResult;
use time::Date;

use crate::named::Named;
use crate::prepared::prepared;

/// `$1` account, `$2` sendout: one row per status the sendout's respondents are in.
const BY_STATUS: &str = "\
SELECT r.status, count(*) AS respondents, count(r.opted_out_at) AS opted_out
FROM respondents r
WHERE r.account_id = $1 AND r.sendout_id = $2
GROUP BY r.status";

/// `$1` account, `$2` sendout: the reached respondents (`Sent`, `Released`), those of them with an answer set and
/// with a completed one, and the median seconds from `sent_at` (`added_at` when `Released`) to the first
/// completion (`percentile_cont` interpolates: the mean of the two middle values of an even count; nulls, of
/// respondents who did not complete, are left out).
const FUNNEL: &str = "\
SELECT count(*) AS reached,
       count(f.respondent_id) AS started,
       count(*) FILTER (WHERE f.completed) AS completed,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM
           f.first_completion - CASE WHEN r.status = 'Sent' THEN r.sent_at ELSE r.added_at END)::float8)
           AS median_seconds
FROM respondents r
LEFT JOIN (
    SELECT s.account_id, s.respondent_id, bool_or(s.completed) AS completed,
           min(s.completed_at) FILTER (WHERE s.completed) AS first_completion
    FROM answer_sets s
    WHERE s.account_id = $1 AND s.sendout_id = $2 AND s.respondent_id IS NOT NULL
    GROUP BY s.account_id, s.respondent_id
) f ON f.account_id = r.account_id AND f.respondent_id = r.id
WHERE r.account_id = $1 AND r.sendout_id = $2 AND r.status IN ('Sent', 'Released')";

/// `$1` account, `$2` sendout, `$3` today (UTC): one row per UTC day from the first activation to today.
///
/// `sendouts.activated_at` is the last activation; an activation also stamps `released_at` on each respondent it
/// releases, so the first activation is the earlier of the two (exact whenever the first activation released
/// someone), computed once (`MATERIALIZED`: inlined, it would be computed for each reference). `sent` counts every
/// respondent whose invitation was handed over that day, whatever its status now; `started` and `completed` count
/// reached respondents on the day of their first answer set and first completion.
const DAILY: &str = "\
WITH first_day AS MATERIALIZED (
    SELECT (least(s.activated_at, (
               SELECT min(r.released_at) FROM respondents r WHERE r.account_id = $1 AND r.sendout_id = $2
           )) AT TIME ZONE 'UTC')::date AS day
    FROM sendouts s
    WHERE s.account_id = $1 AND s.id = $2 AND s.activated_at IS NOT NULL),
days AS (
    SELECT first_day.day + n AS day FROM first_day, generate_series(0, $3 - first_day.day) AS n),
sent AS (
    SELECT (r.sent_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
    FROM respondents r
    WHERE r.account_id = $1 AND r.sendout_id = $2 AND r.sent_at IS NOT NULL
    GROUP BY 1),
firsts AS (
    SELECT (min(s.created_at) AT TIME ZONE 'UTC')::date AS started_on,
           (min(s.completed_at) FILTER (WHERE s.completed) AT TIME ZONE 'UTC')::date AS completed_on
    FROM answer_sets s
    JOIN respondents r ON r.account_id = s.account_id AND r.id = s.respondent_id
    WHERE s.account_id = $1 AND s.sendout_id = $2 AND r.account_id = $1 AND r.sendout_id = $2
      AND r.status IN ('Sent', 'Released')
    GROUP BY s.respondent_id),
started AS (
    SELECT started_on AS day, count(*) AS n FROM firsts GROUP BY started_on),
completed AS (
    SELECT completed_on AS day, count(*) AS n FROM firsts WHERE completed_on IS NOT NULL GROUP BY completed_on)
SELECT days.day, coalesce(sent.n, 0) AS sent, coalesce(started.n, 0) AS started,
       coalesce(completed.n, 0) AS completed
FROM days
LEFT JOIN sent ON sent.day = days.day
LEFT JOIN started ON started.day = days.day
LEFT JOIN completed ON completed.day = days.day
ORDER BY days.day";

#[derive(QueryableByName)]
struct StatusRow {
    #[diesel(sql_type = Text)]
    status: Named<RespondentStatus>,
    #[diesel(sql_type = BigInt)]
    respondents: i64,
    #[diesel(sql_type = BigInt)]
    opted_out: i64,
}

#[derive(QueryableByName)]
struct FunnelRow {
    #[diesel(sql_type = BigInt)]
    reached: i64,
    #[diesel(sql_type = BigInt)]
    started: i64,
    #[diesel(sql_type = BigInt)]
    completed: i64,
    #[diesel(sql_type = Nullable<Double>)]
    median_seconds: Option<f64>,
}

#[derive(QueryableByName)]
struct DayRow {
    #[diesel(sql_type = SqlDate)]
    day: Date,
    #[diesel(sql_type = BigInt)]
    sent: i64,
    #[diesel(sql_type = BigInt)]
    started: i64,
    #[diesel(sql_type = BigInt)]
    completed: i64,
}

/// The figures of the sendout's statistics.
pub(super) fn figures(
    conn: &mut PgConnection,
    account: AccountId,
    sendout: SendoutId,
    today: Date,
) -> QueryResult<SendoutFigures> {
    let statuses: Vec<StatusRow> =
        prepared(BY_STATUS).bind::<BigInt, _>(account.get()).bind::<BigInt, _>(sendout.get()).load(conn)?;
    let funnel: FunnelRow =
        prepared(FUNNEL).bind::<BigInt, _>(account.get()).bind::<BigInt, _>(sendout.get()).get_result(conn)?;
    let days: Vec<DayRow> = prepared(DAILY)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .bind::<SqlDate, _>(today)
        .load(conn)?;
    Ok(SendoutFigures {
        by_status: StatusCounts::of(statuses.iter().map(|row| (row.status.0, row.respondents))),
        opted_out: statuses.iter().map(|row| row.opted_out).sum(),
        reached: funnel.reached,
        started: funnel.started,
        completed: funnel.completed,
        median_seconds_to_complete: funnel.median_seconds,
        daily: days
            .into_iter()
            .map(|row| DailyActivity { date: row.day, sent: row.sent, started: row.started, completed: row.completed })
            .collect(),
    })
}
