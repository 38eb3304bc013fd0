//! Writing an answer set with all its answers in one cached statement, whatever their number: the set's row in a
//! data-modifying CTE, the answers from two parallel arrays (`unnest`) in another, the set's row returned.
//!
//! Foreign keys are checked at the end of the statement, after both writes; the CTE that writes the answers reads
//! the set's row from the CTE that wrote it, so it runs after it.

use canvass_domain::answer::AnswerSetDraft;
use canvass_domain::ids::{AccountId, AnswerSetId, RespondentId, SendoutId, SurveyId};
use canvass_domain::language::Language;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Jsonb, Nullable, Text, Timestamptz};
use diesel::QueryResult;
use serde_json::Value;
use time::OffsetDateTime;

use super::AnswerSetRow;
use crate::prepared::prepared;
use crate::schema::answer_sets;

/// `$1` account, `$2` survey, `$3` respondent, `$4` sendout, `$5` completed, `$6` now, `$7` item ids, `$8` values,
/// `$9` language, `$10` the orders shown (NULL when none).
const INSERT_SET: &str = "\
WITH answer_set AS (
    INSERT INTO answer_sets
        (account_id, survey_id, respondent_id, sendout_id, completed, created_at, updated_at, completed_at, language,
         shown_order)
    VALUES ($1, $2, $3, $4, $5, $6, $6, CASE WHEN $5 THEN $6::timestamptz END, $9, $10)
    RETURNING id, survey_id, respondent_id, sendout_id, completed, quota_full, shown_order, created_at, updated_at,
        language),
stored AS (
    INSERT INTO answers (account_id, answer_set_id, question_item_id, value)
    SELECT $1, answer_set.id, given.item, given.value
    FROM answer_set, unnest($7::bigint[], $8::jsonb[]) AS given (item, value))
SELECT id, survey_id, respondent_id, sendout_id, completed, quota_full, shown_order, created_at, updated_at, language
FROM answer_set";

/// `$1` account, `$2` survey, `$3` set, `$4` completed, `$5` now, `$6` item ids, `$7` values, `$8` language.
///
/// `completed_at` keeps the set's first completion: a set reopened and completed again keeps the first time.
///
/// Answers to items no longer given are deleted, the given ones inserted or overwritten: the two touch different
/// rows, so it does not matter in which order PostgreSQL runs them. The delete sees only what was committed when
/// the statement began, so the set must be locked by an earlier statement of the transaction
/// ([`lock_answer_set`]): else a replacement committed while this one waited for the set's row would leave
/// answers behind.
const REPLACE_SET: &str = "\
WITH answer_set AS (
    UPDATE answer_sets
    SET completed = $4, quota_full = false, updated_at = $5, completed_at = coalesce(completed_at, CASE WHEN $4 THEN $5 END), language = $8
    WHERE account_id = $1 AND survey_id = $2 AND id = $3
    RETURNING id, survey_id, respondent_id, sendout_id, completed, quota_full, shown_order, created_at, updated_at,
        language),
given AS (
    SELECT item, value FROM unnest($6::bigint[], $7::jsonb[]) AS given (item, value)),
dropped AS (
    DELETE FROM answers
    WHERE account_id = $1 AND answer_set_id IN (SELECT id FROM answer_set)
      AND NOT EXISTS (SELECT FROM given WHERE given.item = answers.question_item_id)),
stored AS (
    INSERT INTO answers (account_id, answer_set_id, question_item_id, value)
    SELECT $1, answer_set.id, given.item, given.value FROM answer_set, given
    ON CONFLICT (account_id, answer_set_id, question_item_id) DO UPDATE SET value = excluded.value)
SELECT id, survey_id, respondent_id, sendout_id, completed, quota_full, shown_order, created_at, updated_at, language
FROM answer_set";

/// The draft's answers as two parallel arrays: item ids and values.
fn answer_arrays(draft: &AnswerSetDraft) -> (Vec<i64>, Vec<Value>) {
    draft.answers().iter().map(|answer| (answer.question_item_id.get(), answer.value.to_json())).unzip()
}

/// Inserts a set with its answers; returns the set's row.
pub(crate) fn insert_set(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    respondent: Option<(RespondentId, SendoutId)>,
    draft: &AnswerSetDraft,
    now: OffsetDateTime,
) -> QueryResult<AnswerSetRow> {
    let (items, values) = answer_arrays(draft);
    prepared(INSERT_SET)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Nullable<BigInt>, _>(respondent.map(|(r, _)| r.get()))
        .bind::<Nullable<BigInt>, _>(respondent.map(|(_, s)| s.get()))
        .bind::<Bool, _>(draft.completed())
        .bind::<Timestamptz, _>(now)
        .bind::<Array<BigInt>, _>(&items)
        .bind::<Array<Jsonb>, _>(&values)
        .bind::<Nullable<Text>, _>(draft.language().map(Language::code))
        .bind::<Nullable<Jsonb>, _>((!draft.shown_order().is_empty()).then(|| draft.shown_order().to_json()))
        .get_result(conn)
}

/// Locks the survey's set until the transaction ends and reads its completed flag; `None` when the survey has no
/// such set.
pub(crate) fn lock_answer_set(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
) -> QueryResult<Option<bool>> {
    answer_sets::table
        .filter(
            answer_sets::account_id
                .eq(account.get())
                .and(answer_sets::survey_id.eq(survey.get()))
                .and(answer_sets::id.eq(id.get())),
        )
        .select(answer_sets::completed)
        .for_update()
        .first(conn)
        .optional()
}

/// Marks a set a full quota ended: not completed, `quota_full`, and without the `completed_at` this transaction
/// gave it at `now` (a set completed before keeps its first completion).
pub(crate) fn hold_for_quota(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
    now: OffsetDateTime,
) -> QueryResult<usize> {
    let given_now = answer_sets::completed_at.eq(now);
    diesel::update(answer_sets::table)
        .filter(answer_sets::account_id.eq(account.get()))
        .filter(answer_sets::survey_id.eq(survey.get()))
        .filter(answer_sets::id.eq(id.get()))
        .set((
            answer_sets::completed.eq(false),
            answer_sets::quota_full.eq(true),
            answer_sets::completed_at
                .eq(diesel::dsl::case_when(given_now, None::<OffsetDateTime>).otherwise(answer_sets::completed_at)),
        ))
        .execute(conn)
}

/// Replaces a locked set's answers and completed flag and moves its `updatedAt`; `None` when the survey has no
/// such set.
pub(crate) fn replace_set(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    id: AnswerSetId,
    draft: &AnswerSetDraft,
    now: OffsetDateTime,
) -> QueryResult<Option<AnswerSetRow>> {
    let (items, values) = answer_arrays(draft);
    prepared(REPLACE_SET)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<BigInt, _>(id.get())
        .bind::<Bool, _>(draft.completed())
        .bind::<Timestamptz, _>(now)
        .bind::<Array<BigInt>, _>(&items)
        .bind::<Array<Jsonb>, _>(&values)
        .bind::<Nullable<Text>, _>(draft.language().map(Language::code))
        .get_result(conn)
        .optional()
}
