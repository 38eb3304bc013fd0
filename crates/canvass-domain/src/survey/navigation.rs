//! Moving through a survey's pages: where a respondent goes after a page, following the logic rules (a jump, or
//! the end of the survey); the path a set of answers takes through the survey; and which pages a respondent may
//! submit.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::answer::Answer;
use crate::ids::{PageId, QuestionItemId};

use super::condition::{ConditionalRule, KnownFacts, RuleAction};
use super::question::QuestionItem;
use super::tree::QuestionTree;

/// The logic applied to one respondent's answers and background data, indexed once so that each step costs the
/// rules of one page only.
struct Route<'t, 'a> {
    tree: &'t QuestionTree,
    facts: KnownFacts<'a>,
    /// The working rules of each page (by position), in rule order, as conditions.
    rules: HashMap<usize, Vec<ConditionalRule>>,
    pages: HashMap<PageId, usize>,
}

impl<'t, 'a> Route<'t, 'a> {
    fn new(tree: &'t QuestionTree, answers: &'a [Answer], background: &'a BTreeMap<String, String>) -> Self {
        let pages: HashMap<PageId, usize> =
            tree.pages.iter().enumerate().map(|(index, page)| (page.id, index)).collect();
        let item_pages: HashMap<QuestionItemId, usize> = tree
            .pages
            .iter()
            .enumerate()
            .flat_map(|(index, page)| page.items.iter().map(move |item| (item.id, index)))
            .collect();
        let mut rules: HashMap<usize, Vec<ConditionalRule>> = HashMap::new();
        for rule in tree.logic.iter().filter(|rule| !rule.broken) {
            if let Some(rule) = rule.rule.conditional(tree) {
                rules.entry(rule.page_of(|id| item_pages.get(&id).copied())).or_default().push(rule);
            }
        }
        Self { tree, facts: KnownFacts::new(tree, answers, background), rules, pages }
    }

    /// Whether the item shows: it has no `displayWhen`, or its conditions hold.
    fn shows(&self, item: &QuestionItem) -> bool {
        item.settings.display_when.as_ref().is_none_or(|conditions| conditions.holds(&self.facts))
    }

    /// Whether the page at `index` is skipped: it has items, and every one is hidden.
    fn skipped(&self, index: usize) -> bool {
        let items = &self.tree.pages[index].items;
        !items.is_empty() && items.iter().all(|item| !self.shows(item))
    }

    /// The first page from `at` on that is not skipped (a skipped page passes on as if saved with nothing on it).
    fn arrive(&self, mut at: Option<usize>) -> Option<usize> {
        for _ in 0..self.tree.pages.len() {
            match at {
                Some(index) if self.skipped(index) => at = self.step(index),
                _ => break,
            }
        }
        at
    }

    /// The index of the page shown after the page at `index`: see [`Self::step`], past skipped pages.
    fn next(&self, index: usize) -> Option<usize> {
        self.arrive(self.step(index))
    }

    /// The index of the page after the page at `index`: the target of the first rule (in rule order) of the page
    /// that holds, else the next page; `None` after the last page, or when an `endSurvey` rule holds.
    fn step(&self, index: usize) -> Option<usize> {
        let acting = self.rules.get(&index).and_then(|rules| rules.iter().find(|rule| rule.when.holds(&self.facts)));
        match acting.map(|rule| &rule.action) {
            Some(RuleAction::Jump(page)) => self.pages.get(page).copied(),
            Some(RuleAction::EndSurvey) => None,
            None => (index + 1 < self.tree.pages.len()).then_some(index + 1),
        }
    }

    /// The indexes of the pages from the first to the end.
    fn path(&self) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = self.arrive((!self.tree.pages.is_empty()).then_some(0));
        // Rules only jump forward; the bound guards against a tree that breaks that all the same.
        while let Some(index) = at.filter(|_| path.len() < self.tree.pages.len()) {
            path.push(index);
            at = self.next(index);
        }
        path
    }

    /// Whether the respondent is done with the page at `index`: it answered at least one of its shown items that
    /// take an answer, and every shown required one; a page with no such item is always done.
    fn complete(&self, index: usize, answered: &HashSet<QuestionItemId>) -> bool {
        let mut answerable =
            self.tree.pages[index].items.iter().filter(|item| item.kind.takes_answer() && self.shows(item)).peekable();
        if answerable.peek().is_none() {
            return true;
        }
        let (mut any, mut all_required) = (false, true);
        for item in answerable {
            let done = answered.contains(&item.id);
            any |= done;
            all_required &= done || !item.required;
        }
        any && all_required
    }
}

