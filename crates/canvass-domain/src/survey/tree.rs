//! The question tree of a survey: pages in order, items in order, and the go-to-page logic.

use crate::answer::{AnswerValue, ValueProblem};
use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId, RuleId, SurveyId};

use super::logic::RuleDraft;
use super::question::{QuestionItem, QuestionItemDraft};

/// A new page as a client describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageDraft {
    /// Title shown above the page; may be empty.
    pub title: String,
    /// Its items, in order.
    pub items: Vec<QuestionItemDraft>,
    /// Whether each respondent sees its items in an order of its own.
    pub randomize_items: bool,
}

impl PageDraft {
    /// The broken rules of this page and its items, with field paths under `path`.
    pub fn check(&self, path: &str) -> Vec<FieldError> {
        let mut errors = Vec::new();
        crate::limits::push_length(&mut errors, format!("{path}.title"), &self.title, crate::limits::PAGE_TITLE);
        let no_items = QuestionTree::assemble(crate::ids::SurveyId::new(0), Vec::new(), Vec::new());
        super::check_pipes(&self.title, &format!("{path}.title"), &no_items, 0, &mut errors);
        for (index, item) in self.items.iter().enumerate() {
            let at = format!("{path}.items[{index}]");
            errors.extend(item.check(&at));
            // A new survey's items have no ids yet: its display logic names background labels only, and its texts
            // pipe no answers.
            errors.extend(super::check_item_pipes(item, &at, &no_items, 0));
            if let Some(conditions) = &item.settings.display_when {
                let only_labels = |_: &QuestionItem| Some("a new survey's displayWhen names background labels only");
                errors.extend(super::check_conditions(
                    conditions,
                    &format!("{at}.displayWhen"),
                    &no_items,
                    &only_labels,
                ));
            }
        }
        errors
    }

    /// The page with every blank scale label of its items taken as none, as it is stored.
    pub(crate) fn without_blank_labels(self) -> Self {
        Self { items: self.items.into_iter().map(QuestionItemDraft::without_blank_labels).collect(), ..self }
    }
}

/// A stored page with its items in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The page's id.
    pub id: PageId,
    /// Its title.
    pub title: String,
    /// Its items, in the order they were given.
    pub items: Vec<QuestionItem>,
    /// Whether each respondent sees its items in an order of its own.
    pub randomize_items: bool,
}

/// A stored logic rule, in the form it was given.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicRule {
    /// The rule's id.
    pub id: RuleId,
    /// The rule as given.
    pub rule: RuleDraft,
    /// True when it cannot act: an item or page it names is gone, its jump no longer goes to a later page, or a
    /// condition no longer fits its item ([`RuleDraft::is_broken`]).
    pub broken: bool,
}

/// The whole question tree of a survey.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionTree {
    /// The survey.
    pub survey_id: SurveyId,
    /// Pages in order.
    pub pages: Vec<Page>,
    /// Logic rules in the order they were set.
    pub logic: Vec<LogicRule>,
    /// The survey's tree version ([`crate::survey::Survey::tree_version`]) when the tree was read.
    pub version: i32,
    /// The items' patterns, compiled on first use and then kept with the tree: never once per answer.
    patterns: CompiledPatterns,
}

/// The compiled patterns of a tree's OpenText items, by item; built once, on the first check that needs one. Two
/// trees compare equal whatever their caches hold (the patterns are in their items).
#[derive(Clone, Default)]
struct CompiledPatterns(std::sync::OnceLock<std::collections::HashMap<QuestionItemId, regex::Regex>>);

impl PartialEq for CompiledPatterns {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for CompiledPatterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledPatterns")
    }
}

