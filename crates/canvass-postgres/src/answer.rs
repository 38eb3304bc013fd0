//! Answer sets and answers on PostgreSQL.

mod background;
pub(crate) mod conditions;
mod held;
mod page;
mod visits;
mod writes;

use std::collections::HashMap;

use canvass_domain::answer::export::BackgroundCell;
use canvass_domain::answer::ports::{ANSWER_BYTES, ANSWER_SET_BYTES};
use canvass_domain::answer::{Answer, AnswerFilter, AnswerSet, AnswerSetDraft, AnswerValue, ReplacedAnswerSet};
use canvass_domain::chunks::{ChunkRequest, Weighed};
use canvass_domain::ids::{AccountId, AnswerSetId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use canvass_domain::paging::{Page, PageRequest};
use canvass_domain::ports::{AnswerRepository, RepoResult};
use canvass_domain::survey::ShownOrder;
use diesel::dsl::sql;
use diesel::expression::{SqlLiteral, UncheckedBind};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt};
use serde_json::Value;
use time::OffsetDateTime;

use canvass_domain::language::Language;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::prepared::prepared;
use crate::schema::{answer_sets, answers, question_items, survey_pages};
use crate::PgUnitOfWork;

/// An answer set's row, as the DSL selects it and as hand-written statements return it.
#[derive(Queryable, Selectable, QueryableByName)]
#[diesel(table_name = answer_sets)]
pub(crate) struct AnswerSetRow {
    id: i64,
    survey_id: i64,
    respondent_id: Option<i64>,
    sendout_id: Option<i64>,
    completed: bool,
    quota_full: bool,
    shown_order: Option<Value>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    language: Option<Named<Language>>,
}

impl AnswerSetRow {
    /// The set's id.
    pub(crate) fn id(&self) -> i64 {
        self.id
    }
}

impl From<AnswerSetRow> for AnswerSet {
    fn from(row: AnswerSetRow) -> Self {
        Self {
            id: AnswerSetId::new(row.id),
            survey_id: SurveyId::new(row.survey_id),
            respondent_id: row.respondent_id.map(RespondentId::new),
            sendout_id: row.sendout_id.map(SendoutId::new),
            completed: row.completed,
            quota_full: row.quota_full,
            shown_order: row.shown_order.as_ref().map(ShownOrder::from_json).unwrap_or_default(),
            created_at: row.created_at,
            updated_at: row.updated_at,
            language: row.language.map(|language| language.0),
            answers: Vec::new(),
        }
    }
}

fn value_of(json: Value) -> AnswerValue {
    match json {
        Value::Number(number) => AnswerValue::Number(number.as_f64().unwrap_or_default()),
        Value::Array(items) => {
            AnswerValue::Choices(items.into_iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
        }
        Value::String(text) => AnswerValue::Text(text),
        Value::Object(rows) => AnswerValue::Rows(
            rows.into_iter().filter_map(|(row, option)| Some((row, option.as_str()?.to_owned()))).collect(),
        ),
        other => AnswerValue::Text(other.to_string()),
    }
}

pub(crate) type BoxedSets<'a> = answer_sets::BoxedQuery<'a, Pg>;

/// The answer sets of a survey that pass the filter.
pub(crate) fn filtered(account: AccountId, survey: SurveyId, filter: &AnswerFilter) -> BoxedSets<'static> {
    let mut query = answer_sets::table
        .filter(answer_sets::account_id.eq(account.get()).and(answer_sets::survey_id.eq(survey.get())))
        .into_boxed();
    if let Some(from) = filter.created_from {
        query = query.filter(answer_sets::created_at.ge(from));
    }
    if let Some(to) = filter.created_to {
        query = query.filter(answer_sets::created_at.le(to));
    }
    if let Some(since) = filter.updated_since {
        query = query.filter(answer_sets::updated_at.ge(since));
    }
    if filter.completed_only {
        query = query.filter(answer_sets::completed.eq(true));
    }
    if let Some(sendout) = filter.sendout_id {
        query = query.filter(answer_sets::sendout_id.eq(sendout.get()));
    }
    if let Some(language) = filter.language {
        query = query.filter(answer_sets::language.eq(language.code()));
    }
    conditions::meeting(query, account, filter)
}

