//! Logic rules in their two forms (a go-to-page rule on one answer, and a rule on conditions that jumps or ends
//! the survey) and the rules a new set of them must obey against the survey's tree.

mod json;

pub use json::rules_from_json;

use std::collections::HashSet;

use crate::answer::{check_value, AnswerValue};
use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::condition::{Condition, ConditionValue, ConditionalRule, Conditions, Operator, RuleAction, Subject};
use super::question::QuestionType;
use super::tree::QuestionTree;

/// A go-to-page rule on one answer (the interface's form) as a client sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicRuleDraft {
    /// The item whose answer is tested.
    pub question_item_id: QuestionItemId,
    /// The answer value that triggers the jump.
    pub equals: String,
    /// Where to continue.
    pub go_to_page_id: PageId,
}

/// A rule in either form, as given.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleDraft {
    /// `{questionItemId, equals, goToPageId}`.
    Equals(LogicRuleDraft),
    /// `{when, action: "jump", goToPageId}` or `{when, action: "endSurvey"}`.
    Conditional(ConditionalRule),
}

impl RuleDraft {
    /// The rule as conditions, read against the tree it acts in: a go-to-page rule's `equals` becomes an
    /// `equals` condition on its item (a number for Numeric and Rating, `contains` for a MultipleChoice, whose
    /// rule holds when any choice is the value). `None` when its item is gone.
    pub fn conditional(&self, tree: &QuestionTree) -> Option<ConditionalRule> {
        match self {
            Self::Conditional(rule) => Some(rule.clone()),
            Self::Equals(rule) => {
                let item = tree.item(rule.question_item_id)?;
                let (operator, value) = match item.kind {
                    QuestionType::Numeric | QuestionType::Rating => {
                        (Operator::Equals, ConditionValue::Number(rule.equals.trim().parse().ok()?))
                    }
                    QuestionType::MultipleChoice => (Operator::Contains, ConditionValue::Text(rule.equals.clone())),
                    _ => (Operator::Equals, ConditionValue::Text(rule.equals.clone())),
                };
                let subject = Subject::Item(rule.question_item_id);
                let when = Conditions::One(Condition { subject, operator, value: Some(value) });
                Some(ConditionalRule { when, action: RuleAction::Jump(rule.go_to_page_id) })
            }
        }
    }

    /// The rule with each item and page replaced by its pair (old, new), as a copy of the survey has it; `None`
    /// when one has no pair.
    pub fn mapped(&self, items: &[(QuestionItemId, QuestionItemId)], pages: &[(PageId, PageId)]) -> Option<Self> {
        use crate::survey::paired;
        Some(match self {
            Self::Equals(rule) => Self::Equals(LogicRuleDraft {
                question_item_id: paired(items, rule.question_item_id)?,
                equals: rule.equals.clone(),
                go_to_page_id: paired(pages, rule.go_to_page_id)?,
            }),
            Self::Conditional(rule) => Self::Conditional(ConditionalRule {
                when: rule.when.mapped(items)?,
                action: match rule.action {
                    RuleAction::Jump(page) => RuleAction::Jump(paired(pages, page)?),
                    RuleAction::EndSurvey => RuleAction::EndSurvey,
                },
            }),
        })
    }

    /// Whether the rule cannot act in this tree: an item or page it names is gone, a jump no longer goes to a
    /// later page, or a condition no longer fits its item.
    pub fn is_broken(&self, tree: &QuestionTree) -> bool {
        match self {
            Self::Equals(rule) => {
                let from = tree.item(rule.question_item_id).and_then(|item| tree.page_index(item.page_id));
                let to = tree.page_index(rule.go_to_page_id);
                !matches!((from, to), (Some(from), Some(to)) if to > from)
            }
            Self::Conditional(rule) => !rule.check("", tree).is_empty(),
        }
    }
}

/// A checked set of rules that replaces a survey's logic.
#[derive(Debug, Clone, PartialEq)]
pub struct LogicRules(Vec<RuleDraft>);

