//! What a survey's report reads beyond its results: every sendout's funnel, in one statement. Its histograms and
//! quoted texts come from what the results read ([`super::results`]).

use canvass_domain::ids::{AccountId, SendoutId, SurveyId};
use canvass_domain::insight::SendoutFunnel;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel::QueryResult;

use crate::prepared::prepared;

/// `$1` account, `$2` survey: each sendout of the survey with its respondents, those reached (`Sent`,
/// `Released`), and of those the ones with an answer set and with a completed one.
const FUNNELS: &str = "\
SELECT o.id AS sendout, o.name,
       count(r.id) AS respondents,
       count(r.id) FILTER (WHERE r.status IN ('Sent', 'Released')) AS reached,
       count(f.respondent_id) FILTER (WHERE r.status IN ('Sent', 'Released')) AS started,
       count(f.respondent_id) FILTER (WHERE r.status IN ('Sent', 'Released') AND f.completed) AS completed
FROM sendouts o
LEFT JOIN respondents r ON r.account_id = $1 AND r.sendout_id = o.id
LEFT JOIN (
    SELECT s.respondent_id, bool_or(s.completed) AS completed
    FROM answer_sets s
    WHERE s.account_id = $1 AND s.survey_id = $2 AND s.respondent_id IS NOT NULL
    GROUP BY s.respondent_id
) f ON f.respondent_id = r.id
WHERE o.account_id = $1 AND o.survey_id = $2
GROUP BY o.id, o.name
ORDER BY o.id";

#[derive(QueryableByName)]
struct FunnelRow {
    #[diesel(sql_type = BigInt)]
    sendout: i64,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    respondents: i64,
    #[diesel(sql_type = BigInt)]
    reached: i64,
    #[diesel(sql_type = BigInt)]
    started: i64,
    #[diesel(sql_type = BigInt)]
    completed: i64,
}

/// Every sendout's funnel ([`FUNNELS`]).
pub(super) fn funnels(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
) -> QueryResult<Vec<SendoutFunnel>> {
    let rows: Vec<FunnelRow> =
        prepared(FUNNELS).bind::<BigInt, _>(account.get()).bind::<BigInt, _>(survey.get()).load(conn)?;
    Ok(rows
        .into_iter()
        .map(|row| SendoutFunnel {
            sendout: SendoutId::new(row.sendout),
            name: row.name,
            respondents: row.respondents,
            reached: row.reached,
            started: row.started,
            completed: row.completed,
        })
        .collect())
}
