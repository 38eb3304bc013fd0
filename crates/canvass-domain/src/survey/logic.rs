//! Go-to-page logic: the rules a new set of logic rules must obey against the survey's tree.

use std::collections::HashSet;

use crate::answer::{check_value, AnswerValue};
use crate::error::FieldError;
use crate::ids::{PageId, QuestionItemId};

use super::question::QuestionType;
use super::tree::QuestionTree;

/// One rule as a client sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicRuleDraft {
    /// The item whose answer is tested.
    pub question_item_id: QuestionItemId,
    /// The answer value that triggers the jump.
    pub equals: String,
    /// Where to continue.
    pub go_to_page_id: PageId,
}

/// A checked set of rules that replaces a survey's logic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicRules(Vec<LogicRuleDraft>);

impl LogicRules {
    /// Checks rules against a tree: the item exists and takes an answer, `equals` is a possible answer of it (an
    /// option value of a choice item, a number for Numeric and Rating), the page exists and comes after the
    /// item's page (so logic can never loop), and no item and value pair is given twice.
    ///
    /// ```
    /// use canvass_domain::ids::{PageId, QuestionItemId, SurveyId};
    /// use canvass_domain::survey::{LogicRuleDraft, LogicRules, Page, QuestionTree};
    ///
    /// let page = Page { id: PageId::new(10), title: String::new(), items: vec![], randomize_items: false };
    /// let tree = QuestionTree::assemble(SurveyId::new(1), vec![page], vec![]);
    /// let unknown_item =
    ///     LogicRuleDraft { question_item_id: QuestionItemId::new(7), equals: "yes".into(), go_to_page_id: PageId::new(10) };
    /// let errors = LogicRules::check(vec![unknown_item], &tree).unwrap_err();
    /// assert_eq!(errors[0].field, "[0].questionItemId");
    /// ```
    pub fn check(rules: Vec<LogicRuleDraft>, tree: &QuestionTree) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut seen = HashSet::new();
        for (index, rule) in rules.iter().enumerate() {
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
    pub(crate) fn from_checked(rules: Vec<LogicRuleDraft>) -> Self {
        Self(rules)
    }

    /// The rules in order.
    pub fn as_slice(&self) -> &[LogicRuleDraft] {
        &self.0
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
        LogicRules::check(rules, &tree()).err().unwrap_or_default().into_iter().map(|e| e.field).collect()
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