/// What an answer set weighs before it is read (the domain's [`AnswerRepository::weigh_answer_sets`]): its row,
/// and each of its answers with the length of its value as JSON text. Its answers are summed where they lie, so the
/// weight is known before any of them is read. The answers are pinned to the account as a parameter: Citus routes
/// the correlated subquery beside the answer conditions' only when each table names the account itself.
fn weight(account: AccountId) -> Weight {
    sql::<BigInt>(&format!(
        "({ANSWER_SET_BYTES} + (SELECT coalesce(sum({ANSWER_BYTES} + octet_length(weighed.value::text)), 0) \
         FROM answers AS weighed WHERE weighed.account_id = "
    ))
    .bind::<BigInt, _>(account.get())
    .sql(" AND weighed.answer_set_id = answer_sets.id))::bigint")
}

/// The weight's expression ([`weight`]).
type Weight = SqlLiteral<BigInt, UncheckedBind<SqlLiteral<BigInt>, diesel::dsl::AsExprOf<i64, BigInt>>>;

/// A set's id and weight as the domain takes them.
fn weighed((id, bytes): (i64, i64)) -> Weighed<AnswerSetId> {
    Weighed { key: AnswerSetId::new(id), bytes: u64::try_from(bytes).unwrap_or(0) }
}

impl PgUnitOfWork<'_> {
    /// The rows of one chunk of the survey's sets that pass the filter, in id order.
    fn chunk_rows(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<AnswerSetRow>> {
        // The first chunk starts after the smallest id, so that every chunk of a filter is one statement text.
        let after = request.after_key().map_or(i64::MIN, |id| id.get());
        filtered(account, survey, filter)
            .filter(answer_sets::id.gt(after))
            .order(answer_sets::id)
            .limit(request.limit())
            .select(AnswerSetRow::as_select())
            .load(self.conn)
            .or_repo()
    }

    /// Loads the answers of these sets in one query and attaches them, in question tree order.
    pub(crate) fn with_answers(&mut self, account: AccountId, rows: Vec<AnswerSetRow>) -> RepoResult<Vec<AnswerSet>> {
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let mut by_set: HashMap<i64, Vec<Answer>> = HashMap::new();
        if !ids.is_empty() {
            let loaded: Vec<(i64, i64, Value)> = answers::table
                .inner_join(
                    question_items::table.on(question_items::account_id
                        .eq(answers::account_id)
                        .and(question_items::id.eq(answers::question_item_id))),
                )
                .inner_join(
                    survey_pages::table.on(survey_pages::account_id
                        .eq(question_items::account_id)
                        .and(survey_pages::id.eq(question_items::page_id))),
                )
                .filter(answers::account_id.eq(account.get()).and(answers::answer_set_id.eq_any(&ids)))
                .order((answers::answer_set_id, survey_pages::position, question_items::position))
                .select((answers::answer_set_id, answers::question_item_id, answers::value))
                .load(self.conn)
                .or_repo()?;
            for (set, item, value) in loaded {
                let answer = Answer { question_item_id: QuestionItemId::new(item), value: value_of(value) };
                by_set.entry(set).or_default().push(answer);
            }
        }
        Ok(rows
            .into_iter()
            .map(|row| {
                let answers = by_set.remove(&row.id).unwrap_or_default();
                AnswerSet { answers, ..AnswerSet::from(row) }
            })
            .collect())
    }
}

