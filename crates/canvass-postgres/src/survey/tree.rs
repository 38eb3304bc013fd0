//! A survey and its whole question tree in one statement: the survey row, with each column of its pages, items and
//! logic rules aggregated into one typed array; the rows are put in the tree's order here.
//!
//! Arrays of scalars come back in PostgreSQL's binary format and decode straight into vectors, with no JSON to
//! parse; an aggregate without `GROUP BY` always yields one row, so a survey without pages reads as empty arrays
//! while an unknown survey (or another account's) yields no row at all. One array per column, not one array of
//! records: a Citus coordinator cannot read back the anonymous records a worker returns ("input of anonymous
//! composite types is not implemented"; docs/scaling.md), and the statement check refuses them.

use canvass_domain::ids::{AccountId, PageId, QuestionItemId, RuleId, SurveyId};
use canvass_domain::survey::{LogicRule, LogicRuleDraft, QuestionTree, QuestionType, RuleDraft, Survey};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Int4, Jsonb, Nullable, Text};
use diesel::QueryResult;
use serde_json::Value;

use super::{assemble_pages, ItemRow, PageRow, SurveyRow};
use crate::named::Named;
use crate::prepared::prepared;

/// The survey, then per table one array a column. The aggregates of one subselect are fed the same rows in the
/// same order, so the n-th elements of its arrays are one row's; the rows are sorted in Rust afterwards (rules by
/// position here, pages and items by `assemble_pages`) rather than by an `ORDER BY` in each aggregate: PostgreSQL 15
/// sorts once per ordered aggregate, fourteen sorts a read, which cost a third of the statement's rate
/// (docs/scaling.md, "Measured on a real cluster"). `$1` is the account, `$2` the survey; every subselect names
/// the account.
const SURVEY_TREE: &str = "\
SELECT s.id, s.name, s.description, s.start_date, s.end_date, s.category_id, s.active, s.created_at, s.updated_at,
       s.thank_you_message, s.tree_version, s.language,
       p.page_ids, p.page_positions, p.page_titles, p.page_randomize_items,
       i.item_ids, i.item_page_ids, i.item_positions, i.item_types, i.item_texts, i.item_required, i.item_options,
       i.item_min_labels, i.item_max_labels, i.item_settings,
       r.rule_ids, r.rule_positions, r.rule_item_ids, r.rule_equals, r.rule_go_to_page_ids, r.rule_conditions
FROM surveys s
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(id), '{}') AS page_ids,
           coalesce(array_agg(position), '{}') AS page_positions,
           coalesce(array_agg(title), '{}') AS page_titles,
           coalesce(array_agg(randomize_items), '{}') AS page_randomize_items
    FROM survey_pages WHERE account_id = $1 AND survey_id = s.id) p
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(id), '{}') AS item_ids,
           coalesce(array_agg(page_id), '{}') AS item_page_ids,
           coalesce(array_agg(position), '{}') AS item_positions,
           coalesce(array_agg(item_type), '{}') AS item_types,
           coalesce(array_agg(text), '{}') AS item_texts,
           coalesce(array_agg(required), '{}') AS item_required,
           coalesce(array_agg(options), '{}') AS item_options,
           coalesce(array_agg(min_label), '{}') AS item_min_labels,
           coalesce(array_agg(max_label), '{}') AS item_max_labels,
           coalesce(array_agg(settings), '{}') AS item_settings
    FROM question_items WHERE account_id = $1 AND survey_id = s.id) i
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(id), '{}') AS rule_ids,
           coalesce(array_agg(position), '{}') AS rule_positions,
           coalesce(array_agg(question_item_id), '{}') AS rule_item_ids,
           coalesce(array_agg(equals), '{}') AS rule_equals,
           coalesce(array_agg(go_to_page_id), '{}') AS rule_go_to_page_ids,
           coalesce(array_agg(rule), '{}') AS rule_conditions
    FROM logic_rules WHERE account_id = $1 AND survey_id = s.id) r
WHERE s.account_id = $1 AND s.id = $2";

/// The pages' columns of [`SURVEY_TREE`].
#[derive(QueryableByName)]
struct PageColumns {
    #[diesel(sql_type = Array<BigInt>)]
    page_ids: Vec<i64>,
    #[diesel(sql_type = Array<Int4>)]
    page_positions: Vec<i32>,
    #[diesel(sql_type = Array<Text>)]
    page_titles: Vec<String>,
    #[diesel(sql_type = Array<Bool>)]
    page_randomize_items: Vec<bool>,
}

/// The items' columns of [`SURVEY_TREE`].
#[derive(QueryableByName)]
struct ItemColumns {
    #[diesel(sql_type = Array<BigInt>)]
    item_ids: Vec<i64>,
    #[diesel(sql_type = Array<BigInt>)]
    item_page_ids: Vec<i64>,
    #[diesel(sql_type = Array<Int4>)]
    item_positions: Vec<i32>,
    #[diesel(sql_type = Array<Text>)]
    item_types: Vec<Named<QuestionType>>,
    #[diesel(sql_type = Array<Text>)]
    item_texts: Vec<String>,
    #[diesel(sql_type = Array<Bool>)]
    item_required: Vec<bool>,
    #[diesel(sql_type = Array<Jsonb>)]
    item_options: Vec<Value>,
    #[diesel(sql_type = Array<Nullable<Text>>)]
    item_min_labels: Vec<Option<String>>,
    #[diesel(sql_type = Array<Nullable<Text>>)]
    item_max_labels: Vec<Option<String>>,
    #[diesel(sql_type = Array<Jsonb>)]
    item_settings: Vec<Value>,
}

