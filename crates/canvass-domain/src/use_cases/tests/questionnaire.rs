//! Editing a live tree: pages and items go where they are put, a position past the end and a non-empty page's
//! deletion are refused, a type change or a removed option that answers hold is refused with the values named,
//! every change moves the tree version (a refused one none), a move that puts a rule's target before its item
//! breaks the rule, and another account's survey is not found.

use crate::answer::{Answer, AnswerValue};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{PageId, QuestionItemId, SurveyId};
use crate::survey::{
    ChoiceOption, ItemPatch, LogicRuleDraft, PageDraft, PageInput, PagePatch, QuestionItemDraft, QuestionTree,
    QuestionType, SurveyInput,
};
use crate::testing::Memory;
use crate::use_cases::answers::{self, AnswerSetInput};
use crate::use_cases::{questionnaire, surveys};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

fn options(values: &[&str]) -> Vec<ChoiceOption> {
    values.iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect()
}

/// Two pages: a colour choice (red, green, blue) and a note on the first, a note on the second.
fn created(memory: &mut Memory, account: AccountId) -> (SurveyId, QuestionTree) {
    let choice = QuestionItemDraft {
        kind: QuestionType::SingleChoice,
        text: "Colour?".into(),
        options: options(&["red", "green", "blue"]),
        ..QuestionItemDraft::default()
    };
    let note = |text: &str| QuestionItemDraft { text: text.into(), ..QuestionItemDraft::default() };
    let pages = vec![
        PageDraft { title: "One".into(), items: vec![choice, note("Why?")], randomize_items: false },
        PageDraft { title: "Two".into(), items: vec![note("More?")], randomize_items: false },
    ];
    let input = SurveyInput { name: "Live".into(), pages, ..SurveyInput::default() };
    let survey = surveys::create(memory, &At(NOW), account, input).unwrap();
    (survey.id, surveys::question_tree(memory, account, survey.id).unwrap())
}

fn titles(tree: &QuestionTree) -> Vec<&str> {
    tree.pages.iter().map(|page| page.title.as_str()).collect()
}

fn texts(tree: &QuestionTree, page: usize) -> Vec<&str> {
    tree.pages[page].items.iter().map(|item| item.text.as_str()).collect()
}

fn tree_of(memory: &mut Memory, account: AccountId, survey: SurveyId) -> QuestionTree {
    surveys::question_tree(memory, account, survey).unwrap()
}

fn answered(memory: &mut Memory, account: AccountId, survey: SurveyId, item: QuestionItemId, value: &str) {
    let answers = vec![Answer { question_item_id: item, value: AnswerValue::Text(value.into()) }];
    let input = AnswerSetInput { respondent_id: None, completed: true, answers, language: None };
    answers::record(memory, &At(NOW), account, survey, input).unwrap();
}

#[test]
fn pages_are_added_where_asked_and_moved() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, _) = created(&mut memory, acme);
    let first = PageInput { title: "Intro".into(), position: Some(0), randomize_items: true };
    let intro = questionnaire::add_page(&mut memory, &At(NOW), acme, survey, first).unwrap();
    assert!(intro.randomize_items && intro.items.is_empty());
    let last = PageInput { title: "End".into(), ..PageInput::default() };
    let end = questionnaire::add_page(&mut memory, &At(NOW), acme, survey, last).unwrap();
    assert_eq!(titles(&tree_of(&mut memory, acme, survey)), ["Intro", "One", "Two", "End"]);
    let moved = PagePatch { title: Some("Closing".into()), position: Some(1), randomize_items: None };
    let page = questionnaire::patch_page(&mut memory, &At(NOW), acme, survey, end.id, moved).unwrap();
    assert_eq!(page.title, "Closing");
    let tree = tree_of(&mut memory, acme, survey);
    assert_eq!(titles(&tree), ["Intro", "Closing", "One", "Two"]);
    assert_eq!(tree.version, 4, "three changes after the creation");
}

#[test]
fn a_position_past_the_end_is_refused_and_changes_nothing() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let input = PageInput { position: Some(3), ..PageInput::default() };
    assert_eq!(invalid_fields(questionnaire::add_page(&mut memory, &At(NOW), acme, survey, input)), ["position"]);
    let patch = PagePatch { position: Some(2), ..PagePatch::default() };
    let page = tree.pages[0].id;
    assert_eq!(
        invalid_fields(questionnaire::patch_page(&mut memory, &At(NOW), acme, survey, page, patch)),
        ["position"]
    );
    let item = ItemPatch { position: Some(2), ..ItemPatch::default() };
    let first = tree.pages[0].items[0].id;
    let refused = questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, first, item);
    assert_eq!(invalid_fields(refused), ["position"], "a page of two items has places 0 and 1");
    assert_eq!(tree_of(&mut memory, acme, survey), tree, "the version did not move either");
}

#[test]
fn only_an_empty_page_is_deleted() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let full = questionnaire::delete_page(&mut memory, &At(NOW), acme, survey, tree.pages[1].id);
    assert!(matches!(full, Err(DomainError::Conflict { kind: ConflictKind::PageNotEmpty, .. })), "{full:?}");
    let item = tree.pages[1].items[0].id;
    surveys::delete_question_item(&mut memory, &At(NOW), acme, survey, item).unwrap();
    questionnaire::delete_page(&mut memory, &At(NOW), acme, survey, tree.pages[1].id).unwrap();
    assert_eq!(titles(&tree_of(&mut memory, acme, survey)), ["One"]);
    let again = questionnaire::delete_page(&mut memory, &At(NOW), acme, survey, tree.pages[1].id);
    assert!(not_found(&again, "page"));
}

