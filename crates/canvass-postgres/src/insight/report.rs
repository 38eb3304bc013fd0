//! What a survey's report reads beyond its results, one statement each: every sendout's funnel; the histograms of
//! the Numeric items (each number's bin computed where it lies, `$12` the layouts as JSON); the latest few texts of
//! the OpenText items (`row_number` per item). The last two read the answer sets that pass the filter as the
//! results do ([`super::results`], `$1` to `$11`, without a breakdown).

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, QuestionItemId, SendoutId, SurveyId};
use canvass_domain::insight::{BinLayout, QuotedTexts, SendoutFunnel};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Integer, Jsonb, Text};
use diesel::QueryResult;
use serde_json::json;

use super::results::{all_sets, answers_of_sets, bound, of_the_account, passing_the_filter};
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

/// `$12` the layouts (`[{item, lower, width, bins}]`): per item and bin, how many numbers fall in it, a number
/// below the first bin in it and one above the last in that ([`BinLayout::bin_of`]).
const BINS: &str = concat!(
    all_sets!(),
    "
SELECT b.item, b.bin, count(*) AS n
FROM (
    SELECT l.item, least(greatest(floor((CASE jsonb_typeof(a.value) WHEN 'number' THEN (a.value)::float8 END
               - l.lower) / l.width), 0), l.bins - 1)::int AS bin",
    answers_of_sets!(),
    "
    JOIN jsonb_to_recordset($12::jsonb) AS l(item bigint, lower float8, width float8, bins int)
        ON l.item = a.question_item_id",
    of_the_account!(),
    " AND jsonb_typeof(a.value) = 'number'
) b
GROUP BY b.item, b.bin"
);

/// `$12` the items, `$13` how many per item: the texts that are not empty, of the latest sets first.
const TEXTS: &str = concat!(
    all_sets!(),
    "
SELECT t.item, t.text
FROM (
    SELECT a.question_item_id AS item, a.value #>> '{}' AS text,
           row_number() OVER (PARTITION BY a.question_item_id ORDER BY s.id DESC) AS nth",
    answers_of_sets!(),
    of_the_account!(),
    " AND a.question_item_id = ANY($12) AND jsonb_typeof(a.value) = 'string' AND a.value <> '\"\"'::jsonb
) t
WHERE t.nth <= $13
ORDER BY t.item, t.nth"
);

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

#[derive(QueryableByName)]
struct BinRow {
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Integer)]
    bin: i32,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct TextRow {
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Text)]
    text: String,
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

/// The numbers per bin of each layout ([`BINS`]).
pub(super) fn bins(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    layouts: &[BinLayout],
) -> QueryResult<Vec<(QuestionItemId, u32, i64)>> {
    let layouts: Vec<_> = layouts
        .iter()
        .map(|l| json!({"item": l.item.get(), "lower": l.lower, "width": l.width, "bins": l.bins}))
        .collect();
    let rows: Vec<BinRow> =
        bound([BINS, BINS], account, survey, filter, None).bind::<Jsonb, _>(json!(layouts)).load(conn)?;
    Ok(rows
        .into_iter()
        .map(|row| (QuestionItemId::new(row.item), u32::try_from(row.bin).unwrap_or(0), row.n))
        .collect())
}

/// The latest texts of each item ([`TEXTS`]).
pub(super) fn texts(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    items: &[QuestionItemId],
    per_item: u32,
) -> QueryResult<Vec<QuotedTexts>> {
    let items: Vec<i64> = items.iter().map(|item| item.get()).collect();
    let rows: Vec<TextRow> = bound([TEXTS, TEXTS], account, survey, filter, None)
        .bind::<Array<BigInt>, _>(&items)
        .bind::<Integer, _>(i32::try_from(per_item).unwrap_or(i32::MAX))
        .load(conn)?;
    let mut quoted: Vec<QuotedTexts> = Vec::new();
    for row in rows {
        let item = QuestionItemId::new(row.item);
        match quoted.last_mut() {
            Some(last) if last.item == item => last.texts.push(row.text),
            _ => quoted.push(QuotedTexts { item, texts: vec![row.text] }),
        }
    }
    Ok(quoted)
}