impl QuestionTree {
    /// The page after `page` given the answers and background data: the target of the first rule (in rule order)
    /// of `page` that holds, else the next page; `None` after the last page or when an `endSurvey` rule holds.
    ///
    /// ```
    /// use canvass_domain::answer::{Answer, AnswerValue};
    /// use canvass_domain::ids::{PageId, QuestionItemId, RuleId, SurveyId};
    /// use canvass_domain::survey::{LogicRule, LogicRuleDraft, Page, QuestionItem, QuestionTree, QuestionType};
    ///
    /// let (first, second, third, item_id) = (PageId::new(1), PageId::new(2), PageId::new(3), QuestionItemId::new(7));
    /// let item = QuestionItem { id: item_id, page_id: first, kind: QuestionType::OpenText, text: "q".into(),
    ///     required: false, options: vec![], min_label: None, max_label: None,
    ///     settings: Default::default() };
    /// let page = |id, items| Page { id, title: String::new(), items, randomize_items: false };
    /// let draft = LogicRuleDraft { question_item_id: item_id, equals: "skip".into(), go_to_page_id: third };
    /// let rule = LogicRule { id: RuleId::new(1), rule: draft.into(), broken: false };
    /// let none = Default::default();
    /// let pages = vec![page(first, vec![item]), page(second, vec![]), page(third, vec![])];
    /// let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![rule]);
    /// let skip = [Answer { question_item_id: item_id, value: AnswerValue::Text("skip".into()) }];
    /// assert_eq!(tree.next_page(first, &skip, &none), Some(third));
    /// assert_eq!(tree.next_page(first, &[], &none), Some(second));
    /// assert_eq!(tree.next_page(third, &[], &none), None);
    /// ```
    pub fn next_page(&self, page: PageId, answers: &[Answer], background: &BTreeMap<String, String>) -> Option<PageId> {
        let index = self.page_index(page)?;
        Route::new(self, answers, background).next(index).map(|next| self.pages[next].id)
    }

    /// The pages a respondent with these answers goes through, from the first page to the end, following the
    /// logic.
    pub fn path(&self, answers: &[Answer], background: &BTreeMap<String, String>) -> Vec<PageId> {
        Route::new(self, answers, background).path().into_iter().map(|index| self.pages[index].id).collect()
    }

