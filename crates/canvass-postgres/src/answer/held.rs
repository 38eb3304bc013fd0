//! What answers to an item hold, asked before a change of the item that they would no longer fit.

use canvass_domain::ids::{AccountId, QuestionItemId};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Text};
use diesel::QueryResult;

use crate::prepared::prepared;
use crate::schema::answers;

/// Those of `$3` that some answer to item `$2` holds: as its whole value (a text or option value), as one of
/// its array's elements (the values of a MultipleChoice or Ranking answer), or as a row or a row's option of a
/// Matrix answer (an object), in the order given. Each value stops at the first answer that holds it, through
/// the answers' index by item.
const VALUES_IN_ANSWERS: &str = "\
SELECT v.value FROM unnest($3::text[]) WITH ORDINALITY AS v(value, n)
WHERE EXISTS (
    SELECT 1 FROM answers a
    WHERE a.account_id = $1 AND a.question_item_id = $2
      AND (a.value = to_jsonb(v.value)
           OR (jsonb_typeof(a.value) = 'array' AND a.value @> jsonb_build_array(v.value))
           OR (jsonb_typeof(a.value) = 'object'
               AND (a.value ? v.value OR EXISTS (SELECT 1 FROM jsonb_each_text(a.value) AS c WHERE c.value = v.value)))))
ORDER BY v.n";

#[derive(QueryableByName)]
struct HeldValue {
    #[diesel(sql_type = Text)]
    value: String,
}

pub(super) fn item_has_answers(conn: &mut PgConnection, account: AccountId, item: QuestionItemId) -> QueryResult<bool> {
    let found: Option<i64> = answers::table
        .filter(answers::account_id.eq(account.get()).and(answers::question_item_id.eq(item.get())))
        .select(answers::answer_set_id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}

pub(super) fn values_in_answers(
    conn: &mut PgConnection,
    account: AccountId,
    item: QuestionItemId,
    values: &[String],
) -> QueryResult<Vec<String>> {
    if values.is_empty() {
        return Ok(Vec::new());
    }
    let held: Vec<HeldValue> = prepared(VALUES_IN_ANSWERS)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(item.get())
        .bind::<Array<Text>, _>(values)
        .load(conn)?;
    Ok(held.into_iter().map(|row| row.value).collect())
}
