//! Moving through a survey's pages: where a respondent goes after a page, following the go-to-page logic.

use crate::answer::{Answer, AnswerValue};
use crate::ids::PageId;

use super::tree::QuestionTree;

/// Whether an answer triggers a rule that tests for `equals`: the same text or option value, one of the chosen
/// values, or the same number.
fn matches(value: &AnswerValue, equals: &str) -> bool {
    match value {
        AnswerValue::Text(text) => text == equals,
        AnswerValue::Choices(choices) => choices.iter().any(|c| c == equals),
        AnswerValue::Number(number) => equals.trim().parse::<f64>().is_ok_and(|e| e == *number),
    }
}

impl QuestionTree {
    /// The page after `page` given the answers: the target of the first rule (in rule order) whose item is on
    /// `page` and whose value the answer matches, else the next page; `None` after the last page.
    ///
    /// ```
    /// use canvass_domain::answer::{Answer, AnswerValue};
    /// use canvass_domain::survey::{LogicRule, Page, QuestionItem, QuestionTree, QuestionType};
    ///
    /// let item = QuestionItem { id: 7, page_id: 1, kind: QuestionType::OpenText, text: "q".into(), required: false, options: vec![] };
    /// let page = |id, items| Page { id, title: String::new(), items };
    /// let rule = LogicRule { id: 1, question_item_id: 7, equals: "skip".into(), go_to_page_id: 3, broken: false };
    /// let tree = QuestionTree::assemble(1, vec![page(1, vec![item]), page(2, vec![]), page(3, vec![])], vec![rule]);
    /// let skip = [Answer { question_item_id: 7, value: AnswerValue::Text("skip".into()) }];
    /// assert_eq!(tree.next_page(1, &skip), Some(3));
    /// assert_eq!(tree.next_page(1, &[]), Some(2));
    /// assert_eq!(tree.next_page(3, &[]), None);
    /// ```
    pub fn next_page(&self, page: PageId, answers: &[Answer]) -> Option<PageId> {
        let index = self.page_index(page)?;
        let on_page: Vec<_> = self.pages[index].items.iter().map(|i| i.id).collect();
        let jump = self.logic.iter().filter(|r| !r.broken && on_page.contains(&r.question_item_id)).find(|rule| {
            answers.iter().any(|a| a.question_item_id == rule.question_item_id && matches(&a.value, &rule.equals))
        });
        match jump {
            Some(rule) => Some(rule.go_to_page_id),
            None => self.pages.get(index + 1).map(|p| p.id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_match_by_type() {
        assert!(matches(&AnswerValue::Choices(vec!["a".into(), "b".into()]), "b"));
        assert!(matches(&AnswerValue::Number(3.0), "3"));
        assert!(!matches(&AnswerValue::Number(3.5), "3"));
        assert!(!matches(&AnswerValue::Text("yes".into()), "Yes"));
    }
}
