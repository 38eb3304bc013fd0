//! A survey's results in three statements over the answer sets that pass the filter: their count (the answer
//! lists' own filtered query); per item its answers, with the numbers of the Numeric items summarised (`avg`,
//! `percentile_cont`, `min`, `max`); and per value the choices of the choice items and the ratings of the Rating
//! items.
//!
//! The tree says which items are of which type and which options a choice item has, so the statements read only the
//! answers they need (`question_item_id = ANY(...)`, through `answers_item_idx`) and sort only the numbers. Choices
//! are counted set-based: each answer gives its chosen values (the string of a single choice; the distinct strings
//! of a multiple choice's array, expanded per answer), the values are counted per item once, and the counts are
//! joined to the items' options once, so the cost grows with the answers plus the options, never with their product
//! (docs/decisions.md, "Options per choice item"). The expansion filters the array's elements by their JSON type,
//! which keeps the planner's estimate at a row or so per answer (a bare set-returning function makes it expect a
//! hundred, and compile the statement with JIT). Values are read only where their JSON type fits the item's type,
//! so no stored value can make a cast fail.
//!
//! The two aggregates apply the filter as [`crate::answer::filtered`] does, in SQL with null parameters for the
//! filters not given (one statement text for every filter): `from` and `to` on `created_at`, `updated` on
//! `updated_at`, `completed`, and the sendout.

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, QuestionItemId, SurveyId};
use canvass_domain::insight::{
    Breakdown, CellCount, ChoiceCount, DateTally, ItemTally, NumericSummary, RankTally, RatingCount, ResultTallies,
    TallyGroup, WordTally,
};
use canvass_domain::survey::{QuestionTree, QuestionType};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Double, Jsonb, Nullable, Text, Timestamptz};
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

pub(super) use {all_sets, answers_of_sets, of_the_account, passing_the_filter};

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

/// Per group and item of the tree (`$13`) its answers (hashed, not sorted), and for the Numeric items `$12` the count, mean,
/// median, lowest and highest of their numbers (mean, lowest and highest in `numeric`, exact; the median
/// interpolated in `float8`). A CASE reads the JSON numbers only (a condition in WHERE would not order the cast
/// after it, and would make the planner misjudge the rows).
macro_rules! items_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            ",
answered AS (
    SELECT s.whole, s.key, a.question_item_id AS item, count(*) AS answered",
            answers_of_sets!(),
            of_the_account!(),
            "
      AND a.question_item_id = ANY($13)
    GROUP BY s.whole, s.key, a.question_item_id),
numbers AS (
    SELECT s.whole, s.key, a.question_item_id AS item, count(x.number) AS numbers, avg(x.number)::float8 AS mean,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY x.number::float8) AS median,
           min(x.number)::float8 AS lowest, max(x.number)::float8 AS highest",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL (
        SELECT CASE WHEN jsonb_typeof(a.value) = 'number' THEN (a.value)::numeric END AS number) AS x",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($12)
    GROUP BY s.whole, s.key, a.question_item_id)
SELECT answered.whole, answered.key, answered.item, answered.answered, coalesce(numbers.numbers, 0) AS numbers,
       numbers.mean, numbers.median, numbers.lowest, numbers.highest
FROM answered
LEFT JOIN numbers ON numbers.item = answered.item AND numbers.whole = answered.whole
    AND numbers.key IS NOT DISTINCT FROM answered.key"
        )
    };
}
/// Without and with a breakdown.
const ITEMS: [&str; 2] = [items_statement!(all_sets!()), items_statement!(grouped_sets!())];

/// Per group, the answers that chose each option of the choice items (`$14` item, `$15` option value; values the
/// items no longer offer are left out, options never chosen are missing), and per rating of the Rating items `$16`
/// the answers that gave it (a value that is no number has no rating). `chosen` holds one row per value an answer
/// chose: the string of a SingleChoice item's (`$12`) answer, each distinct string of a MultipleChoice item's
/// (`$13`) array.
macro_rules! values_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            ",
chosen AS (
    SELECT s.whole, s.key, a.question_item_id AS item,
           CASE WHEN jsonb_typeof(a.value) = 'string' THEN a.value #>> '{}' END AS value",
            answers_of_sets!(),
            of_the_account!(),
            "
      AND a.question_item_id = ANY($12)
  UNION ALL
    SELECT s.whole, s.key, a.question_item_id AS item, c.value",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL (
        SELECT DISTINCT e.value #>> '{}' AS value
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a.value) = 'array' THEN a.value ELSE '[]' END) AS e
        WHERE jsonb_typeof(e.value) = 'string') AS c",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($13)),
