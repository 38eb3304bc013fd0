//! Surveys and their question trees on PostgreSQL.

mod edits;
mod quotas;
mod settings;
mod translations;
mod tree;
mod tree_cache;

pub use tree_cache::TreeCache;

use std::collections::HashMap;
use std::sync::Arc;

use canvass_domain::ids::{AccountId, CategoryId, PageId, QuestionItemId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::{RepoResult, SurveyRepository};
use canvass_domain::survey::{
    ChoiceOption, LogicRules, Page, QuestionItem, QuestionItemDraft, QuestionTree, QuestionType, RuleDraft, Survey,
    SurveyDraft, TranslatedTexts, Translation,
};
use diesel::prelude::*;
use serde_json::{json, Value};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::schema::{logic_rules, question_items, survey_pages, surveys};
use crate::PgUnitOfWork;

/// Rows per multi-row INSERT: well under PostgreSQL's 65,535 bind parameters for every table here.
const ROWS_PER_INSERT: usize = 1000;

/// A survey row, as the DSL selects it and as hand-written statements name its columns.
#[derive(Queryable, Selectable, QueryableByName)]
#[diesel(table_name = surveys)]
pub(crate) struct SurveyRow {
    id: i64,
    name: String,
    description: String,
    start_date: OffsetDateTime,
    end_date: OffsetDateTime,
    category_id: Option<i64>,
    active: bool,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    thank_you_message: Option<String>,
    tree_version: i32,
    language: Named<Language>,
}

impl From<SurveyRow> for Survey {
    fn from(row: SurveyRow) -> Self {
        Self {
            id: SurveyId::new(row.id),
            name: row.name,
            description: row.description,
            start_date: row.start_date,
            end_date: row.end_date,
            category_id: row.category_id.map(CategoryId::new),
            active: row.active,
            created_at: row.created_at,
            updated_at: row.updated_at,
            tree_version: row.tree_version,
            thank_you_message: row.thank_you_message,
            language: row.language.0,
        }
    }
}

/// A stored page, before its items are put in.
#[derive(Queryable, Selectable)]
#[diesel(table_name = survey_pages)]
pub(crate) struct PageRow {
    pub(crate) id: i64,
    pub(crate) position: i32,
    pub(crate) title: String,
    pub(crate) randomize_items: bool,
}

/// A stored item, with the page it is on.
#[derive(Queryable, Selectable)]
#[diesel(table_name = question_items)]
pub(crate) struct ItemRow {
    pub(crate) id: i64,
    pub(crate) page_id: i64,
    pub(crate) position: i32,
    pub(crate) item_type: Named<QuestionType>,
    pub(crate) text: String,
    pub(crate) required: bool,
    pub(crate) options: Value,
    pub(crate) min_label: Option<String>,
    pub(crate) max_label: Option<String>,
    pub(crate) settings: Value,
}

impl ItemRow {
    fn into_item(self) -> QuestionItem {
        let options = options_of(&self.options);
        QuestionItem {
            id: QuestionItemId::new(self.id),
            page_id: PageId::new(self.page_id),
            kind: self.item_type.0,
            text: self.text,
            required: self.required,
            options,
            min_label: self.min_label,
            max_label: self.max_label,
            settings: settings::from_json(&self.settings),
        }
    }
}

/// The options (or Matrix rows) a JSON array of `{value, label}` holds.
fn options_of(json: &Value) -> Vec<ChoiceOption> {
    match json {
        Value::Array(options) => options
            .iter()
            .map(|o| ChoiceOption {
                value: o["value"].as_str().unwrap_or_default().to_owned(),
                label: o["label"].as_str().unwrap_or_default().to_owned(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// What an item is and holds, as its row stores it: written whole by an insert and by an update.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = question_items, treat_none_as_null = true)]
pub(crate) struct ItemContent<'a> {
    item_type: &'static str,
    text: &'a str,
    required: bool,
    options: Value,
    min_label: Option<&'a str>,
    max_label: Option<&'a str>,
    settings: Value,
}

impl<'a> ItemContent<'a> {
    pub(crate) fn of(item: &'a QuestionItemDraft) -> Self {
        Self {
            item_type: item.kind.as_str(),
            text: &item.text,
            required: item.required,
            options: options_json(&item.options),
            min_label: item.min_label.as_deref(),
            max_label: item.max_label.as_deref(),
            settings: settings::to_json(&item.settings),
        }
    }
}

fn options_json(options: &[ChoiceOption]) -> Value {
    Value::Array(options.iter().map(|o| json!({"value": o.value, "label": o.label})).collect())
}

/// Puts pages and items (in any order) together into pages in position order, each with its items in order.
pub(crate) fn assemble_pages(mut pages: Vec<PageRow>, mut items: Vec<ItemRow>) -> Vec<Page> {
    pages.sort_by_key(|p| p.position);
    items.sort_by_key(|i| i.position);
    let mut by_page: HashMap<i64, Vec<QuestionItem>> = HashMap::new();
    for item in items {
        by_page.entry(item.page_id).or_default().push(item.into_item());
    }
    pages
        .into_iter()
        .map(|p| Page {
            id: PageId::new(p.id),
            title: p.title,
            items: by_page.remove(&p.id).unwrap_or_default(),
            randomize_items: p.randomize_items,
        })
        .collect()
}

impl PgUnitOfWork<'_> {
    /// Inserts the draft's pages (ids back in position order) and then their items, each in bulk.
    fn insert_pages(&mut self, account: i64, survey: i64, draft: &SurveyDraft) -> QueryResult<()> {
        if draft.pages().is_empty() {
            return Ok(());
        }
        let page_rows: Vec<_> = draft
            .pages()
            .iter()
            .enumerate()
            .map(|(position, page)| {
                (
                    survey_pages::account_id.eq(account),
                    survey_pages::survey_id.eq(survey),
                    survey_pages::position.eq(position as i32),
                    survey_pages::title.eq(&page.title),
                    survey_pages::randomize_items.eq(page.randomize_items),
                )
            })
            .collect();
        let mut pages: Vec<(i32, i64)> = Vec::with_capacity(page_rows.len());
        for chunk in page_rows.chunks(ROWS_PER_INSERT) {
            pages.extend(
                diesel::insert_into(survey_pages::table)
                    .values(chunk)
                    .returning((survey_pages::position, survey_pages::id))
                    .get_results::<(i32, i64)>(self.conn)?,
            );
        }
        pages.sort_unstable();
        let item_rows: Vec<_> = draft
            .pages()
            .iter()
            .zip(&pages)
            .flat_map(|(page, &(_, page_id))| {
                page.items.iter().enumerate().map(move |(position, item)| {
                    (
                        question_items::account_id.eq(account),
                        question_items::survey_id.eq(survey),
                        question_items::page_id.eq(page_id),
                        question_items::position.eq(position as i32),
                        ItemContent::of(item),
                    )
                })
            })
            .collect();
        for chunk in item_rows.chunks(ROWS_PER_INSERT) {
            diesel::insert_into(question_items::table).values(chunk).execute(self.conn)?;
        }
        Ok(())
    }
}

impl SurveyRepository for PgUnitOfWork<'_> {
    fn list_surveys(&mut self, account: AccountId) -> RepoResult<Vec<Survey>> {
        let rows: Vec<SurveyRow> = surveys::table
            .filter(surveys::account_id.eq(account.get()))
            .order(surveys::id)
            .select(SurveyRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(Survey::from).collect())
    }

    fn find_survey(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<Survey>> {
        let row: Option<SurveyRow> = surveys::table
            .filter(surveys::account_id.eq(account.get()).and(surveys::id.eq(id.get())))
            .select(SurveyRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(Survey::from))
    }

    fn insert_survey(&mut self, account: AccountId, draft: &SurveyDraft, now: OffsetDateTime) -> RepoResult<Survey> {
        let row: SurveyRow = diesel::insert_into(surveys::table)
            .values((
                surveys::account_id.eq(account.get()),
                surveys::name.eq(draft.name()),
                surveys::description.eq(draft.description()),
                surveys::start_date.eq(draft.start_date()),
                surveys::end_date.eq(draft.end_date()),
                surveys::category_id.eq(draft.category_id().map(CategoryId::get)),
                surveys::active.eq(draft.active()),
                surveys::created_at.eq(now),
                surveys::updated_at.eq(now),
                surveys::thank_you_message.eq(draft.thank_you_message()),
                surveys::language.eq(draft.language().code()),
            ))
            .returning(SurveyRow::as_returning())
            .get_result(self.conn)
            .or_repo()?;
        self.insert_pages(account.get(), row.id, draft).or_repo()?;
        Ok(Survey::from(row))
    }

    fn find_survey_tree(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<(Survey, QuestionTree)>> {
        tree::find_survey_tree(self.conn, account, id).or_repo()
    }

    /// The same one statement as [`Self::find_survey_tree`]; a survey that is not there has an empty tree.
    fn question_tree(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<QuestionTree> {
        let found = tree::find_survey_tree(self.conn, account, survey).or_repo()?;
        Ok(found.map_or_else(|| QuestionTree::assemble(survey, Vec::new(), Vec::new()), |(_, tree)| tree))
    }

    /// The kept tree when its version is `version`; else the tree read, and kept unless this unit of work changes
    /// trees (what it reads may not be committed).
    fn shared_question_tree(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        version: i32,
    ) -> RepoResult<Arc<QuestionTree>> {
        let trees = self.trees.filter(|_| !self.changes_trees);
        if let Some(kept) = trees.and_then(|trees| trees.get(account, survey, version)) {
            return Ok(kept);
        }
        let Some((_, tree)) = tree::find_survey_tree(self.conn, account, survey).or_repo()? else {
            return Ok(Arc::new(QuestionTree::assemble(survey, Vec::new(), Vec::new())));
        };
        let tree = Arc::new(tree);
        if let Some(trees) = trees {
            trees.keep(account, &tree);
        }
        Ok(tree)
    }

    fn replace_logic(&mut self, account: AccountId, survey: SurveyId, rules: &LogicRules) -> RepoResult<()> {
        diesel::delete(logic_rules::table)
            .filter(logic_rules::account_id.eq(account.get()).and(logic_rules::survey_id.eq(survey.get())))
            .execute(self.conn)
            .or_repo()?;
        let rows: Vec<_> = rules
            .as_slice()
            .iter()
            .enumerate()
            .map(|(position, rule)| {
                let (item, equals, page, conditions) = match rule {
                    RuleDraft::Equals(rule) => (
                        Some(rule.question_item_id.get()),
                        Some(rule.equals.as_str()),
                        Some(rule.go_to_page_id.get()),
                        None,
                    ),
                    RuleDraft::Conditional(_) => (None, None, None, Some(Value::Object(rule.to_json()))),
                };
                (
                    logic_rules::account_id.eq(account.get()),
                    logic_rules::survey_id.eq(survey.get()),
                    logic_rules::position.eq(position as i32),
                    logic_rules::question_item_id.eq(item),
                    logic_rules::equals.eq(equals),
                    logic_rules::go_to_page_id.eq(page),
                    logic_rules::rule.eq(conditions),
                )
            })
            .collect();
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            diesel::insert_into(logic_rules::table).values(chunk).execute(self.conn).or_repo()?;
        }
        Ok(())
    }

    fn delete_question_item(&mut self, account: AccountId, survey: SurveyId, item: QuestionItemId) -> RepoResult<bool> {
        let deleted = diesel::delete(question_items::table)
            .filter(
                question_items::account_id
                    .eq(account.get())
                    .and(question_items::survey_id.eq(survey.get()))
                    .and(question_items::id.eq(item.get())),
            )
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted == 1)
    }

    /// One statement: the `UPDATE` of the survey's row, whose row lock then holds every other change of the tree
    /// until the transaction ends.
    fn begin_tree_change(&mut self, account: AccountId, survey: SurveyId, now: OffsetDateTime) -> RepoResult<bool> {
        self.changes_trees = true;
        let changed = diesel::update(surveys::table)
            .filter(surveys::account_id.eq(account.get()).and(surveys::id.eq(survey.get())))
            .set((surveys::updated_at.eq(now), surveys::tree_version.eq(surveys::tree_version + 1)))
            .execute(self.conn)
            .or_repo()?;
        Ok(changed == 1)
    }

    fn insert_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<PageId> {
        edits::insert_page(self.conn, account, survey, title, randomize_items).or_repo()
    }

    fn update_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<()> {
        edits::update_page(self.conn, account, survey, page, title, randomize_items).or_repo()
    }

    fn delete_page(&mut self, account: AccountId, survey: SurveyId, page: PageId) -> RepoResult<()> {
        edits::delete_page(self.conn, account, survey, page).or_repo()
    }

    fn order_pages(&mut self, account: AccountId, survey: SurveyId, pages: &[PageId]) -> RepoResult<()> {
        edits::order_pages(self.conn, account, survey, pages).or_repo()
    }

    fn insert_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        item: &QuestionItemDraft,
    ) -> RepoResult<QuestionItemId> {
        edits::insert_item(self.conn, account, survey, page, item).or_repo()
    }

    fn update_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: QuestionItemId,
        item: &QuestionItemDraft,
    ) -> RepoResult<()> {
        edits::update_item(self.conn, account, survey, id, item).or_repo()
    }

    fn place_items(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        layout: &[(PageId, Vec<QuestionItemId>)],
    ) -> RepoResult<()> {
        edits::place_items(self.conn, account, survey, layout).or_repo()
    }

    fn put_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        texts: &TranslatedTexts,
        now: OffsetDateTime,
    ) -> RepoResult<Translation> {
        translations::put(self.conn, account, survey, language, texts, now).or_repo()
    }

    fn list_translations(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Translation>> {
        translations::list(self.conn, account, survey, None).or_repo()
    }

    fn find_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
    ) -> RepoResult<Option<Translation>> {
        Ok(translations::list(self.conn, account, survey, Some(language)).or_repo()?.pop())
    }

    fn page_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        items: Option<&[QuestionItemId]>,
    ) -> RepoResult<(Vec<Language>, Option<TranslatedTexts>)> {
        translations::for_page(self.conn, account, survey, language, items).or_repo()
    }

    fn delete_translation(&mut self, account: AccountId, survey: SurveyId, language: Language) -> RepoResult<bool> {
        translations::delete(self.conn, account, survey, language).or_repo()
    }
}
