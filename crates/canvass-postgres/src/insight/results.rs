//! A survey's results in one pass over the answers of the sets that pass the filter: the sets per group, then per
//! group, item and distinct value how many answers hold it, which the domain reads by the items' types
//! ([`ValueTallies`]: the options of choice items, ratings, dates, Matrix cells, Ranking places, the numbers of
//! Numeric items with their median and histogram). The distinct values are few (the options of an item, its
//! ratings, the numbers people gave), so a survey of any size returns a few thousand rows at most; the answers to
//! OpenText items are left out of that pass (each text would be its own value) and read row by row, where they are
//! counted and their words with them.
//! Before, one statement per kind of figure read the same answers again (items, values, shapes, words, histograms,
//! quoted texts): six passes where one does (docs/decisions.md, "One pass over the answers").
//!
//! The statements apply the filter as [`crate::answer::filtered`] does, in SQL with null parameters for the
//! filters not given (one statement text for every filter): `from` and `to` on `created_at`, `updated` on
//! `updated_at`, `completed`, and the sendout.

use std::collections::HashMap;

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, AnswerSetId, QuestionItemId, SurveyId};
use canvass_domain::insight::ports::OpenTextVisit;
use canvass_domain::insight::{Breakdown, ResultTallies, TallyGroup, ValueTallies};
use canvass_domain::survey::{QuestionTree, QuestionType};
use diesel::pg::PgRowByRowLoadingMode;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Jsonb, Nullable, Text, Timestamptz};
use diesel::QueryResult;

use crate::answer::conditions::conditions_json;
use crate::prepared::{prepared, Bound, Prepared};
use serde_json::Value;
use time::OffsetDateTime;

/// The filter on the answer sets `s`: `$1` account, `$2` survey, `$3` created from, `$4` created to, `$5` updated
/// since, `$6` completed only, `$7` sendout, `$8` language (each null, or false, when not given), `$9` the answer
/// conditions (`[]` for none).
macro_rules! passing_the_filter {
    () => {
        concat!(
            "
    WHERE s.account_id = $1 AND s.survey_id = $2
      AND ($3::timestamptz IS NULL OR s.created_at >= $3)
      AND ($4::timestamptz IS NULL OR s.created_at <= $4)
      AND ($5::timestamptz IS NULL OR s.updated_at >= $5)
      AND (NOT $6 OR s.completed)
      AND ($7::bigint IS NULL OR s.sendout_id = $7)
      AND ($8::text IS NULL OR s.language = $8)
      AND (jsonb_array_length($9::jsonb) = 0 OR ",
            crate::answer::conditions::meeting_the_conditions!("s", "$9", "$1"),
            ")"
        )
    };
}

/// Without a breakdown: the answer sets that pass the filter, all in the whole. Not materialized, so the planner
/// reads `answer_sets` with its statistics (`$10` and `$11`, the breakdown, are bound and unused).
macro_rules! all_sets {
    () => {
        concat!(
            "
WITH sets AS NOT MATERIALIZED (
    SELECT s.id, true AS whole, NULL::text AS key
    FROM answer_sets s",
            passing_the_filter!(),
            ")"
        )
    };
}

/// With a breakdown: the answer sets that pass the filter, each twice: in the whole (`whole`, no key) and in its
/// group (`key`, null for no value). `$10` the breakdown (`item`, `label`, `language`, `sendout`) and `$11` its item
/// or label. A rating key is its number without trailing zeros (`7`, never `7.0`); a set whose respondent has no
/// cell under the label, or no respondent, has no key. Materialized: each set's key is read once per statement.
macro_rules! grouped_sets {
    () => {
        concat!(
            "
WITH sets AS MATERIALIZED (
    SELECT s.id, g.whole, g.key
    FROM answer_sets s
    CROSS JOIN LATERAL (
        SELECT true AS whole, NULL::text AS key
      UNION ALL
        SELECT false, CASE $10::text
            WHEN 'language' THEN s.language
            WHEN 'sendout' THEN s.sendout_id::text
            WHEN 'item' THEN (
                SELECT CASE jsonb_typeof(b.value)
                    WHEN 'string' THEN b.value #>> '{}' WHEN 'number' THEN trim_scale((b.value)::numeric)::text END
                FROM answers b
                WHERE b.account_id = $1 AND b.answer_set_id = s.id AND b.question_item_id = $11::bigint)
            WHEN 'label' THEN (
                SELECT r.background_data ->> ($11::bigint)::text
                FROM respondents r
                WHERE r.account_id = $1 AND r.id = s.respondent_id)
            END) AS g",
            passing_the_filter!(),
            ")"
        )
    };
}

/// The answers of the filtered sets, each with its set's group.
macro_rules! answers_of_sets {
    () => {
        "
    FROM sets s
    JOIN answers a ON a.account_id = $1 AND a.answer_set_id = s.id"
    };
}

/// The answers' rows of the account (the join already says so; the statement check wants every table pinned).
macro_rules! of_the_account {
    () => {
        "
    WHERE a.account_id = $1"
    };
}

/// Per group, how many sets it holds.
macro_rules! sets_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            "
SELECT whole, key, count(*) AS n FROM sets GROUP BY whole, key"
        )
    };
}
/// Without and with a breakdown.
const SETS: [&str; 2] = [sets_statement!(all_sets!()), sets_statement!(grouped_sets!())];