counted AS (
    SELECT whole, key, item, value, count(*) AS n FROM chosen GROUP BY whole, key, item, value)
    SELECT counted.whole, counted.key, counted.item, counted.value AS choice, NULL::float8 AS rating, counted.n
    FROM counted
    JOIN unnest($14::bigint[], $15::text[]) AS o (item, value) ON o.item = counted.item AND o.value = counted.value
UNION ALL
    SELECT s.whole, s.key, a.question_item_id AS item, NULL AS choice, r.rating, count(*) AS n",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL (
        SELECT CASE WHEN jsonb_typeof(a.value) = 'number' THEN (a.value)::float8 END AS rating) AS r",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($16)
    GROUP BY s.whole, s.key, a.question_item_id, r.rating"
        )
    };
}
/// Without and with a breakdown.
const VALUES: [&str; 2] = [values_statement!(all_sets!()), values_statement!(grouped_sets!())];

/// Per group: per Date item (`$12`) the answers that hold a date and the earliest and latest (as text:
/// `YYYY-MM-DD` sorts as its dates do); per Matrix item (`$13`), row and option value the answers that chose it
/// (each row of an answer's object); per Ranking item (`$14`) and option value the answers that ranked it, the sum
/// of its places (from 1) and how often it came first (each element of an answer's array with its place).
macro_rules! shapes_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            "
    SELECT s.whole, s.key, a.question_item_id AS item, min(d.value) AS first_text, max(d.value) AS second_text,
           count(*) AS n, NULL::float8 AS places, NULL::bigint AS first_places",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL (
        SELECT CASE WHEN jsonb_typeof(a.value) = 'string' AND a.value #>> '{}' <> '' THEN a.value #>> '{}' END
            AS value) AS d",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($12) AND d.value IS NOT NULL
    GROUP BY s.whole, s.key, a.question_item_id
UNION ALL
    SELECT s.whole, s.key, a.question_item_id AS item, c.key AS first_text, c.value #>> '{}' AS second_text,
           count(*) AS n, NULL::float8 AS places, NULL::bigint AS first_places",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(a.value) = 'object' THEN a.value ELSE '{}' END) AS c",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($13) AND jsonb_typeof(c.value) = 'string'
    GROUP BY s.whole, s.key, a.question_item_id, c.key, c.value #>> '{}'
UNION ALL
    SELECT s.whole, s.key, a.question_item_id AS item, NULL AS first_text, e.value #>> '{}' AS second_text,
           count(*) AS n, sum(e.place)::float8 AS places, count(*) FILTER (WHERE e.place = 1) AS first_places",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(a.value) = 'array' THEN a.value ELSE '[]' END)
        WITH ORDINALITY AS e(value, place)",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($14) AND jsonb_typeof(e.value) = 'string'
    GROUP BY s.whole, s.key, a.question_item_id, e.value #>> '{}'"
        )
    };
}
/// Without and with a breakdown.
const SHAPES: [&str; 2] = [shapes_statement!(all_sets!()), shapes_statement!(grouped_sets!())];

/// Per group and OpenText item (`$12`) the words found in the most answers: each answer's distinct words (runs of
/// letters and digits of two characters or more, split at runs of anything else, `(\W|_)+` (the same as
/// `[^[:alnum:]]+`, written without a colon that pgbench would read as a variable), lower-cased, as ICU's root locale reads letters in every script,
/// whatever the database's own locale), without the stop words `$13`, counted per item; the top 25 of each item by
/// count then word in code point order (`COLLATE "C"`), as the domain ranks them. Exactly 25: ties at the 25th are
/// cut here, since a survey's unique words (a number in every answer) would all tie at one answer and come back.
macro_rules! words_statement {
    ($sets:expr) => {
        concat!(
            $sets,
            ",
counted AS (
    SELECT s.whole, s.key, a.question_item_id AS item, w.word, count(*) AS n",
            answers_of_sets!(),
            "
    CROSS JOIN LATERAL (
        SELECT DISTINCT x.word
        FROM regexp_split_to_table(
            lower(CASE WHEN jsonb_typeof(a.value) = 'string' THEN a.value #>> '{}' ELSE '' END COLLATE \"und-x-icu\"),
            '(\\W|_)+') AS x(word)
        WHERE char_length(x.word) >= 2) AS w",
            of_the_account!(),
            "
      AND a.question_item_id = ANY($12)
    GROUP BY s.whole, s.key, a.question_item_id, w.word),
kept AS (
    SELECT c.whole, c.key, c.item, c.word, c.n FROM counted c
    WHERE NOT EXISTS (SELECT FROM unnest($13::text[]) AS stop(word) WHERE stop.word = c.word)),
ranked AS (
    SELECT whole, key, item, word, n,
           row_number() OVER (PARTITION BY whole, key, item ORDER BY n DESC, word COLLATE \"C\") AS place
    FROM kept)
SELECT whole, key, item, word, n FROM ranked WHERE place <= 25"
        )
    };
}
/// Without and with a breakdown.
const WORDS: [&str; 2] = [words_statement!(all_sets!()), words_statement!(grouped_sets!())];

#[derive(QueryableByName)]
struct WordRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Text)]
    word: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct ShapeRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Nullable<Text>)]
    first_text: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    second_text: Option<String>,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = Nullable<Double>)]
    places: Option<f64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    first_places: Option<i64>,
}

