//! Rules on conditions (`{when, action: "jump", goToPageId}` and `{when, action: "endSurvey"}`): the page each
//! belongs to, their check against the tree, and the one that acts when a page is saved.

use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::super::tree::QuestionTree;
use super::{check_conditions, Conditions, Facts, Subject};

/// What a rule does when its conditions hold.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleAction {
    /// Go on at this page, a later one than the rule's.
    Jump(PageId),
    /// Complete the answer set when the page is saved; the thank-you page shows.
    EndSurvey,
}

/// A rule on conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionalRule {
    /// When it acts.
    pub when: Conditions,
    /// What it does.
    pub action: RuleAction,
}

impl ConditionalRule {
    /// The position of the page the rule belongs to: that of the latest item its conditions name, or the first
    /// page when they name only background labels (or no item of the tree).
    pub fn page_index(&self, tree: &QuestionTree) -> usize {
        self.page_of(|id| tree.pages.iter().position(|page| page.items.iter().any(|item| item.id == id)))
    }

    /// [`Self::page_index`], with the position of each item's page found by `item_page`.
    pub(crate) fn page_of(&self, item_page: impl Fn(QuestionItemId) -> Option<usize>) -> usize {
        let pages = self.when.each().into_iter().filter_map(|condition| match condition.subject {
            Subject::Item(id) => item_page(id),
            Subject::Background(_) => None,
        });
        pages.max().unwrap_or(0)
    }

    /// The broken rules of the rule at `path` (`[2]`): its conditions' (at `[2].when`), and a jump's page, which
    /// must be a page of the survey after the rule's own.
    pub fn check(&self, path: &str, tree: &QuestionTree) -> Vec<FieldError> {
        let mut errors = check_conditions(&self.when, &format!("{path}.when"), tree, &|_| None);
        if let RuleAction::Jump(target) = self.action {
            let at = format!("{path}.goToPageId");
            match tree.page_index(target) {
                None => errors.push(FieldError::new(at, "is not a page of this survey")),
                Some(to) if to <= self.page_index(tree) => {
                    errors.push(FieldError::new(at, "must be a page after the rule's page"))
                }
                Some(_) => {}
            }
        }
        errors
    }
}

/// The action of the first rule, in order, that belongs to the page at `page_index` and holds for `facts`.
pub fn acting_rule<'r>(
    rules: &'r [ConditionalRule],
    tree: &QuestionTree,
    page_index: usize,
    facts: &dyn Facts,
) -> Option<&'r RuleAction> {
    rules.iter().find(|rule| rule.page_index(tree) == page_index && rule.when.holds(facts)).map(|rule| &rule.action)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::answer::{Answer, AnswerValue};
    use crate::ids::SurveyId;
    use crate::survey::{Condition, ConditionValue, KnownFacts, Operator, Page, QuestionItem, QuestionType};

    fn tree() -> QuestionTree {
        let item = |id: i64, page: i64| QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(page),
            kind: QuestionType::Rating,
            text: "How likely?".into(),
            required: false,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let page = |id: i64, items| Page { id: PageId::new(id), title: String::new(), items, randomize_items: false };
        let pages = vec![page(1, vec![item(11, 1)]), page(2, vec![item(21, 2)]), page(3, vec![]), page(4, vec![])];
        QuestionTree::assemble(SurveyId::new(1), pages, vec![])
    }

    fn score(item: i64, operator: Operator, value: f64) -> Conditions {
        let subject = Subject::Item(QuestionItemId::new(item));
        Conditions::One(Condition { subject, operator, value: Some(ConditionValue::Number(value)) })
    }

    fn region() -> Conditions {
        let subject = Subject::Background("Region".into());
        Conditions::One(Condition { subject, operator: Operator::Answered, value: None })
    }

    #[test]
    fn a_rule_belongs_to_the_page_of_the_latest_item_it_names() {
        let tree = tree();
        let both = Conditions::All(vec![score(21, Operator::AtMost, 6.0), score(11, Operator::AtLeast, 1.0)]);
        assert_eq!(ConditionalRule { when: both, action: RuleAction::EndSurvey }.page_index(&tree), 1);
        assert_eq!(ConditionalRule { when: region(), action: RuleAction::EndSurvey }.page_index(&tree), 0);
    }

    #[test]
    fn a_jump_goes_to_a_later_page_of_the_survey() {
        let tree = tree();
        let jump = |to: i64| ConditionalRule {
            when: score(21, Operator::AtMost, 6.0),
            action: RuleAction::Jump(PageId::new(to)),
        };
        assert!(jump(4).check("[0]", &tree).is_empty());
        let fields = |rule: ConditionalRule| rule.check("[3]", &tree).into_iter().map(|e| e.field).collect::<Vec<_>>();
        assert_eq!(fields(jump(2)), ["[3].goToPageId"], "the rule's own page");
        assert_eq!(fields(jump(99)), ["[3].goToPageId"]);
        let unknown = ConditionalRule { when: score(99, Operator::AtMost, 1.0), action: RuleAction::EndSurvey };
        assert_eq!(fields(unknown), ["[3].when.questionItemId"]);
    }

    #[test]
    fn the_first_rule_of_the_saved_page_that_holds_acts() {
        let tree = tree();
        let rules = [
            ConditionalRule { when: score(21, Operator::AtMost, 6.0), action: RuleAction::Jump(PageId::new(4)) },
            ConditionalRule { when: score(21, Operator::AtMost, 8.0), action: RuleAction::EndSurvey },
            ConditionalRule { when: region(), action: RuleAction::EndSurvey },
        ];
        let background = BTreeMap::new();
        let answers =
            |value: f64| [Answer { question_item_id: QuestionItemId::new(21), value: AnswerValue::Number(value) }];
        let (low, middle, high) = (answers(5.0), answers(7.0), answers(9.0));
        let acting = |answers| acting_rule(&rules, &tree, 1, &KnownFacts::new(&tree, answers, &background)).cloned();
        assert_eq!(acting(&low), Some(RuleAction::Jump(PageId::new(4))), "both hold: the first acts");
        assert_eq!(acting(&middle), Some(RuleAction::EndSurvey));
        assert_eq!(acting(&high), None);
        let facts = KnownFacts::new(&tree, &low, &background);
        assert_eq!(acting_rule(&rules, &tree, 0, &facts), None, "no region: the first page's rule does not hold");
    }
}