/// The rules' columns of [`SURVEY_TREE`].
#[derive(QueryableByName)]
struct RuleColumns {
    #[diesel(sql_type = Array<BigInt>)]
    rule_ids: Vec<i64>,
    #[diesel(sql_type = Array<Int4>)]
    rule_positions: Vec<i32>,
    #[diesel(sql_type = Array<Nullable<BigInt>>)]
    rule_item_ids: Vec<Option<i64>>,
    #[diesel(sql_type = Array<Nullable<Text>>)]
    rule_equals: Vec<Option<String>>,
    #[diesel(sql_type = Array<Nullable<BigInt>>)]
    rule_go_to_page_ids: Vec<Option<i64>>,
    /// A rule on conditions, whole, in the API's shape; null for a go-to-page rule.
    #[diesel(sql_type = Array<Nullable<Jsonb>>)]
    rule_conditions: Vec<Option<Value>>,
}

/// The one row of [`SURVEY_TREE`].
#[derive(QueryableByName)]
struct SurveyTreeRow {
    #[diesel(embed)]
    survey: SurveyRow,
    #[diesel(embed)]
    pages: PageColumns,
    #[diesel(embed)]
    items: ItemColumns,
    #[diesel(embed)]
    rules: RuleColumns,
}

impl PageColumns {
    fn into_rows(self) -> Vec<PageRow> {
        let Self { page_ids, page_positions, page_titles, page_randomize_items } = self;
        page_ids
            .into_iter()
            .zip(page_positions)
            .zip(page_titles)
            .zip(page_randomize_items)
            .map(|(((id, position), title), randomize_items)| PageRow { id, position, title, randomize_items })
            .collect()
    }
}

impl ItemColumns {
    fn into_rows(self) -> Vec<ItemRow> {
        let Self {
            item_ids,
            item_page_ids,
            item_positions,
            item_types,
            item_texts,
            item_required,
            item_options,
            item_min_labels,
            item_max_labels,
            item_settings,
        } = self;
        let mut types = item_types.into_iter();
        let mut texts = item_texts.into_iter();
        let mut required = item_required.into_iter();
        let mut options = item_options.into_iter();
        let mut min_labels = item_min_labels.into_iter();
        let mut max_labels = item_max_labels.into_iter();
        let mut settings = item_settings.into_iter();
        item_ids
            .into_iter()
            .zip(item_page_ids)
            .zip(item_positions)
            .map_while(|((id, page_id), position)| {
                Some(ItemRow {
                    id,
                    page_id,
                    position,
                    item_type: types.next()?,
                    text: texts.next()?,
                    required: required.next()?,
                    options: options.next()?,
                    min_label: min_labels.next()?,
                    max_label: max_labels.next()?,
                    settings: settings.next()?,
                })
            })
            .collect()
    }
}

impl RuleColumns {
    fn into_rules(self) -> Vec<LogicRule> {
        let Self { rule_ids, rule_positions, rule_item_ids, rule_equals, rule_go_to_page_ids, rule_conditions } = self;
        let mut rules: Vec<_> = rule_positions
            .into_iter()
            .zip(rule_ids)
            .zip(rule_item_ids)
            .zip(rule_equals)
            .zip(rule_go_to_page_ids)
            .zip(rule_conditions)
            .filter_map(|(((((position, id), item), equals), page), conditions)| {
                // The table's check keeps one form whole in each row; the JSON was written from a checked rule.
                let rule = match (conditions, item, equals, page) {
                    (Some(conditions), ..) => RuleDraft::from_json(&conditions, "").ok()?,
                    (None, Some(item), Some(equals), Some(page)) => RuleDraft::Equals(LogicRuleDraft {
                        question_item_id: QuestionItemId::new(item),
                        equals,
                        go_to_page_id: PageId::new(page),
                    }),
                    _ => return None,
                };
                Some((position, LogicRule { id: RuleId::new(id), rule, broken: false }))
            })
            .collect();
        rules.sort_unstable_by_key(|(position, _)| *position);
        rules.into_iter().map(|(_, rule)| rule).collect()
    }
}

impl SurveyTreeRow {
    fn into_survey_tree(self) -> (Survey, QuestionTree) {
        let survey = Survey::from(self.survey);
        let pages = assemble_pages(self.pages.into_rows(), self.items.into_rows());
        let tree = QuestionTree::assemble(survey.id, pages, self.rules.into_rules()).at_version(survey.tree_version);
        (survey, tree)
    }
}

/// The account's survey with its question tree, in one cached statement; `None` when the account has no such
/// survey.
pub(crate) fn find_survey_tree(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
) -> QueryResult<Option<(Survey, QuestionTree)>> {
    let row: Option<SurveyTreeRow> = prepared(SURVEY_TREE)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .get_result(conn)
        .optional()?;
    Ok(row.map(SurveyTreeRow::into_survey_tree))
}