impl LogicRules {
    /// Checks rules against a tree. A go-to-page rule: the item exists and takes an answer, `equals` is a possible
    /// answer of it (an option value of a choice item, a number for Numeric and Rating), the page exists and comes
    /// after the item's page (so logic can never loop), and no item and value pair is given twice. A rule on
    /// conditions: see [`ConditionalRule::check`].
    ///
    /// ```
    /// use canvass_domain::ids::{PageId, QuestionItemId, SurveyId};
    /// use canvass_domain::survey::{LogicRuleDraft, LogicRules, Page, QuestionTree};
    ///
    /// let page = Page { id: PageId::new(10), title: String::new(), items: vec![], randomize_items: false };
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![page], vec![]);
    /// let unknown_item =
    ///     LogicRuleDraft { question_item_id: QuestionItemId::new(7), equals: "yes".into(), go_to_page_id: PageId::new(10) };
    /// let errors = LogicRules::check(vec![unknown_item.into()], &tree).unwrap_err();
    /// assert_eq!(errors[0].field, "[0].questionItemId");
    /// ```
    pub fn check(rules: Vec<RuleDraft>, tree: &QuestionTree) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut seen = HashSet::new();
        for (index, rule) in rules.iter().enumerate() {
            let rule = match rule {
                RuleDraft::Equals(rule) => rule,
                RuleDraft::Conditional(rule) => {
                    errors.extend(rule.check(&format!("[{index}]"), tree));
                    continue;
                }
            };
            let at = |field: &str| format!("[{index}].{field}");
            let item_page = tree.pages.iter().position(|page| page.items.iter().any(|i| i.id == rule.question_item_id));
            let target_page = tree.page_index(rule.go_to_page_id);
            crate::limits::push_length(&mut errors, at("equals"), &rule.equals, crate::limits::OPEN_TEXT);
            match tree.item(rule.question_item_id) {
                None => errors.push(FieldError::new(at("questionItemId"), "is not an item of this survey")),
                Some(item) if !item.kind.takes_answer() => {
                    errors.push(FieldError::new(at("questionItemId"), "an Info item takes no answer"))
                }
                Some(item) => {
                    let possible = match item.kind {
                        QuestionType::SingleChoice | QuestionType::MultipleChoice | QuestionType::Dropdown => {
                            item.has_option(&rule.equals)
                        }
                        QuestionType::Numeric | QuestionType::Rating => rule
                            .equals
                            .trim()
                            .parse::<f64>()
                            .is_ok_and(|number| check_value(item, &AnswerValue::Number(number)).is_ok()),
                        QuestionType::Date => check_value(item, &AnswerValue::Text(rule.equals.clone())).is_ok(),
                        QuestionType::OpenText | QuestionType::Info => !rule.equals.is_empty(),
                        // A grid or an order is no one value to compare with (issue 43 brings conditions on them).
                        QuestionType::Matrix | QuestionType::Ranking => false,
                    };
                    if !possible {
                        errors.push(FieldError::new(at("equals"), "is not a possible answer of the item"));
                    }
                }
            }
            match (item_page, target_page) {
                (_, None) => errors.push(FieldError::new(at("goToPageId"), "is not a page of this survey")),
                (Some(from), Some(to)) if to <= from => {
                    errors.push(FieldError::new(at("goToPageId"), "must be a page after the item's page"))
                }
                _ => {}
            }
            if !seen.insert((rule.question_item_id, rule.equals.as_str())) {
                errors.push(FieldError::new(at("equals"), "another rule already tests this item for this value"));
            }
        }
        if errors.is_empty() {
            Ok(Self(rules))
        } else {
            Err(errors)
        }
    }

    /// Rules that are known to be valid because they are a copy of a valid tree's rules, with ids mapped.
    pub(crate) fn from_checked(rules: Vec<RuleDraft>) -> Self {
        Self(rules)
    }

    /// The rules in order.
    pub fn as_slice(&self) -> &[RuleDraft] {
        &self.0
    }
}

impl From<LogicRuleDraft> for RuleDraft {
    fn from(rule: LogicRuleDraft) -> Self {
        Self::Equals(rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SurveyId;
    use crate::survey::{ChoiceOption, Page, QuestionItem};

    fn item(id: i64, page_id: i64, kind: QuestionType) -> QuestionItem {
        let options = vec![ChoiceOption { value: "yes".into(), label: "Yes".into() }];
        QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(page_id),
            kind,
            text: "q".into(),
            required: false,
            options: if kind.has_options() { options } else { vec![] },
            min_label: None,
            max_label: None,
            settings: Default::default(),
        }
    }

    fn tree() -> QuestionTree {
        let page = |id, items| Page { id: PageId::new(id), title: String::new(), items, randomize_items: false };
        let first = page(1, vec![item(11, 1, QuestionType::SingleChoice), item(12, 1, QuestionType::Info)]);
        let second = page(2, vec![item(21, 2, QuestionType::Rating)]);
        QuestionTree::assemble(SurveyId::new(1), vec![first, second, page(3, vec![])], vec![])
    }

    fn rule(item: i64, equals: &str, page: i64) -> LogicRuleDraft {
        LogicRuleDraft {
            question_item_id: QuestionItemId::new(item),
            equals: equals.into(),
            go_to_page_id: PageId::new(page),
        }
    }

    fn fields(rules: Vec<LogicRuleDraft>) -> Vec<String> {
        LogicRules::check(rules.into_iter().map(Into::into).collect(), &tree())
            .err()
            .unwrap_or_default()
            .into_iter()
            .map(|e| e.field)
            .collect()
    }

    #[test]
    fn valid_rules_pass() {
        assert!(fields(vec![rule(11, "yes", 3), rule(21, "7", 3)]).is_empty());
    }

    #[test]
    fn references_must_exist() {
        assert_eq!(fields(vec![rule(99, "yes", 3)]), ["[0].questionItemId"]);
        assert_eq!(fields(vec![rule(11, "yes", 99)]), ["[0].goToPageId"]);
    }

    #[test]
    fn values_must_be_possible_answers() {
        assert_eq!(fields(vec![rule(11, "no", 3)]), ["[0].equals"]);
        assert_eq!(fields(vec![rule(21, "high", 3)]), ["[0].equals"]);
        assert_eq!(fields(vec![rule(21, "11", 3)]), ["[0].equals"], "a rating above the scale");
        assert_eq!(fields(vec![rule(21, "2.5", 3)]), ["[0].equals"], "a rating is whole");
        assert_eq!(fields(vec![rule(12, "x", 3)]), ["[0].questionItemId"]);
    }

    #[test]
    fn jumps_only_go_forward() {
        assert_eq!(fields(vec![rule(21, "1", 1)]), ["[0].goToPageId"]);
        assert_eq!(fields(vec![rule(21, "1", 2)]), ["[0].goToPageId"]);
    }

    #[test]
    fn one_rule_per_item_and_value() {
        assert_eq!(fields(vec![rule(11, "yes", 2), rule(11, "yes", 3)]), ["[1].equals"]);
    }
}
