//! A survey's results in three statements over the answer sets that pass the filter: their count (the answer
//! lists' own filtered query), per item the answers and the summary of a Numeric item's numbers (`avg`,
//! `percentile_cont`, `min`, `max`), and per item and value the choices of choice items (a MultipleChoice answer
//! counts each option it chose, through `jsonb_array_elements_text`) and the ratings of Rating items.
//!
//! The two aggregates apply the filter as [`crate::answer::filtered`] does, in SQL with null parameters for the
//! filters not given (one statement text for every filter): `from` and `to` on `created_at`, `updated` on
//! `updated_at`, `completed`, and the sendout. Values are read only where their JSON type fits the item's type,
//! so no stored value can make a cast fail.

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::{AccountId, QuestionItemId, SurveyId};
use canvass_domain::insight::{ChoiceCount, ItemTally, NumericSummary, RatingCount, ResultTallies};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Double, Nullable, Text, Timestamptz};
use diesel::QueryResult;

use crate::answer::filtered;
use crate::prepared::prepared;

/// The answers of the survey's answer sets, each with its item.
macro_rules! answers_with_items {
    () => {
        "
FROM answer_sets s
JOIN answers a ON a.account_id = s.account_id AND a.answer_set_id = s.id
JOIN question_items q ON q.account_id = a.account_id AND q.id = a.question_item_id"
    };
}

/// The filter: `$1` account, `$2` survey, `$3` created from, `$4` created to, `$5` updated since, `$6` completed
/// only, `$7` sendout (each null, or false, when not given).
macro_rules! passing_the_filter {
    () => {
        "
WHERE s.account_id = $1 AND s.survey_id = $2 AND a.account_id = $1 AND q.account_id = $1 AND q.survey_id = $2
  AND ($3::timestamptz IS NULL OR s.created_at >= $3)
  AND ($4::timestamptz IS NULL OR s.created_at <= $4)
  AND ($5::timestamptz IS NULL OR s.updated_at >= $5)
  AND (NOT $6 OR s.completed)
  AND ($7::bigint IS NULL OR s.sendout_id = $7)"
    };
}

/// Per answered item: its answers, and the count, mean, median, lowest and highest of a Numeric item's numbers
/// (mean, lowest and highest in `numeric`, exact; the median interpolated in `float8`). Each answer's number is a
/// lateral column, a CASE that casts JSON numbers only.
const ITEMS: &str = concat!(
    "
SELECT a.question_item_id AS item, count(*) AS answered, count(x.number) AS numbers,
       avg(x.number)::float8 AS mean,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY x.number::float8) AS median,
       min(x.number)::float8 AS lowest, max(x.number)::float8 AS highest",
    answers_with_items!(),
    "
CROSS JOIN LATERAL (
    SELECT CASE WHEN q.item_type = 'Numeric' AND jsonb_typeof(a.value) = 'number' THEN (a.value)::numeric END
        AS number
) AS x",
    passing_the_filter!(),
    "
GROUP BY a.question_item_id"
);

/// Per choice or Rating item and value: how many answers chose each option value (a SingleChoice answer is read as
/// an array of one) or gave each rating. A row with neither (an empty MultipleChoice answer) counts nothing.
const VALUES: &str = concat!(
    "
SELECT a.question_item_id AS item, picked.choice,
       CASE WHEN q.item_type = 'Rating' AND jsonb_typeof(a.value) = 'number' THEN (a.value)::float8 END AS rating,
       count(*) AS n",
    answers_with_items!(),
    "
LEFT JOIN LATERAL jsonb_array_elements_text(
    CASE WHEN q.item_type = 'SingleChoice' AND jsonb_typeof(a.value) = 'string' THEN jsonb_build_array(a.value)
         WHEN q.item_type = 'MultipleChoice' AND jsonb_typeof(a.value) = 'array' THEN a.value END
) AS picked (choice) ON true",
    passing_the_filter!(),
    "
  AND q.item_type IN ('SingleChoice', 'MultipleChoice', 'Rating')
GROUP BY 1, 2, 3"
);

#[derive(QueryableByName)]
struct ItemRow {
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
struct ValueRow {
    #[diesel(sql_type = BigInt)]
    item: i64,
    #[diesel(sql_type = Nullable<Text>)]
    choice: Option<String>,
    #[diesel(sql_type = Nullable<Double>)]
    rating: Option<f64>,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// A whole rating from 0 to 10, as the domain stores them; `None` for any other number.
fn whole_rating(rating: f64) -> Option<i64> {
    let whole = rating.fract() == 0.0 && (0.0..=10.0).contains(&rating);
    whole.then_some(rating as i64)
}

/// The tallies of the survey's answer sets that pass the filter.
pub(super) fn tallies(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
) -> QueryResult<ResultTallies> {
    let answer_sets: i64 = filtered(account, survey, filter).count().get_result(conn)?;
    if answer_sets == 0 {
        return Ok(ResultTallies::default());
    }
    let sendout = filter.sendout_id.map(|sendout| sendout.get());
    let bind = |sql| {
        prepared(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(survey.get())
            .bind::<Nullable<Timestamptz>, _>(filter.created_from)
            .bind::<Nullable<Timestamptz>, _>(filter.created_to)
            .bind::<Nullable<Timestamptz>, _>(filter.updated_since)
            .bind::<Bool, _>(filter.completed_only)
            .bind::<Nullable<BigInt>, _>(sendout)
    };
    let items: Vec<ItemRow> = bind(ITEMS).load(conn)?;
    let values: Vec<ValueRow> = bind(VALUES).load(conn)?;
    let mut tallies = ResultTallies { answer_sets, ..ResultTallies::default() };
    tallies.items = items
        .into_iter()
        .map(|row| ItemTally {
            item: QuestionItemId::new(row.item),
            answered: row.answered,
            numbers: NumericSummary {
                count: row.numbers,
                mean: row.mean,
                median: row.median,
                min: row.lowest,
                max: row.highest,
            },
        })
        .collect();
    for row in values {
        let item = QuestionItemId::new(row.item);
        match (row.choice, row.rating.and_then(whole_rating)) {
            (Some(value), _) => tallies.choices.push(ChoiceCount { item, value, count: row.n }),
            (None, Some(rating)) => tallies.ratings.push(RatingCount { item, rating, count: row.n }),
            (None, None) => {}
        }
    }
    Ok(tallies)
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
