//! The facts of one respondent: its answers so far, read with the tree's item types, and its background data by
//! label name.

use std::collections::{BTreeMap, HashMap};

use crate::answer::{Answer, AnswerValue};
use crate::ids::QuestionItemId;

use super::super::question::QuestionType;
use super::super::tree::QuestionTree;
use super::Facts;

/// A respondent's answers and background cells, as conditions read them.
#[derive(Debug)]
pub struct KnownFacts<'a> {
    answers: HashMap<QuestionItemId, (QuestionType, &'a AnswerValue)>,
    background: &'a BTreeMap<String, String>,
}

impl<'a> KnownFacts<'a> {
    /// The facts of `answers` to the items of `tree` (an answer to an item the tree no longer has is none) and the
    /// background cells by label name.
    pub fn new(tree: &QuestionTree, answers: &'a [Answer], background: &'a BTreeMap<String, String>) -> Self {
        let kinds: HashMap<QuestionItemId, QuestionType> = tree.items().map(|item| (item.id, item.kind)).collect();
        let answers = answers
            .iter()
            .filter_map(|answer| {
                Some((answer.question_item_id, (*kinds.get(&answer.question_item_id)?, &answer.value)))
            })
            .collect();
        Self { answers, background }
    }
}

impl Facts for KnownFacts<'_> {
    fn answer(&self, item: QuestionItemId) -> Option<(QuestionType, &AnswerValue)> {
        self.answers.get(&item).copied()
    }

    fn background(&self, label: &str) -> Option<&str> {
        self.background.get(label).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{PageId, SurveyId};
    use crate::survey::{Condition, ConditionValue, Conditions, Operator, Page, QuestionItem, Subject};

    #[test]
    fn answers_are_read_with_their_items_type_and_gone_items_answer_nothing() {
        let item = QuestionItem {
            id: QuestionItemId::new(1),
            page_id: PageId::new(1),
            kind: QuestionType::OpenText,
            text: "Why?".into(),
            required: false,
            options: vec![],
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let page = Page { id: PageId::new(1), title: String::new(), items: vec![item], randomize_items: false };
        let tree = QuestionTree::assemble(SurveyId::new(1), vec![page], vec![]);
        let answers = [
            Answer { question_item_id: QuestionItemId::new(1), value: AnswerValue::Text("Too SLOW".into()) },
            Answer { question_item_id: QuestionItemId::new(2), value: AnswerValue::Text("gone".into()) },
        ];
        let background = BTreeMap::from([("Region".to_owned(), "North".to_owned())]);
        let facts = KnownFacts::new(&tree, &answers, &background);
        let on = |item: i64, operator, value: &str| {
            let subject = Subject::Item(QuestionItemId::new(item));
            Conditions::One(Condition { subject, operator, value: Some(ConditionValue::Text(value.into())) })
        };
        assert!(on(1, Operator::Equals, "too slow").holds(&facts), "an OpenText compares without case");
        assert!(!on(2, Operator::Equals, "gone").holds(&facts), "an item the tree no longer has");
        assert_eq!(facts.background("Region"), Some("North"));
    }
}