#[derive(QueryableByName)]
struct ItemRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = BigInt)]
    answered: i64,
    #[diesel(sql_type = BigInt)]
    numbers: i64,
    #[diesel(sql_type = Nullable<Double>)]
    mean: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    median: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    lowest: Option<f64>,
    #[diesel(sql_type = Nullable<Double>)]
    highest: Option<f64>,
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

#[derive(QueryableByName)]
struct ValueRow {
    #[diesel(sql_type = Bool)]
    whole: bool,
    #[diesel(sql_type = Nullable<Text>)]
    key: Option<String>,
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Nullable<Text>)]
    choice: Option<String>,
    #[diesel(sql_type = Nullable<Double>)]
    rating: Option<f64>,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// What the statements need to know of the tree: the items of each type and the choice items' options.
#[derive(Default)]
struct ItemsByType {
    /// Every item of the tree.
    all: Vec<i64>,
    numeric: Vec<i64>,
    rating: Vec<i64>,
    single_choice: Vec<i64>,
    multiple_choice: Vec<i64>,
    date: Vec<i64>,
    matrix: Vec<i64>,
    ranking: Vec<i64>,
    /// One entry per option of a choice item: the item and the option value.
    option_items: Vec<i64>,
    option_values: Vec<String>,
}

impl ItemsByType {
    fn of(tree: &QuestionTree) -> Self {
        let mut items = Self::default();
        for item in tree.items() {
            let id = item.id.get();
            items.all.push(id);
            match item.kind {
                QuestionType::Numeric => items.numeric.push(id),
                QuestionType::Rating => items.rating.push(id),
                QuestionType::SingleChoice | QuestionType::Dropdown => items.single_choice.push(id),
                QuestionType::MultipleChoice => items.multiple_choice.push(id),
                QuestionType::Date => items.date.push(id),
                QuestionType::Matrix => items.matrix.push(id),
                QuestionType::Ranking => items.ranking.push(id),
                QuestionType::OpenText | QuestionType::Info => {}
            }
            if matches!(item.kind, QuestionType::SingleChoice | QuestionType::Dropdown | QuestionType::MultipleChoice) {
                for option in &item.options {
                    items.option_items.push(id);
                    items.option_values.push(option.value.clone());
                }
            }
        }
        items
    }

    fn has_values(&self) -> bool {
        !(self.option_items.is_empty() && self.rating.is_empty())
    }

    fn has_shapes(&self) -> bool {
        !(self.date.is_empty() && self.matrix.is_empty() && self.ranking.is_empty())
    }
}

/// Adds a row of [`SHAPES`] to the tallies of its item's type.
fn add_shape(tallies: &mut ResultTallies, items: &ItemsByType, row: ShapeRow) {
    let item = QuestionItemId::new(row.item);
    match (row.first_text, row.second_text) {
        (Some(earliest), Some(latest)) if items.date.contains(&row.item) => {
            tallies.dates.push(DateTally { item, count: row.n, earliest, latest });
        }
        (Some(row_value), Some(value)) if items.matrix.contains(&row.item) => {
            tallies.cells.push(CellCount { item, row: row_value, value, count: row.n });
        }
        (None, Some(value)) if items.ranking.contains(&row.item) => tallies.ranks.push(RankTally {
            item,
            value,
            count: row.n,
            places: row.places.unwrap_or_default(),
            first_places: row.first_places.unwrap_or_default(),
        }),
        _ => {}
    }
}

/// A whole rating from 0 to 10, as the domain stores them; `None` for any other number.
fn whole_rating(rating: f64) -> Option<i64> {
    let whole = rating.fract() == 0.0 && (0.0..=10.0).contains(&rating);
    whole.then_some(rating as i64)
}

