//! Surveys and their question trees in memory, and the one [`SurveyRepository`] every in-memory store shares: a
//! store keeps [`Surveys`] in its state and says where ([`HoldsSurveys`]). Another account's surveys answer as
//! missing ones do.

use time::OffsetDateTime;

use crate::ids::{AccountId, PageId, QuestionItemId, RuleId, SurveyId};
use crate::language::Language;
use crate::ports::{RepoResult, SurveyRepository};
use crate::survey::{
    ChoiceOption, LogicRule, LogicRules, Page, QuestionItem, QuestionItemDraft, QuestionTree, QuestionType, Survey,
    SurveyDraft, TranslatedTexts, Translation,
};

/// An item of a test's tree: `kind` on page `page`, text `item <id>`, not required, with these options.
pub fn question_item(id: i64, page: i64, kind: QuestionType, options: Vec<ChoiceOption>) -> QuestionItem {
    QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(page),
        kind,
        text: format!("item {id}"),
        required: false,
        options,
        min_label: None,
        max_label: None,
        settings: Default::default(),
    }
}

/// Options with these values, each labelled with its value in capitals (`yes` → `YES`).
pub fn capitalised(values: &[&str]) -> Vec<ChoiceOption> {
    values.iter().map(|value| ChoiceOption { value: (*value).into(), label: value.to_uppercase() }).collect()
}

/// Surveys by account, and their question trees.
#[derive(Debug, Clone, Default)]
pub struct Surveys {
    /// The survey records, each with its account, in creation order.
    pub rows: Vec<(AccountId, Survey)>,
    /// The question trees, by their `survey_id`; a survey without one has no pages.
    pub trees: Vec<QuestionTree>,
    /// The surveys' translations, each with its account and survey, in the order their languages were first
    /// stored.
    pub translations: Vec<(AccountId, SurveyId, Translation)>,
}

impl Surveys {
    /// The survey, when it is one of the account's.
    pub fn find(&self, account: AccountId, id: SurveyId) -> Option<&Survey> {
        self.rows.iter().find(|(owner, survey)| *owner == account && survey.id == id).map(|(_, survey)| survey)
    }

    /// The survey's tree (empty when it has none), when the survey is one of the account's.
    pub fn tree(&self, account: AccountId, id: SurveyId) -> Option<QuestionTree> {
        let version = self.find(account, id)?.tree_version;
        let tree = self.trees.iter().find(|tree| tree.survey_id == id).cloned();
        Some(tree.unwrap_or_else(|| QuestionTree::assemble(id, Vec::new(), Vec::new())).at_version(version))
    }

    /// Stores the tree in place of the survey's, marking rules that name missing items or pages as broken.
    fn put_tree(&mut self, tree: QuestionTree) {
        let tree = QuestionTree::assemble(tree.survey_id, tree.pages, tree.logic);
        self.trees.retain(|held| held.survey_id != tree.survey_id);
        self.trees.push(tree);
    }

    /// An id above every id held, of any kind (surveys, pages, items and rules share the sequence).
    fn next_id(&self) -> i64 {
        let surveys = self.rows.iter().map(|(_, survey)| survey.id.get());
        let pages = self.trees.iter().flat_map(|tree| tree.pages.iter().map(|page| page.id.get()));
        let items = self.trees.iter().flat_map(|tree| tree.items().map(|item| item.id.get()));
        let rules = self.trees.iter().flat_map(|tree| tree.logic.iter().map(|rule| rule.id.get()));
        surveys.chain(pages).chain(items).chain(rules).max().unwrap_or(0) + 1
    }
}

/// A survey to seed a store with: "Staff", active, from [`super::NOW`] for 14 days, in no category.
pub fn staff_survey(id: SurveyId) -> Survey {
    Survey {
        id,
        name: "Staff".into(),
        description: String::new(),
        start_date: super::NOW,
        end_date: super::NOW + time::Duration::days(14),
        category_id: None,
        active: true,
        created_at: super::NOW,
        updated_at: super::NOW,
        tree_version: 1,
        thank_you_message: None,
        language: crate::language::Language::En,
    }
}

/// The item `draft` describes, stored with this id on this page.
fn stored_item(id: QuestionItemId, page_id: PageId, draft: &QuestionItemDraft) -> QuestionItem {
    QuestionItem {
        id,
        page_id,
        kind: draft.kind,
        text: draft.text.clone(),
        required: draft.required,
        options: draft.options.clone(),
        min_label: draft.min_label.clone(),
        max_label: draft.max_label.clone(),
        settings: draft.settings.clone(),
    }
}