    /// The pages on the path that a respondent with these answers, last sent to page `resume`, may submit: the
    /// pages it has passed and the one it is on, which comes last. A respondent that has not started is on the
    /// first page; one whose page is not on its path any more (deleted, or the logic changed) is on the first page
    /// of its path that is not complete (it answered none of the page's shown items, or not every shown required
    /// one), or the last when all are. Empty for a survey
    /// without pages.
    ///
    /// ```
    /// use canvass_domain::ids::{PageId, SurveyId};
    /// use canvass_domain::survey::{Page, QuestionTree};
    ///
    /// let (first, second, third) = (PageId::new(1), PageId::new(2), PageId::new(3));
    /// let page = |id| Page { id, title: String::new(), items: vec![], randomize_items: false };
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![page(first), page(second), page(third)], vec![]);
    /// let none = Default::default();
    /// assert_eq!(tree.reachable(None, &[], &none), [first]);
    /// assert_eq!(tree.reachable(Some(second), &[], &none), [first, second]);
    /// // Page 99 is gone: on to the first page not complete; pages without questions never stop anyone.
    /// assert_eq!(tree.reachable(Some(PageId::new(99)), &[], &none), [first, second, third]);
    /// ```
    pub fn reachable(
        &self,
        resume: Option<PageId>,
        answers: &[Answer],
        background: &BTreeMap<String, String>,
    ) -> Vec<PageId> {
        let route = Route::new(self, answers, background);
        let mut path = route.path();
        let on = match resume {
            None => 0,
            Some(resume) => path.iter().position(|index| self.pages[*index].id == resume).unwrap_or_else(|| {
                let answered: HashSet<QuestionItemId> = answers.iter().map(|a| a.question_item_id).collect();
                let incomplete = path.iter().position(|index| !route.complete(*index, &answered));
                incomplete.unwrap_or(path.len().saturating_sub(1))
            }),
        };
        path.truncate(on + 1);
        path.into_iter().map(|index| self.pages[index].id).collect()
    }

    /// The required items on the path of these answers that are shown and left unanswered, in order.
    pub fn missing_on_path<'t>(
        &'t self,
        answers: &[Answer],
        background: &BTreeMap<String, String>,
    ) -> Vec<&'t QuestionItem> {
        let answered: HashSet<QuestionItemId> = answers.iter().map(|a| a.question_item_id).collect();
        let route = Route::new(self, answers, background);
        route
            .path()
            .into_iter()
            .flat_map(|index| self.pages[index].items.iter())
            .filter(|item| item.required && !answered.contains(&item.id) && route.shows(item))
            .collect()
    }

    /// The items hidden from a respondent with these answers and background data: those whose `displayWhen` does
    /// not hold.
    pub fn hidden_items(&self, answers: &[Answer], background: &BTreeMap<String, String>) -> HashSet<QuestionItemId> {
        if self.items().all(|item| item.settings.display_when.is_none()) {
            return HashSet::new();
        }
        let route = Route::new(self, answers, background);
        self.items().filter(|item| !route.shows(item)).map(|item| item.id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::AnswerValue;
    use crate::ids::{RuleId, SurveyId};
    use crate::survey::{LogicRule, LogicRuleDraft, Page, QuestionType};

    const NONE: &BTreeMap<String, String> = &BTreeMap::new();

    fn item(id: i64, page_id: i64, required: bool) -> QuestionItem {
        let (id, page_id) = (QuestionItemId::new(id), PageId::new(page_id));
        QuestionItem {
            id,
            page_id,
            kind: QuestionType::OpenText,
            text: "q".into(),
            required,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: Default::default(),
        }
    }

    fn text(item: i64, value: &str) -> Answer {
        Answer { question_item_id: QuestionItemId::new(item), value: AnswerValue::Text(value.into()) }
    }

    fn page(id: i64, items: Vec<QuestionItem>) -> Page {
        Page { id: PageId::new(id), title: String::new(), items, randomize_items: false }
    }

    fn rule(id: i64, item: i64, equals: &str, to: i64) -> LogicRule {
        let draft = LogicRuleDraft {
            question_item_id: QuestionItemId::new(item),
            equals: equals.into(),
            go_to_page_id: PageId::new(to),
        };
        LogicRule { id: RuleId::new(id), rule: draft.into(), broken: false }
    }

    fn numbers(pages: impl IntoIterator<Item = PageId>) -> Vec<i64> {
        pages.into_iter().map(PageId::get).collect()
    }

    /// Four pages, one required item on each; "skip" on page 1 jumps to page 4.
    fn tree() -> QuestionTree {
        let pages = (1..=4).map(|id| page(id, vec![item(id * 10, id, true)])).collect();
        QuestionTree::assemble(SurveyId::new(1), pages, vec![rule(1, 10, "skip", 4)])
    }

    #[test]
    fn the_path_follows_the_logic() {
        let tree = tree();
        assert_eq!(numbers(tree.path(&[], NONE)), [1, 2, 3, 4]);
        assert_eq!(numbers(tree.path(&[text(10, "skip")], NONE)), [1, 4]);
        assert!(QuestionTree::assemble(SurveyId::new(1), vec![], vec![]).path(&[], NONE).is_empty());
    }

    #[test]
    fn the_first_matching_rule_in_rule_order_wins() {
        let mut pages: Vec<Page> = (1..=4).map(|id| page(id, vec![item(id * 10, id, false)])).collect();
        pages[0].items.push(item(11, 1, false));
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![rule(1, 11, "x", 3), rule(2, 10, "x", 4)]);
        let first = PageId::new(1);
        assert_eq!(numbers(tree.next_page(first, &[text(10, "x"), text(11, "x")], NONE)), [3], "rule 1 comes first");
        assert_eq!(numbers(tree.next_page(first, &[text(10, "x")], NONE)), [4]);
    }

    #[test]
    fn only_passed_pages_and_the_current_one_are_reachable() {
        let tree = tree();
        let (third, fourth) = (Some(PageId::new(3)), Some(PageId::new(4)));
        assert_eq!(numbers(tree.reachable(None, &[], NONE)), [1], "a new respondent is on the first page");
        assert_eq!(numbers(tree.reachable(third, &[text(10, "a"), text(20, "b")], NONE)), [1, 2, 3]);
        assert_eq!(numbers(tree.reachable(fourth, &[text(10, "skip")], NONE)), [1, 4]);
        assert_eq!(
            numbers(tree.reachable(third, &[text(10, "skip")], NONE)),
            [1, 4],
            "page 3 is off the path: on to the first page not complete"
        );
    }

    #[test]
    fn a_respondent_whose_page_went_away_resumes_on_the_first_page_not_complete() {
        let mut pages: Vec<Page> = (1..=4).map(|id| page(id, vec![item(id * 10, id, false)])).collect();
        pages[1].items.push(item(21, 2, true));
        pages.insert(2, page(5, vec![]));
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![]);
        let gone = Some(PageId::new(99));
        assert_eq!(numbers(tree.reachable(gone, &[], NONE)), [1], "nothing answered");
        let first_done = [text(10, "a")];
        assert_eq!(numbers(tree.reachable(gone, &first_done, NONE)), [1, 2]);
        let required_left = [text(10, "a"), text(20, "b")];
        assert_eq!(numbers(tree.reachable(gone, &required_left, NONE)), [1, 2], "page 2's required item is open");
        let through = [text(10, "a"), text(20, "b"), text(21, "c")];
        assert_eq!(numbers(tree.reachable(gone, &through, NONE)), [1, 2, 5, 3], "a page of no items is done");
        let all = [text(10, "a"), text(20, "b"), text(21, "c"), text(30, "d"), text(40, "e")];
        assert_eq!(numbers(tree.reachable(gone, &all, NONE)), [1, 2, 5, 3, 4], "all done: the last page");
    }

    #[test]
    fn required_items_count_only_on_the_path() {
        let tree = tree();
        let ids =
            |answers: &[Answer]| tree.missing_on_path(answers, NONE).iter().map(|i| i.id.get()).collect::<Vec<_>>();
        assert_eq!(ids(&[]), [10, 20, 30, 40]);
        assert_eq!(ids(&[text(10, "skip")]), [40], "pages 2 and 3 are skipped");
        assert!(ids(&[text(10, "skip"), text(40, "done")]).is_empty());
    }

    fn shown_when(mut item: QuestionItem, on: i64, equals: &str) -> QuestionItem {
        let subject = crate::survey::Subject::Item(QuestionItemId::new(on));
        let value = Some(crate::survey::ConditionValue::Text(equals.into()));
        let condition = crate::survey::Condition { subject, operator: crate::survey::Operator::Equals, value };
        item.settings.display_when = Some(crate::survey::Conditions::One(condition));
        item
    }

    #[test]
    fn hidden_items_are_not_required_and_a_page_of_them_is_skipped() {
        let pages = vec![
            page(1, vec![item(10, 1, false)]),
            page(2, vec![shown_when(item(20, 2, true), 10, "show")]),
            page(3, vec![item(30, 3, true), shown_when(item(31, 3, true), 10, "show")]),
        ];
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![]);
        let (hide, show) = ([text(10, "no")], [text(10, "show")]);
        assert_eq!(numbers(tree.path(&hide, NONE)), [1, 3], "page 2 is all hidden");
        assert_eq!(numbers(tree.path(&show, NONE)), [1, 2, 3]);
        assert_eq!(numbers(tree.next_page(PageId::new(1), &hide, NONE)), [3]);
        let missing =
            |answers: &[Answer]| tree.missing_on_path(answers, NONE).iter().map(|i| i.id.get()).collect::<Vec<_>>();
        assert_eq!(missing(&hide), [30], "hidden required items are not required");
        assert_eq!(missing(&show), [20, 30, 31]);
        let hidden: Vec<i64> = tree.hidden_items(&hide, NONE).into_iter().map(QuestionItemId::get).collect();
        assert_eq!(hidden.len(), 2);
        assert!(hidden.contains(&20) && hidden.contains(&31));
    }

    #[test]
    fn an_end_rule_on_background_data_ends_the_path_on_its_page() {
        let pages: Vec<Page> = (1..=3).map(|id| page(id, vec![item(id * 10, id, false)])).collect();
        let subject = crate::survey::Subject::Background("Customer".into());
        let value = Some(crate::survey::ConditionValue::Text("no".into()));
        let when = crate::survey::Conditions::One(crate::survey::Condition {
            subject,
            operator: crate::survey::Operator::Equals,
            value,
        });
        let rule = crate::survey::ConditionalRule { when, action: crate::survey::RuleAction::EndSurvey };
        let stored = LogicRule { id: RuleId::new(1), rule: crate::survey::RuleDraft::Conditional(rule), broken: false };
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, vec![stored]);
        assert!(tree.names_background());
        let not_a_customer = BTreeMap::from([("Customer".to_owned(), "No".to_owned())]);
        assert_eq!(numbers(tree.path(&[], &not_a_customer)), [1], "the label compares without case");
        assert_eq!(tree.next_page(PageId::new(1), &[], &not_a_customer), None);
        assert_eq!(numbers(tree.path(&[], NONE)), [1, 2, 3]);
    }

    #[test]
    fn a_long_survey_is_walked_in_one_pass() {
        let pages: Vec<Page> = (1..=5_000).map(|id| page(id, vec![item(id, id, true)])).collect();
        let rules = (1..5_000).map(|id| rule(id, id, "next", id + 1));
        let tree = QuestionTree::assemble(SurveyId::new(1), pages, rules.collect());
        let answers: Vec<Answer> = (1..=5_000).map(|id| text(id, "next")).collect();
        assert_eq!(tree.path(&answers, NONE).len(), 5_000);
        assert!(tree.missing_on_path(&answers, NONE).is_empty());
    }
}
