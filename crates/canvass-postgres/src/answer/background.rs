//! The background data of an answer export: the label names that head its columns, and the values of one chunk's
//! respondents, each read in one statement.

use canvass_domain::answer::export::BackgroundCell;
use canvass_domain::answer::AnswerFilter;
use canvass_domain::distribution::{LabelType, BACKGROUND_FUNCTION};
use canvass_domain::ids::{AccountId, RespondentId, SurveyId};
use diesel::dsl::min;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Text};

use super::filtered;
use crate::named::Named;
use crate::prepared::prepared;
use crate::schema::{answer_sets, bg_labels};

/// The names of the background data labels of the sendouts whose sets of the survey pass the filter, each once,
/// in the order the first label of each name was made.
pub(super) fn label_names(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
) -> QueryResult<Vec<String>> {
    let sendouts = filtered(account, survey, filter).select(answer_sets::sendout_id);
    bg_labels::table
        .filter(bg_labels::account_id.eq(account.get()))
        .filter(bg_labels::function.eq(BACKGROUND_FUNCTION))
        .filter(bg_labels::sendout_id.nullable().eq_any(sendouts))
        .group_by(bg_labels::name)
        .order(min(bg_labels::id))
        .select(bg_labels::name)
        .load(conn)
}

/// One value of a respondent's background data, with its label.
#[derive(QueryableByName)]
struct CellRow {
    #[diesel(sql_type = BigInt)]
    respondent_id: i64,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    label_type: Named<LabelType>,
    #[diesel(sql_type = Text)]
    value: String,
}

/// The respondents' background data (a JSON object from label id to value), one row per value, with its label.
const CELLS: &str = "SELECT r.id AS respondent_id, l.name, l.label_type, cell.value \
     FROM respondents AS r CROSS JOIN LATERAL jsonb_each_text(r.background_data) AS cell (key, value) \
     JOIN bg_labels AS l ON l.account_id = r.account_id AND l.id = cell.key::bigint \
     WHERE r.account_id = $1 AND r.id = ANY($2)";

/// The background data of these respondents of the account, each value with its label's name and type.
pub(super) fn cells(
    conn: &mut PgConnection,
    account: AccountId,
    respondents: &[RespondentId],
) -> QueryResult<Vec<(RespondentId, BackgroundCell)>> {
    let ids: Vec<i64> = respondents.iter().map(|id| id.get()).collect();
    let rows: Vec<CellRow> =
        prepared(CELLS).bind::<BigInt, _>(account.get()).bind::<Array<BigInt>, _>(&ids).load(conn)?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let cell = BackgroundCell { name: row.name, label_type: row.label_type.0, value: row.value };
            (RespondentId::new(row.respondent_id), cell)
        })
        .collect())
}
