//! Answer filters in SQL: a filter's conditions bound as one JSON parameter (`[{item, op, vals: [{t, n}]}]`, each
//! value as text and, where it reads as one, as a number) and one `NOT EXISTS` that no condition fails, so every
//! filter of any number of conditions is one statement text with every value bound.
//!
//! A condition compares the set's answer to its item by the answer's JSON type: a number with the values that are
//! numbers (`jsonb` compares numbers as numbers: `7 = 7.0`), a string with the values as text (dates as
//! `YYYY-MM-DD` order), an array (a MultipleChoice) holds a value for `eq`, `in` and `ne`; any other answer, or
//! none, meets nothing. `ne` holds where `eq` does not, no answer included (the domain's
//! [`AnswerCondition::holds`](canvass_domain::answer::AnswerCondition::holds)).

use canvass_domain::answer::{AnswerCondition, AnswerFilter};
use canvass_domain::ids::AccountId;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Jsonb};
use serde_json::{json, Value};

use super::BoxedSets;

/// That the answer set `$sets` of the account `$account` (a parameter: Citus routes each subquery by its own
/// constant, not by a column of the outer query) meets every condition of the JSON parameter `$conditions`.
macro_rules! meeting_the_conditions {
    ($sets:literal, $conditions:literal, $account:literal) => {
        concat!(
            "NOT EXISTS (
        SELECT FROM jsonb_to_recordset(",
            $conditions,
            "::jsonb) AS w(item bigint, op text, vals jsonb)
        LEFT JOIN answers wa ON wa.account_id = ",
            $account,
            " AND wa.answer_set_id = ",
            $sets,
            ".id AND wa.question_item_id = w.item
        WHERE (w.op = 'ne') = EXISTS (
            SELECT FROM jsonb_array_elements(w.vals) AS v(value)
            WHERE CASE jsonb_typeof(wa.value)
                WHEN 'number' THEN jsonb_typeof((v.value -> 'n')) = 'number' AND CASE w.op
                    WHEN 'gt' THEN wa.value > (v.value -> 'n') WHEN 'lt' THEN wa.value < (v.value -> 'n')
                    ELSE wa.value = (v.value -> 'n') END
                WHEN 'string' THEN CASE w.op
                    WHEN 'gt' THEN wa.value > (v.value -> 't') WHEN 'lt' THEN wa.value < (v.value -> 't')
                    ELSE wa.value = (v.value -> 't') END
                WHEN 'array' THEN w.op IN ('eq', 'ne', 'in') AND wa.value @> (v.value -> 't')
                ELSE false END))"
        )
    };
}
pub(crate) use meeting_the_conditions;

/// The conditions as the statements bind them.
pub(crate) fn conditions_json(filter: &AnswerFilter) -> Value {
    let condition = |condition: &AnswerCondition| {
        let values: Vec<Value> =
            condition.values.iter().map(|value| json!({"t": value, "n": AnswerCondition::number(value)})).collect();
        json!({"item": condition.item.get(), "op": condition.op.as_str(), "vals": values})
    };
    Value::Array(filter.conditions.iter().map(condition).collect())
}

/// The conditions on the rows of `answer_sets`, the parameters' places marked `$W` (the conditions) and `$A` (the
/// account), in that order.
const ON_ANSWER_SETS: &str = meeting_the_conditions!("answer_sets", "$W", "$A");

/// The sets of `query`, of the account, that meet the filter's conditions (all of them when it has none).
pub(crate) fn meeting(query: BoxedSets<'static>, account: AccountId, filter: &AnswerFilter) -> BoxedSets<'static> {
    if filter.conditions.is_empty() {
        return query;
    }
    let (before, rest) = ON_ANSWER_SETS.split_once("$W").unwrap_or((ON_ANSWER_SETS, ""));
    let (middle, after) = rest.split_once("$A").unwrap_or((rest, ""));
    let condition = sql::<Bool>(before)
        .bind::<Jsonb, _>(conditions_json(filter))
        .sql(middle)
        .bind::<BigInt, _>(account.get())
        .sql(after);
    query.filter(condition)
}
