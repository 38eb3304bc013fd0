//! A survey and its whole question tree in one statement: the survey row, with its pages, items and logic rules
//! each aggregated into one array of records in the order the tree keeps them.
//!
//! Arrays of records come back in PostgreSQL's binary format and decode straight into typed tuples, with no JSON
//! to parse; an aggregate without `GROUP BY` always yields one row, so a survey without pages reads as empty arrays
//! while an unknown survey (or another account's) yields no row at all.

use canvass_domain::ids::{AccountId, PageId, QuestionItemId, RuleId, SurveyId};
use canvass_domain::survey::{LogicRule, QuestionTree, QuestionType, Survey};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Int4, Jsonb, Record, Text};
use diesel::QueryResult;
use serde_json::Value;

use crate::named::Named;
use crate::prepared::prepared;
use crate::surveys::{assemble_pages, ItemRow, PageRow, SurveyRow};

/// The survey, then per table one array ordered as the tree is: pages and items by position (items are grouped by
/// page afterwards), rules by position. `$1` is the account, `$2` the survey; every subselect names the account.
const SURVEY_TREE: &str = "\
SELECT s.id, s.name, s.description, s.start_date, s.end_date, s.category_id, s.active, s.created_at, s.updated_at,
       p.pages, i.items, r.rules
FROM surveys s
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg((id, position, title) ORDER BY position), '{}') AS pages
    FROM survey_pages WHERE account_id = $1 AND survey_id = s.id) p
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg((id, page_id, position, item_type, text, required, options) ORDER BY position, id), '{}')
        AS items
    FROM question_items WHERE account_id = $1 AND survey_id = s.id) i
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg((id, question_item_id, equals, go_to_page_id) ORDER BY position), '{}') AS rules
    FROM logic_rules WHERE account_id = $1 AND survey_id = s.id) r
WHERE s.account_id = $1 AND s.id = $2";

/// A page as the statement returns it: id, position, title.
type PageRecord = Record<(BigInt, Int4, Text)>;
/// An item: id, page id, position, type, text, required, options.
type ItemRecord = Record<(BigInt, BigInt, Int4, Text, Text, Bool, Jsonb)>;
/// A rule: id, item id, the value it tests, the page it goes to.
type RuleRecord = Record<(BigInt, BigInt, Text, BigInt)>;

/// A [`PageRecord`] read.
type PageFields = (i64, i32, String);
/// An [`ItemRecord`] read.
type ItemFields = (i64, i64, i32, Named<QuestionType>, String, bool, Value);
/// A [`RuleRecord`] read.
type RuleFields = (i64, i64, String, i64);

/// The one row of [`SURVEY_TREE`].
#[derive(QueryableByName)]
struct SurveyTreeRow {
    #[diesel(embed)]
    survey: SurveyRow,
    #[diesel(sql_type = Array<PageRecord>)]
    pages: Vec<PageFields>,
    #[diesel(sql_type = Array<ItemRecord>)]
    items: Vec<ItemFields>,
    #[diesel(sql_type = Array<RuleRecord>)]
    rules: Vec<RuleFields>,
}

impl SurveyTreeRow {
    fn into_survey_tree(self) -> (Survey, QuestionTree) {
        let survey = Survey::from(self.survey);
        let pages = self.pages.into_iter().map(|(id, position, title)| PageRow { id, position, title }).collect();
        let items = self
            .items
            .into_iter()
            .map(|(id, page_id, position, item_type, text, required, options)| ItemRow {
                id,
                page_id,
                position,
                item_type,
                text,
                required,
                options,
            })
            .collect();
        let logic = self
            .rules
            .into_iter()
            .map(|(id, question_item_id, equals, go_to_page_id)| LogicRule {
                id: RuleId::new(id),
                question_item_id: QuestionItemId::new(question_item_id),
                equals,
                go_to_page_id: PageId::new(go_to_page_id),
                broken: false,
            })
            .collect();
        let tree = QuestionTree::assemble(survey.id, assemble_pages(pages, items), logic);
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