impl QuestionTree {
    /// Puts a tree together from what the store holds, marking as broken each rule that cannot act
    /// ([`RuleDraft::is_broken`]); at version 1 ([`Self::at_version`] gives another).
    ///
    /// ```
    /// use canvass_domain::ids::{PageId, QuestionItemId, RuleId, SurveyId};
    /// use canvass_domain::survey::{LogicRule, LogicRuleDraft, Page, QuestionTree};
    ///
    /// let draft = LogicRuleDraft { question_item_id: QuestionItemId::new(99), equals: "yes".into(),
    ///     go_to_page_id: PageId::new(5) };
    /// let rule = LogicRule { id: RuleId::new(1), rule: draft.into(), broken: false };
    /// let page = Page { id: PageId::new(5), title: String::new(), items: vec![], randomize_items: false };
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![page], vec![rule]);
    /// assert!(tree.logic[0].broken);
    /// ```
    pub fn assemble(survey_id: SurveyId, pages: Vec<Page>, logic: Vec<LogicRule>) -> Self {
        let mut tree = Self { survey_id, pages, logic: Vec::new(), version: 1, patterns: CompiledPatterns::default() };
        tree.logic = logic.into_iter().map(|rule| LogicRule { broken: rule.rule.is_broken(&tree), ..rule }).collect();
        tree
    }

    /// The tree as read at this version of the survey's tree.
    pub fn at_version(self, version: i32) -> Self {
        Self { version, ..self }
    }

    /// The tree of one item: its page with only that item, and no logic (none when the tree has no such item).
    /// What one item's figures are read over, so that the store reads no other item's answers.
    pub fn narrowed_to(&self, id: QuestionItemId) -> Self {
        let pages = self
            .pages
            .iter()
            .filter_map(|page| {
                let item = page.items.iter().find(|item| item.id == id)?.clone();
                Some(Page { items: vec![item], ..page.clone() })
            })
            .collect();
        Self::assemble(self.survey_id, pages, Vec::new()).at_version(self.version)
    }

    /// The item with this id, if it is in the tree.
    pub fn item(&self, id: QuestionItemId) -> Option<&QuestionItem> {
        self.items().find(|item| item.id == id)
    }

    /// Every item, page by page.
    pub fn items(&self) -> impl Iterator<Item = &QuestionItem> {
        self.pages.iter().flat_map(|page| page.items.iter())
    }

    /// The position of the page with this id.
    pub fn page_index(&self, id: PageId) -> Option<usize> {
        self.pages.iter().position(|page| page.id == id)
    }

    /// The compiled pattern of an OpenText item whose `format` is `pattern` (every pattern of the tree is
    /// compiled at the first call, and kept). A stored pattern always compiles: it was checked when stored.
    pub fn pattern(&self, item: QuestionItemId) -> Option<&regex::Regex> {
        let compiled = self.patterns.0.get_or_init(|| {
            self.items()
                .filter_map(|item| Some((item.id, super::compile_pattern(item.settings.pattern.as_deref()?).ok()?)))
                .collect()
        });
        compiled.get(&item)
    }

    /// Whether `value` is a valid answer to `item` of this tree: of its type, among its options, and passing
    /// its answer checks.
    /// An empty answer (`""`, `[]`, `{}`) to an item that is not required is always valid.
    pub fn check_answer(&self, item: &QuestionItem, value: &AnswerValue) -> Result<(), ValueProblem> {
        if value.is_empty() && !item.required && item.kind.takes_answer() {
            return Ok(());
        }
        crate::answer::check_value(item, value)?;
        let pattern = item.settings.pattern.as_ref().and_then(|_| self.pattern(item.id));
        item.settings.check_answer(value, item.kind, pattern)
    }

    /// Whether a working rule names a background label, so that walking the survey needs the respondent's
    /// background data.
    pub fn names_background(&self) -> bool {
        let names = super::Conditions::names_background;
        let in_rules = self.logic.iter().any(|rule| match &rule.rule {
            RuleDraft::Conditional(rule) => names(&rule.when),
            RuleDraft::Equals(_) => false,
        });
        in_rules || self.items().filter_map(|item| item.settings.display_when.as_ref()).any(names)
    }

    /// Whether a page title, item text or option label pipes a value (`{{answer.1}}`, `{{firstName}}`, ...).
    pub fn pipes(&self) -> bool {
        self.pages.iter().any(|page| {
            super::pipes(&page.title)
                || page.items.iter().any(|item| {
                    super::pipes(&item.text) || item.options.iter().any(|option| super::pipes(&option.label))
                })
        })
    }

    /// Whether any rule is broken.
    pub fn has_broken_logic(&self) -> bool {
        self.logic.iter().any(|rule| rule.broken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::QuestionType;

    fn page(randomize_items: bool) -> Page {
        let item = |id: i64| QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(1),
            kind: QuestionType::OpenText,
            text: format!("q{id}"),
            required: false,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        Page { id: PageId::new(1), title: String::new(), items: (1..=8).map(item).collect(), randomize_items }
    }

    fn order(page: &Page) -> Vec<i64> {
        page.items.iter().map(|item| item.id.get()).collect()
    }

    #[test]
    fn a_randomized_page_is_shown_in_one_order_per_respondent() {
        let stored = order(&page(false));
        assert_eq!(order(&page(false).shown_to(7)), stored, "a page that does not randomize keeps its order");
        let seven = order(&page(true).shown_to(7));
        assert_eq!(order(&page(true).shown_to(7)), seven, "the same respondent sees the same order every time");
        let mut sorted = seven.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, stored, "every item is shown once");
        let orders: std::collections::HashSet<Vec<i64>> =
            (1..=20).map(|seed| order(&page(true).shown_to(seed))).collect();
        assert!(orders.len() > 15, "respondents see orders of their own: {} of 20", orders.len());
    }

    #[test]
    fn a_tree_narrowed_to_an_item_holds_that_item_alone() {
        let tree = QuestionTree::assemble(SurveyId::new(3), vec![page(false)], Vec::new()).at_version(4);
        let narrowed = tree.narrowed_to(QuestionItemId::new(5));
        assert_eq!((narrowed.survey_id, narrowed.version, narrowed.pages.len()), (SurveyId::new(3), 4, 1));
        assert_eq!(order(&narrowed.pages[0]), [5]);
        assert_eq!(tree.narrowed_to(QuestionItemId::new(99)).items().count(), 0, "an item it does not have");
    }
}
