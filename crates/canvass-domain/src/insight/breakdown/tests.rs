//! Reading a breakdown, checking it against a tree, and ordering, labelling and suppressing its groups.

use super::*;
use crate::ids::{PageId, SurveyId};
use crate::insight::ItemTally;
use crate::survey::{ChoiceOption, Page, QuestionItem};
use crate::testing::question_item;

fn item(id: i64, kind: QuestionType) -> QuestionItem {
    let options = [("b", "Bravo"), ("a", "Alpha")]
        .iter()
        .map(|(value, label)| ChoiceOption { value: (*value).into(), label: (*label).into() })
        .collect();
    question_item(id, 1, kind, options)
}

/// Items 1 SingleChoice, 2 Rating, 3 MultipleChoice, 4 Dropdown.
fn tree() -> QuestionTree {
    use QuestionType::*;
    let items = [SingleChoice, Rating, MultipleChoice, Dropdown].iter().zip(1..).map(|(k, id)| item(id, *k)).collect();
    let page = Page { id: PageId::new(1), title: "One".into(), items, randomize_items: false };
    QuestionTree::assemble(SurveyId::new(1), vec![page], vec![])
}

fn sets(answer_sets: i64) -> ResultTallies {
    let items = vec![ItemTally { item: QuestionItemId::new(1), answered: answer_sets, numbers: Default::default() }];
    ResultTallies { answer_sets, items, ..ResultTallies::default() }
}

#[test]
fn a_breakdown_reads_and_fits_the_tree() {
    assert_eq!(Breakdown::parse("sendout"), Ok(Breakdown::Sendout));
    for bad in ["", "0", "-1", "bg:", "bg:0", "Language", "item:1", "1.5"] {
        assert_eq!(Breakdown::parse(bad).unwrap_err().field, BREAKDOWN_BY, "{bad:?}");
    }
    let tree = tree();
    for fits in ["1", "2", "4", "bg:7", "language", "sendout"] {
        assert_eq!(Breakdown::parse(fits).unwrap().check(&tree), Ok(()), "{fits}");
    }
    let misfit = Breakdown::parse("3").unwrap().check(&tree).unwrap_err();
    assert!(misfit.message.contains("MultipleChoice"), "{misfit}");
    assert_eq!(Breakdown::parse("9").unwrap().check(&tree).unwrap_err().message, "9 is not an item of the survey");
}

#[test]
fn groups_come_in_key_order_with_no_value_last() {
    let tree = tree();
    let tallies =
        vec![(None, sets(6)), (Some("b".into()), sets(7)), (Some("a".into()), sets(5)), (Some("c".into()), sets(0))];
    let label = |key: &str| item_label(&tree, QuestionItemId::new(1), key);
    let groups = assemble_groups(&tree, Breakdown::Item(QuestionItemId::new(1)), tallies, &label, 5);
    let keys: Vec<_> = groups.iter().map(|group| (group.key.clone(), group.label.clone())).collect();
    assert_eq!(
        keys,
        [
            (Some(GroupKey::Text("a".into())), Some("Alpha".into())),
            (Some(GroupKey::Text("b".into())), Some("Bravo".into())),
            (None, None),
        ],
        "a group with no set is left out"
    );
    assert_eq!(groups[0].results.as_ref().map(|results| results.answer_sets), Some(5));
}

#[test]
fn number_keys_order_as_numbers() {
    let tree = tree();
    let tallies = ["10", "9", "0"].iter().map(|key| (Some((*key).to_owned()), sets(5))).collect();
    let groups = assemble_groups(&tree, Breakdown::Item(QuestionItemId::new(2)), tallies, &|_| None, 1);
    let keys: Vec<_> = groups.into_iter().map(|group| group.key).collect();
    assert_eq!(keys, [Some(GroupKey::Number(0)), Some(GroupKey::Number(9)), Some(GroupKey::Number(10))]);
    let by_language = vec![(Some("sv".to_owned()), sets(5)), (Some("de".to_owned()), sets(5))];
    let groups = assemble_groups(&tree, Breakdown::Language, by_language, &language_label, 1);
    let labels: Vec<_> = groups.into_iter().map(|group| group.label).collect();
    assert_eq!(labels, [Some("Deutsch".to_owned()), Some("Svenska".to_owned())]);
}

#[test]
fn a_group_under_the_minimum_shows_no_figures() {
    let tree = tree();
    let tallies = vec![(Some("a".into()), sets(4)), (Some("b".into()), sets(5)), (None, sets(1))];
    let groups = assemble_groups(&tree, Breakdown::Item(QuestionItemId::new(1)), tallies, &|_| None, 5);
    let shown: Vec<bool> = groups.iter().map(|group| group.results.is_some()).collect();
    assert_eq!(shown, [false, true, false]);
}