/// Applies `change` to the account's survey's tree and stores it; nothing when there is no such survey.
fn change_tree(held: &mut Surveys, account: AccountId, survey: SurveyId, change: impl FnOnce(&mut QuestionTree)) {
    if let Some(mut tree) = held.tree(account, survey) {
        change(&mut tree);
        held.put_tree(tree);
    }
}

/// A store whose state holds [`Surveys`].
pub trait HoldsSurveys {
    /// Where they are.
    fn surveys(&mut self) -> &mut Surveys;
}

impl<T: HoldsSurveys + ?Sized> SurveyRepository for T {
    fn list_surveys(&mut self, account: AccountId) -> RepoResult<Vec<Survey>> {
        let held = self.surveys();
        Ok(held.rows.iter().filter(|(owner, _)| *owner == account).map(|(_, survey)| survey.clone()).collect())
    }

    fn find_survey(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<Survey>> {
        Ok(self.surveys().find(account, id).cloned())
    }

    fn insert_survey(&mut self, account: AccountId, draft: &SurveyDraft, now: OffsetDateTime) -> RepoResult<Survey> {
        let held = self.surveys();
        let mut next = held.next_id();
        let mut take = || {
            next += 1;
            next - 1
        };
        let survey = Survey {
            id: SurveyId::new(take()),
            name: draft.name().to_owned(),
            description: draft.description().to_owned(),
            start_date: draft.start_date(),
            end_date: draft.end_date(),
            category_id: draft.category_id(),
            active: draft.active(),
            created_at: now,
            updated_at: now,
            tree_version: 1,
            thank_you_message: draft.thank_you_message().map(str::to_owned),
            language: draft.language(),
        };
        let mut pages = Vec::with_capacity(draft.pages().len());
        for page in draft.pages() {
            let page_id = PageId::new(take());
            let items = page.items.iter().map(|item| stored_item(QuestionItemId::new(take()), page_id, item)).collect();
            pages.push(Page { id: page_id, title: page.title.clone(), items, randomize_items: page.randomize_items });
        }
        let tree = QuestionTree::assemble(survey.id, pages, Vec::new());
        held.rows.push((account, survey.clone()));
        held.put_tree(tree);
        Ok(survey)
    }

    fn find_survey_tree(&mut self, account: AccountId, id: SurveyId) -> RepoResult<Option<(Survey, QuestionTree)>> {
        let held = self.surveys();
        Ok(held.find(account, id).cloned().zip(held.tree(account, id)))
    }

    fn question_tree(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<QuestionTree> {
        Ok(self
            .surveys()
            .tree(account, survey)
            .unwrap_or_else(|| QuestionTree::assemble(survey, Vec::new(), Vec::new())))
    }

    fn replace_logic(&mut self, account: AccountId, survey: SurveyId, rules: &LogicRules) -> RepoResult<()> {
        let held = self.surveys();
        let Some(mut tree) = held.tree(account, survey) else { return Ok(()) };
        let first = held.next_id();
        tree.logic = rules
            .as_slice()
            .iter()
            .zip(first..)
            .map(|(rule, id)| LogicRule { id: RuleId::new(id), rule: rule.clone(), broken: false })
            .collect();
        held.put_tree(tree);
        Ok(())
    }

    fn delete_question_item(&mut self, account: AccountId, survey: SurveyId, item: QuestionItemId) -> RepoResult<bool> {
        let held = self.surveys();
        let Some(mut tree) = held.tree(account, survey) else { return Ok(false) };
        if tree.item(item).is_none() {
            return Ok(false);
        }
        for page in &mut tree.pages {
            page.items.retain(|held| held.id != item);
        }
        held.put_tree(tree);
        Ok(true)
    }

    fn begin_tree_change(&mut self, account: AccountId, survey: SurveyId, now: OffsetDateTime) -> RepoResult<bool> {
        let held = self.surveys();
        let found = held.rows.iter_mut().find(|(owner, row)| *owner == account && row.id == survey);
        Ok(found
            .map(|(_, row)| {
                row.updated_at = now;
                row.tree_version += 1;
            })
            .is_some())
    }

    fn insert_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<PageId> {
        let held = self.surveys();
        let id = PageId::new(held.next_id());
        let page = Page { id, title: title.to_owned(), items: Vec::new(), randomize_items };
        change_tree(held, account, survey, |tree| tree.pages.push(page));
        Ok(id)
    }

    fn update_page(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        title: &str,
        randomize_items: bool,
    ) -> RepoResult<()> {
        change_tree(self.surveys(), account, survey, |tree| {
            for held in tree.pages.iter_mut().filter(|held| held.id == page) {
                held.title = title.to_owned();
                held.randomize_items = randomize_items;
            }
        });
        Ok(())
    }

    fn delete_page(&mut self, account: AccountId, survey: SurveyId, page: PageId) -> RepoResult<()> {
        change_tree(self.surveys(), account, survey, |tree| tree.pages.retain(|held| held.id != page));
        Ok(())
    }

    fn order_pages(&mut self, account: AccountId, survey: SurveyId, pages: &[PageId]) -> RepoResult<()> {
        change_tree(self.surveys(), account, survey, |tree| {
            tree.pages.sort_by_key(|page| pages.iter().position(|id| *id == page.id));
        });
        Ok(())
    }

    fn insert_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        page: PageId,
        item: &QuestionItemDraft,
    ) -> RepoResult<QuestionItemId> {
        let held = self.surveys();
        let id = QuestionItemId::new(held.next_id());
        change_tree(held, account, survey, |tree| {
            for held in tree.pages.iter_mut().filter(|held| held.id == page) {
                held.items.push(stored_item(id, page, item));
            }
        });
        Ok(id)
    }

    fn update_item(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: QuestionItemId,
        item: &QuestionItemDraft,
    ) -> RepoResult<()> {
        change_tree(self.surveys(), account, survey, |tree| {
            for held in tree.pages.iter_mut().flat_map(|page| page.items.iter_mut()).filter(|held| held.id == id) {
                *held = stored_item(id, held.page_id, item);
            }
        });
        Ok(())
    }

    fn place_items(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        layout: &[(PageId, Vec<QuestionItemId>)],
    ) -> RepoResult<()> {
        change_tree(self.surveys(), account, survey, |tree| {
            let mut loose: Vec<QuestionItem> = Vec::new();
            for page in &mut tree.pages {
                let (moving, staying): (Vec<_>, Vec<_>) =
                    page.items.drain(..).partition(|item| layout.iter().any(|(_, ids)| ids.contains(&item.id)));
                page.items = staying;
                loose.extend(moving);
            }
            for (page_id, ids) in layout {
                let Some(page) = tree.pages.iter_mut().find(|page| page.id == *page_id) else { continue };
                let placed = ids.iter().filter_map(|id| loose.iter().position(|item| item.id == *id));
                let mut items: Vec<QuestionItem> = placed.map(|at| loose[at].clone()).collect();
                for item in &mut items {
                    item.page_id = *page_id;
                }
                page.items.extend(items);
            }
        });
        Ok(())
    }

    fn put_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        texts: &TranslatedTexts,
        now: OffsetDateTime,
    ) -> RepoResult<Translation> {
        let held = &mut self.surveys().translations;
        let slot = held.iter_mut().find(|(a, s, t)| (*a, *s, t.language) == (account, survey, language));
        let stored = match slot {
            Some((_, _, translation)) => {
                translation.texts = texts.clone();
                translation.updated_at = now;
                translation.clone()
            }
            None => {
                let translation = Translation { language, texts: texts.clone(), created_at: now, updated_at: now };
                held.push((account, survey, translation.clone()));
                translation
            }
        };
        Ok(stored)
    }

    fn list_translations(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Translation>> {
        let held = &self.surveys().translations;
        Ok(held.iter().filter(|(a, s, _)| (*a, *s) == (account, survey)).map(|(_, _, t)| t.clone()).collect())
    }

    fn find_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
    ) -> RepoResult<Option<Translation>> {
        Ok(self.list_translations(account, survey)?.into_iter().find(|t| t.language == language))
    }

    fn page_translation(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        language: Language,
        items: Option<&[QuestionItemId]>,
    ) -> RepoResult<(Vec<Language>, Option<TranslatedTexts>)> {
        let held = self.list_translations(account, survey)?;
        let mut texts = held.iter().find(|t| t.language == language).map(|t| t.texts.clone());
        if let (Some(texts), Some(items)) = (&mut texts, items) {
            texts.items.retain(|id, _| items.contains(id));
        }
        Ok((held.into_iter().map(|t| t.language).collect(), texts))
    }

    fn delete_translation(&mut self, account: AccountId, survey: SurveyId, language: Language) -> RepoResult<bool> {
        let held = &mut self.surveys().translations;
        let before = held.len();
        held.retain(|(a, s, t)| (*a, *s, t.language) != (account, survey, language));
        Ok(held.len() < before)
    }
}