/// The tallies of each group, in the order the store first met them.
#[derive(Default)]
struct Groups(Vec<(TallyGroup, ResultTallies)>);

impl Groups {
    /// The tallies of the group a row names.
    fn of(&mut self, whole: bool, key: Option<String>) -> &mut ResultTallies {
        let group = if whole { TallyGroup::Whole } else { TallyGroup::Key(key) };
        let at = match self.0.iter().position(|(found, _)| *found == group) {
            Some(at) => at,
            None => {
                self.0.push((group, ResultTallies::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }
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
pub(super) type Filtered =
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
pub(super) fn bound(
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

/// The words of the tree's OpenText items over the answer sets of its survey that pass the filter, in the whole
/// and per group ([`WORDS`]).
pub(super) fn words(
    conn: &mut PgConnection,
    account: AccountId,
    tree: &QuestionTree,
    filter: &AnswerFilter,
    breakdown: Option<Breakdown>,
    stop_words: &[String],
) -> QueryResult<Vec<(TallyGroup, WordTally)>> {
    let open_text: Vec<i64> =
        tree.items().filter(|item| item.kind == QuestionType::OpenText).map(|item| item.id.get()).collect();
    if open_text.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<WordRow> = bound(WORDS, account, tree.survey_id, filter, breakdown)
        .bind::<Array<BigInt>, _>(&open_text)
        .bind::<Array<Text>, _>(stop_words)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let group = if row.whole { TallyGroup::Whole } else { TallyGroup::Key(row.key) };
            (group, WordTally { item: QuestionItemId::new(row.item), word: row.word, count: row.n })
        })
        .collect())
}

/// The tallies of the tree's items over the answer sets of its survey that pass the filter, in the whole and per
/// group of the breakdown.
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
    let mut groups = Groups::default();
    for row in sets {
        groups.of(row.whole, row.key).answer_sets = row.n;
    }
    let items = ItemsByType::of(tree);
    let rows: Vec<ItemRow> =
        filtered(ITEMS).bind::<Array<BigInt>, _>(&items.numeric).bind::<Array<BigInt>, _>(&items.all).load(conn)?;
    for row in rows {
        let numbers = NumericSummary {
            count: row.numbers,
            mean: row.mean,
            median: row.median,
            min: row.lowest,
            max: row.highest,
        };
        let tally = ItemTally { item: QuestionItemId::new(row.item), answered: row.answered, numbers };
        groups.of(row.whole, row.key).items.push(tally);
    }
    if items.has_shapes() {
        let shapes: Vec<ShapeRow> = filtered(SHAPES)
            .bind::<Array<BigInt>, _>(&items.date)
            .bind::<Array<BigInt>, _>(&items.matrix)
            .bind::<Array<BigInt>, _>(&items.ranking)
            .load(conn)?;
        for row in shapes {
            let tallies = groups.of(row.whole, row.key.clone());
            add_shape(tallies, &items, row);
        }
    }
    if items.has_values() {
        let values: Vec<ValueRow> = filtered(VALUES)
            .bind::<Array<BigInt>, _>(&items.single_choice)
            .bind::<Array<BigInt>, _>(&items.multiple_choice)
            .bind::<Array<BigInt>, _>(&items.option_items)
            .bind::<Array<Text>, _>(&items.option_values)
            .bind::<Array<BigInt>, _>(&items.rating)
            .load(conn)?;
        for row in values {
            let item = QuestionItemId::new(row.item);
            let tallies = groups.of(row.whole, row.key);
            match (row.choice, row.rating.and_then(whole_rating)) {
                (Some(value), _) => tallies.choices.push(ChoiceCount { item, value, count: row.n }),
                (None, Some(rating)) => tallies.ratings.push(RatingCount { item, rating, count: row.n }),
                (None, None) => {}
            }
        }
    }
    Ok(groups.0)
}

#[cfg(test)]
mod tests {
    use super::whole_rating;

    #[test]
    fn only_whole_ratings_from_0_to_10_are_read() {
        assert_eq!(whole_rating(7.0), Some(7));
        assert_eq!(whole_rating(0.0), Some(0));
        assert_eq!(whole_rating(10.0), Some(10));
        assert_eq!(whole_rating(7.5), None);
        assert_eq!(whole_rating(11.0), None);
        assert_eq!(whole_rating(-1.0), None);
        assert_eq!(whole_rating(f64::NAN), None);
    }
}