/// Per group, item and value, the answers that hold it, of the items `$12`: every item but the OpenText ones, whose
/// answers the texts' statement reads ([`TEXTS`]), so each answer is read once. jsonb hashes and compares by value
/// (`1` and `1.0` are one number); [`ValueTallies`] reads the values by their items' types.
///
/// `$group` is what groups the sets: nothing without a breakdown (the whole is one group, and a constant in `GROUP
/// BY` doubles the planner's estimate of the groups, which made it sort 3 million rows on disk instead of hashing
/// them), the set's `whole` and `key` with one.
macro_rules! values_statement {
    ($sets:expr, $select:expr, $group:expr) => {
        concat!(
            $sets,
            "
SELECT ",
            $select,
            ", a.question_item_id AS item, a.value, count(*) AS n",
            answers_of_sets!(),
            of_the_account!(),
            "
  AND a.question_item_id = ANY($12)
GROUP BY ",
            $group,
            "a.question_item_id, a.value"
        )
    };
}
/// Without and with a breakdown.
const VALUES: [&str; 2] = [
    values_statement!(all_sets!(), "true AS whole, NULL::text AS key", ""),
    values_statement!(grouped_sets!(), "s.whole, s.key", "s.whole, s.key, "),
];

/// Per group, the answers to the OpenText items `$12` with their sets and texts (null for a value that is not one),
/// read row by row: the answers are counted, the words are
/// counted and the latest texts kept as they come ([`canvass_domain::insight::TextTallies`]), which no SQL of
/// ours does as fast (splitting and grouping millions of words took seconds in the database where counting them
/// here takes a tenth; docs/decisions.md, "Counting words").
macro_rules! texts_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            "
SELECT s.whole, s.key, a.question_item_id AS item, s.id AS answer_set,
       CASE WHEN jsonb_typeof(a.value) = 'string' THEN a.value #>> '{}' END AS text",
            answers_of_sets!(),
            of_the_account!(),
            "
  AND a.question_item_id = ANY($12)"
        )
    };
}
/// Without and with a breakdown.
const TEXTS: [&str; 2] = [texts_statement!(all_sets!()), texts_statement!(grouped_sets!())];

#[derive(QueryableByName)]
struct ValueRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Nullable<Jsonb>)]
    value: Option<Value>,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct TextRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = BigInt)]
    answer_set: i64,
    #[diesel(sql_type = Nullable<Text>)]
    text: Option<String>,
}

#[derive(QueryableByName)]
struct SetsRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// A row's group.
fn group_of(whole: bool, key: Option<String>) -> TallyGroup {
    if whole {
        TallyGroup::Whole
    } else {
        TallyGroup::Key(key)
    }
}

/// The ids of the tree's OpenText items (`true`: what [`TEXTS`] reads) or of the others (`false`: what [`VALUES`]
/// reads).
fn item_ids(tree: &QuestionTree, open_text: bool) -> Vec<i64> {
    let items = tree.items().filter(|item| (item.kind == QuestionType::OpenText) == open_text);
    items.map(|item| item.id.get()).collect()
}

type Stamp = Option<OffsetDateTime>;
/// A statement with the account and survey bound (`$1`, `$2`).
type OfSurvey = Bound<Bound<Prepared, i64, BigInt>, i64, BigInt>;
/// ... and the dates (`$3` to `$5`).
type Dated = Bound<
    Bound<Bound<OfSurvey, Stamp, Nullable<Timestamptz>>, Stamp, Nullable<Timestamptz>>,
    Stamp,
    Nullable<Timestamptz>,
>;
/// ... and completion, sendout and language (`$6` to `$8`).
type Narrowed =
    Bound<Bound<Bound<Dated, bool, Bool>, Option<i64>, Nullable<BigInt>>, Option<&'static str>, Nullable<Text>>;