#[test]
fn items_are_added_checked_and_moved_between_pages() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let (one, two) = (tree.pages[0].id, tree.pages[1].id);
    let draft = QuestionItemDraft { text: "First of all".into(), ..QuestionItemDraft::default() };
    let added = questionnaire::add_item(&mut memory, &At(NOW), acme, survey, two, draft, Some(0)).unwrap();
    assert_eq!(added.page_id, two);
    assert_eq!(texts(&tree_of(&mut memory, acme, survey), 1), ["First of all", "More?"]);
    let bad = QuestionItemDraft { kind: QuestionType::SingleChoice, text: " ".into(), ..QuestionItemDraft::default() };
    let fields = invalid_fields(questionnaire::add_item(&mut memory, &At(NOW), acme, survey, two, bad, Some(5)));
    assert_eq!(fields, ["text", "options", "position"]);
    let why = tree.pages[0].items[1].id;
    let moved = ItemPatch { page_id: Some(two), position: Some(1), ..ItemPatch::default() };
    let item = questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, why, moved).unwrap();
    assert_eq!(item.page_id, two);
    let tree = tree_of(&mut memory, acme, survey);
    assert_eq!((texts(&tree, 0), texts(&tree, 1)), (vec!["Colour?"], vec!["First of all", "Why?", "More?"]));
    let to_end = ItemPatch { page_id: Some(one), ..ItemPatch::default() };
    questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, added.id, to_end).unwrap();
    assert_eq!(texts(&tree_of(&mut memory, acme, survey), 0), ["Colour?", "First of all"], "no position: the end");
    let nowhere = ItemPatch { page_id: Some(PageId::new(999)), ..ItemPatch::default() };
    assert_eq!(
        invalid_fields(questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, why, nowhere)),
        ["pageId"]
    );
}

#[test]
fn answers_keep_an_items_type_and_the_option_values_they_hold() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let colour = tree.pages[0].items[0].id;
    answered(&mut memory, acme, survey, colour, "green");
    let retype = ItemPatch { kind: Some(QuestionType::MultipleChoice), ..ItemPatch::default() };
    let refused = questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, colour, retype);
    assert!(matches!(refused, Err(DomainError::Conflict { kind: ConflictKind::ItemHasAnswers, .. })), "{refused:?}");
    let fewer = ItemPatch { options: Some(options(&["red"])), ..ItemPatch::default() };
    match questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, colour, fewer) {
        Err(DomainError::Conflict { kind: ConflictKind::ItemHasAnswers, values, .. }) => assert_eq!(values, ["green"]),
        other => panic!("{other:?}"),
    }
    let relabelled = vec![
        ChoiceOption { value: "green".into(), label: "Green".into() },
        ChoiceOption { value: "purple".into(), label: "Purple".into() },
    ];
    let allowed = ItemPatch { options: Some(relabelled), required: Some(true), ..ItemPatch::default() };
    let item = questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, colour, allowed).unwrap();
    assert_eq!((item.options[0].label.as_str(), item.required), ("Green", true), "red and blue held no answer");
    let unanswered = tree.pages[1].items[0].id;
    let numeric = ItemPatch { kind: Some(QuestionType::Numeric), ..ItemPatch::default() };
    let item = questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, unanswered, numeric).unwrap();
    assert_eq!(item.kind, QuestionType::Numeric);
}

#[test]
fn a_move_that_puts_a_rules_target_before_its_item_breaks_the_rule() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let colour = tree.pages[0].items[0].id;
    let rule = LogicRuleDraft { question_item_id: colour, equals: "red".into(), go_to_page_id: tree.pages[1].id };
    surveys::set_logic(&mut memory, &At(NOW), acme, survey, vec![rule.into()]).unwrap();
    let down = ItemPatch { page_id: Some(tree.pages[1].id), ..ItemPatch::default() };
    questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, colour, down).unwrap();
    assert!(tree_of(&mut memory, acme, survey).logic[0].broken);
    let back = ItemPatch { page_id: Some(tree.pages[0].id), ..ItemPatch::default() };
    questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, colour, back).unwrap();
    assert!(!tree_of(&mut memory, acme, survey).logic[0].broken, "put back, the rule works again");
}

#[test]
fn another_accounts_survey_page_and_item_are_not_found() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let input = PageInput::default();
    assert!(not_found(&questionnaire::add_page(&mut memory, &At(NOW), other, survey, input), "survey"));
    let page = tree.pages[0].id;
    let patch = PagePatch::default();
    assert!(not_found(&questionnaire::patch_page(&mut memory, &At(NOW), other, survey, page, patch), "survey"));
    let item = tree.pages[0].items[0].id;
    let patch = ItemPatch { text: Some("Theirs".into()), ..ItemPatch::default() };
    assert!(not_found(&questionnaire::patch_item(&mut memory, &At(NOW), other, survey, item, patch), "survey"));
    assert_eq!(tree_of(&mut memory, acme, survey), tree);
}