impl AnswerRepository for PgUnitOfWork<'_> {
    fn insert_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: Option<(RespondentId, SendoutId)>,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<AnswerSet> {
        let row = writes::insert_set(self.conn, account, survey, respondent, draft, now).or_repo()?;
        Ok(AnswerSet { answers: draft.answers().to_vec(), ..AnswerSet::from(row) })
    }

    /// Two statements: the set's lock, then one that writes the set and its answers (see [`writes`]).
    fn replace_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        draft: &AnswerSetDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<ReplacedAnswerSet>> {
        let Some(was_completed) = writes::lock_answer_set(self.conn, account, survey, id).or_repo()? else {
            return Ok(None);
        };
        let row = writes::replace_set(self.conn, account, survey, id, draft, now).or_repo()?;
        let set = |row| AnswerSet { answers: draft.answers().to_vec(), ..AnswerSet::from(row) };
        Ok(row.map(|row| ReplacedAnswerSet { set: set(row), was_completed }))
    }

    fn hold_for_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        writes::hold_for_quota(self.conn, account, survey, id, now).or_repo()?;
        Ok(())
    }

    fn answer_sets_chunk(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<AnswerSet>> {
        let rows = self.chunk_rows(account, survey, filter, request)?;
        Ok(rows.into_iter().map(AnswerSet::from).collect())
    }

    /// One statement: the chunk's ids, each with its weight ([`weight`]).
    fn weigh_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        request: &ChunkRequest<AnswerSetId>,
    ) -> RepoResult<Vec<Weighed<AnswerSetId>>> {
        // The first chunk starts after the smallest id, so that every chunk of a filter is one statement text.
        let after = request.after_key().map_or(i64::MIN, |id| id.get());
        let rows: Vec<(i64, i64)> = filtered(account, survey, filter)
            .filter(answer_sets::id.gt(after))
            .order(answer_sets::id)
            .limit(request.limit())
            .select((answer_sets::id, weight(account)))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(weighed).collect())
    }

    /// Two statements: the count, then the page's ids, each with its weight ([`weight`]).
    fn weigh_answer_set_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<Weighed<AnswerSetId>>> {
        let total_count: i64 = filtered(account, survey, filter).count().get_result(self.conn).or_repo()?;
        let rows: Vec<(i64, i64)> = if page.offset() >= total_count {
            Vec::new()
        } else {
            filtered(account, survey, filter)
                .order(answer_sets::id)
                .offset(page.offset())
                .limit(page.size())
                .select((answer_sets::id, weight(account)))
                .load(self.conn)
                .or_repo()?
        };
        Ok(Page { request: page, items: rows.into_iter().map(weighed).collect(), total_count })
    }

    /// Two statements: the sets, then all their answers ([`PgUnitOfWork::with_answers`]).
    fn answer_sets_with_answers(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        ids: &[AnswerSetId],
    ) -> RepoResult<Vec<AnswerSet>> {
        let ids: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        let rows: Vec<AnswerSetRow> = answer_sets::table
            .filter(
                answer_sets::account_id
                    .eq(account.get())
                    .and(answer_sets::survey_id.eq(survey.get()))
                    .and(answer_sets::id.eq_any(&ids)),
            )
            .order(answer_sets::id)
            .select(AnswerSetRow::as_select())
            .load(self.conn)
            .or_repo()?;
        self.with_answers(account, rows)
    }

    /// One statement: the names of the labels of the sendouts of the sets that pass the filter.
    fn export_label_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
    ) -> RepoResult<Vec<String>> {
        background::label_names(self.conn, account, survey, filter).or_repo()
    }

    /// One statement: the respondents' values, each with its label.
    fn background_cells(
        &mut self,
        account: AccountId,
        respondents: &[RespondentId],
    ) -> RepoResult<Vec<(RespondentId, BackgroundCell)>> {
        background::cells(self.conn, account, respondents).or_repo()
    }

    fn page_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        filter: &AnswerFilter,
        page: PageRequest,
    ) -> RepoResult<Page<AnswerSet>> {
        let total_count: i64 = filtered(account, survey, filter).count().get_result(self.conn).or_repo()?;
        let rows: Vec<AnswerSetRow> = if page.offset() >= total_count {
            Vec::new()
        } else {
            filtered(account, survey, filter)
                .order(answer_sets::id)
                .offset(page.offset())
                .limit(page.size())
                .select(AnswerSetRow::as_select())
                .load(self.conn)
                .or_repo()?
        };
        Ok(Page { request: page, items: self.with_answers(account, rows)?, total_count })
    }

    fn find_answer_set(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: AnswerSetId,
    ) -> RepoResult<Option<AnswerSet>> {
        let row: Option<AnswerSetRow> = answer_sets::table
            .filter(
                answer_sets::account_id
                    .eq(account.get())
                    .and(answer_sets::survey_id.eq(survey.get()))
                    .and(answer_sets::id.eq(id.get())),
            )
            .select(AnswerSetRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(self.with_answers(account, row.into_iter().collect())?.pop())
    }

    fn answer_sets_of_respondent(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<AnswerSet>> {
        let rows: Vec<AnswerSetRow> = answer_sets::table
            .filter(
                answer_sets::account_id
                    .eq(account.get())
                    .and(answer_sets::survey_id.eq(survey.get()))
                    .and(answer_sets::respondent_id.eq(respondent.get())),
            )
            .order(answer_sets::id)
            .select(AnswerSetRow::as_select())
            .load(self.conn)
            .or_repo()?;
        self.with_answers(account, rows)
    }

    fn copy_answer_sets(
        &mut self,
        account: AccountId,
        from: SurveyId,
        to: SurveyId,
        items: &[(QuestionItemId, QuestionItemId)],
    ) -> RepoResult<u64> {
        let (old_items, new_items): (Vec<i64>, Vec<i64>) =
            items.iter().map(|(old, new)| (old.get(), new.get())).unzip();
        // One statement: new ids are drawn for every source set, the sets and their answers are inserted with
        // item ids mapped. Foreign keys are checked at the end of the statement, after both inserts. Each copy
        // names the original it copies (a copy of a copy, the same original), so that an erasure of the person who
        // answered the original reaches it (governance/erasure.rs).
        let copied = prepared(
            "WITH source AS MATERIALIZED ( \
                 SELECT id AS old_id, nextval(pg_get_serial_sequence('answer_sets', 'id')) AS new_id, \
                        completed, quota_full, shown_order, created_at, updated_at, completed_at, \
                        coalesce(copy_of, id) AS original, language \
                 FROM answer_sets WHERE account_id = $1 AND survey_id = $2 ORDER BY id), \
             sets AS ( \
                 INSERT INTO answer_sets (account_id, id, survey_id, completed, quota_full, shown_order, created_at, \
                     updated_at, completed_at, copy_of, language) \
                 SELECT $1, new_id, $3, completed, quota_full, shown_order, created_at, updated_at, completed_at, \
                     original, language \
                 FROM source \
                 ORDER BY old_id) \
             INSERT INTO answers (account_id, answer_set_id, question_item_id, value) \
             SELECT $1, source.new_id, item_map.new_id, answers.value \
             FROM answers \
             JOIN source ON source.old_id = answers.answer_set_id \
             JOIN unnest($4, $5) AS item_map (old_id, new_id) ON item_map.old_id = answers.question_item_id \
             WHERE answers.account_id = $1",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(from.get())
        .bind::<BigInt, _>(to.get())
        .bind::<Array<BigInt>, _>(&old_items)
        .bind::<Array<BigInt>, _>(&new_items)
        .execute(self.conn)
        .or_repo()?;
        Ok(copied as u64)
    }

    fn item_has_answers(&mut self, account: AccountId, item: QuestionItemId) -> RepoResult<bool> {
        held::item_has_answers(self.conn, account, item).or_repo()
    }

    fn values_in_answers(
        &mut self,
        account: AccountId,
        item: QuestionItemId,
        values: &[String],
    ) -> RepoResult<Vec<String>> {
        held::values_in_answers(self.conn, account, item, values).or_repo()
    }
}