/// A statement of the filter's parameters `$1` to `$11` ([`passing_the_filter`], [`grouped_sets`]).
type Filtered =
    Bound<Bound<Bound<Narrowed, Value, Jsonb>, Option<&'static str>, Nullable<Text>>, Option<i64>, Nullable<BigInt>>;

/// The breakdown as the statements bind it: its kind and its item or label.
fn breakdown_params(breakdown: Option<Breakdown>) -> (Option<&'static str>, Option<i64>) {
    match breakdown {
        None => (None, None),
        Some(Breakdown::Item(item)) => (Some("item"), Some(item.get())),
        Some(Breakdown::Label(label)) => (Some("label"), Some(label.get())),
        Some(Breakdown::Language) => (Some("language"), None),
        Some(Breakdown::Sendout) => (Some("sendout"), None),
    }
}

/// The statement of the pair (without and with a breakdown) that fits, with the filter's and the breakdown's
/// parameters bound, for the tree's survey.
fn bound(
    statements: [&'static str; 2],
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    breakdown: Option<Breakdown>,
) -> Filtered {
    let (kind, id) = breakdown_params(breakdown);
    prepared(statements[usize::from(breakdown.is_some())])
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Nullable<Timestamptz>, _>(filter.created_from)
        .bind::<Nullable<Timestamptz>, _>(filter.created_to)
        .bind::<Nullable<Timestamptz>, _>(filter.updated_since)
        .bind::<Bool, _>(filter.completed_only)
        .bind::<Nullable<BigInt>, _>(filter.sendout_id.map(|sendout| sendout.get()))
        .bind::<Nullable<Text>, _>(filter.language.map(|language| language.code()))
        .bind::<Jsonb, _>(conditions_json(filter))
        .bind::<Nullable<Text>, _>(kind)
        .bind::<Nullable<BigInt>, _>(id)
}

/// Hands each answer to the tree's OpenText items in the sets that pass the filter to `visit`, row by row
/// ([`TEXTS`]): libpq gives one row at a time, so the texts are never all in memory together.
pub(super) fn texts(
    conn: &mut PgConnection,
    account: AccountId,
    tree: &QuestionTree,
    filter: &AnswerFilter,
    breakdown: Option<Breakdown>,
    visit: &mut OpenTextVisit<'_>,
) -> QueryResult<()> {
    let open_text = item_ids(tree, true);
    if open_text.is_empty() {
        return Ok(());
    }
    let query = bound(TEXTS, account, tree.survey_id, filter, breakdown).bind::<Array<BigInt>, _>(&open_text);
    let rows = query.load_iter::<TextRow, PgRowByRowLoadingMode>(conn)?;
    for row in rows {
        let row = row?;
        let group = group_of(row.whole, row.key);
        visit(&group, QuestionItemId::new(row.item), AnswerSetId::new(row.answer_set), row.text.as_deref());
    }
    Ok(())
}

/// The tallies of the tree's items but its OpenText ones over the answer sets of its survey that pass the filter, in
/// the whole and per group of the breakdown: two statements, the sets per group ([`SETS`]) and the values per group
/// and item ([`VALUES`]).
pub(super) fn tallies(
    conn: &mut PgConnection,
    account: AccountId,
    tree: &QuestionTree,
    filter: &AnswerFilter,
    breakdown: Option<Breakdown>,
) -> QueryResult<Vec<(TallyGroup, ResultTallies)>> {
    let filtered = |sql| bound(sql, account, tree.survey_id, filter, breakdown);
    let sets: Vec<SetsRow> = filtered(SETS).load(conn)?;
    if sets.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<ValueRow> = filtered(VALUES).bind::<Array<BigInt>, _>(item_ids(tree, false)).load(conn)?;
    let mut groups: Vec<(TallyGroup, i64, ValueTallies<'_>)> =
        sets.into_iter().map(|row| (group_of(row.whole, row.key), row.n, ValueTallies::new(tree))).collect();
    // A breakdown by a background label may have thousands of groups: each row finds its own by key, not by search.
    let at: HashMap<TallyGroup, usize> =
        groups.iter().enumerate().map(|(at, (group, ..))| (group.clone(), at)).collect();
    for row in rows {
        if let Some(&at) = at.get(&group_of(row.whole, row.key)) {
            groups[at].2.add(QuestionItemId::new(row.item), row.value.as_ref(), row.n);
        }
    }
    Ok(groups.into_iter().map(|(group, sets, tallies)| (group, tallies.finish(sets))).collect())
}
