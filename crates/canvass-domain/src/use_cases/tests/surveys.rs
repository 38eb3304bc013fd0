//! Surveys: a new survey and its category are checked together, each account reads its own surveys only, logic
//! must lead to a later page, deleting an item breaks the rules that named it, every change of the tree moves its
//! version (a refused one does not), and a copy takes the tree along (with its logic only when that logic is whole)
//! at version 1.

use crate::distribution::{DispatchType, MessageInput, SendoutInput, SendoutStatus};
use crate::error::{ConflictKind, DomainError};
use crate::ids::{QuestionItemId, SurveyId};
use crate::language::Language;
use crate::survey::{
    CopyRequest, LogicRuleDraft, PageDraft, QuestionItemDraft, QuestionTree, QuestionType, SurveyInput,
};
use crate::testing::Memory;
use crate::use_cases::{categories, sendouts, surveys};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

/// Three pages of one open-text item each.
fn three_pages(name: &str) -> SurveyInput {
    let page = |n: usize| PageDraft {
        title: format!("Page {n}"),
        items: vec![QuestionItemDraft { text: format!("Question {n}"), ..QuestionItemDraft::default() }],
        randomize_items: false,
    };
    SurveyInput { name: name.into(), pages: (1..=3).map(page).collect(), ..SurveyInput::default() }
}

fn created(memory: &mut Memory, account: AccountId) -> (SurveyId, QuestionTree) {
    let survey = surveys::create(memory, &At(NOW), account, three_pages("Staff")).unwrap();
    (survey.id, surveys::question_tree(memory, account, survey.id).unwrap())
}

/// A rule: answering `equals` to the first page's item goes to page `to` (0-based).
fn rule(tree: &QuestionTree, equals: &str, to: usize) -> LogicRuleDraft {
    LogicRuleDraft {
        question_item_id: tree.pages[0].items[0].id,
        equals: equals.into(),
        go_to_page_id: tree.pages[to].id,
    }
}

#[test]
fn every_broken_rule_of_a_new_survey_is_named_and_nothing_is_stored() {
    let (mut memory, acme, _) = two_accounts();
    let mut input = three_pages(" ");
    input.end_date = Some(NOW - time::Duration::days(1));
    input.pages[1].items[0].text = String::new();
    let fields = invalid_fields(surveys::create(&mut memory, &At(NOW), acme, input));
    assert_eq!(fields, ["name", "endDate", "pages[1].items[0].text"]);
    assert!(surveys::list(&mut memory, acme).unwrap().is_empty());
    assert_eq!(memory.transactions.rolled_back, 1);
}

#[test]
fn a_category_must_be_one_of_the_accounts() {
    let (mut memory, acme, other) = two_accounts();
    let theirs = categories::create(&mut memory, &At(NOW), other, "Theirs").unwrap();
    let ours = categories::create(&mut memory, &At(NOW), acme, "Ours").unwrap();

    let input = SurveyInput { category_id: Some(theirs.id), ..three_pages("Staff") };
    assert_eq!(invalid_fields(surveys::create(&mut memory, &At(NOW), acme, input)), ["categoryId"]);
    // The category is named beside the other faults of the survey, not only once the rest is valid.
    let input = SurveyInput { category_id: Some(theirs.id), ..three_pages("") };
    assert_eq!(invalid_fields(surveys::create(&mut memory, &At(NOW), acme, input)), ["name", "categoryId"]);

    // -999 is no category, whatever else is wrong.
    let input = SurveyInput { category_id: Some(crate::category::UNCATEGORIZED), ..three_pages("") };
    assert_eq!(invalid_fields(surveys::create(&mut memory, &At(NOW), acme, input)), ["name"]);

    let input = SurveyInput { category_id: Some(ours.id), ..three_pages("Staff") };
    assert_eq!(surveys::create(&mut memory, &At(NOW), acme, input).unwrap().category_id, Some(ours.id));
}

#[test]
fn a_survey_is_read_with_its_tree_within_its_account_only() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);

    let texts: Vec<&str> = tree.items().map(|item| item.text.as_str()).collect();
    assert_eq!(texts, ["Question 1", "Question 2", "Question 3"], "pages and items keep their order");
    assert_eq!(surveys::get(&mut memory, acme, survey).unwrap().name, "Staff");
    assert!(not_found(&surveys::get(&mut memory, other, survey), "survey"));
    assert!(not_found(&surveys::get_with_tree(&mut memory, other, survey), "survey"));
    assert!(not_found(&surveys::question_tree(&mut memory, other, survey), "survey"));
    assert!(surveys::list(&mut memory, other).unwrap().is_empty());
}

#[test]
fn logic_must_lead_from_an_item_to_a_later_page() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let later = At(NOW + time::Duration::hours(1));

    let backwards = vec![rule(&tree, "skip", 0).into()];
    assert_eq!(invalid_fields(surveys::set_logic(&mut memory, &later, acme, survey, backwards)), ["[0].goToPageId"]);
    let unknown = LogicRuleDraft { question_item_id: QuestionItemId::new(999), ..rule(&tree, "skip", 2) };
    let fields = invalid_fields(surveys::set_logic(&mut memory, &later, acme, survey, vec![unknown.into()]));
    assert_eq!(fields, ["[0].questionItemId"]);
    assert!(surveys::question_tree(&mut memory, acme, survey).unwrap().logic.is_empty(), "nothing is stored");

    let result = surveys::set_logic(&mut memory, &later, other, survey, vec![rule(&tree, "skip", 2).into()]);
    assert!(not_found(&result, "survey"), "another account's survey");

    let stored = surveys::set_logic(&mut memory, &later, acme, survey, vec![rule(&tree, "skip", 2).into()]).unwrap();
    assert_eq!(stored.logic.len(), 1);
    assert_eq!(stored.logic[0].rule, rule(&tree, "skip", 2).into());
    assert!(!stored.logic[0].broken);
    assert_eq!(surveys::get(&mut memory, acme, survey).unwrap().updated_at, later.0, "the survey is touched");
}

#[test]
fn deleting_an_item_breaks_the_rules_that_named_it() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    surveys::set_logic(&mut memory, &At(NOW), acme, survey, vec![rule(&tree, "skip", 2).into()]).unwrap();
    let item = tree.pages[0].items[0].id;

    assert!(not_found(&surveys::delete_question_item(&mut memory, &At(NOW), other, survey, item), "survey"));
    let unknown = QuestionItemId::new(999);
    assert!(not_found(&surveys::delete_question_item(&mut memory, &At(NOW), acme, survey, unknown), "question item"));

    surveys::delete_question_item(&mut memory, &At(NOW), acme, survey, item).unwrap();
    let after = surveys::question_tree(&mut memory, acme, survey).unwrap();
    assert!(after.item(item).is_none());
    assert!(after.logic[0].broken, "the rule stays and reads as broken");
    assert!(after.has_broken_logic());
}

#[test]
fn every_change_of_the_tree_moves_its_version_and_a_refused_one_does_not() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    let version = |memory: &mut Memory| {
        let (survey, tree) = surveys::get_with_tree(memory, acme, survey).unwrap();
        assert_eq!(survey.tree_version, tree.version, "the survey and its tree agree");
        survey.tree_version
    };
    assert_eq!(version(&mut memory), 1, "1 at creation");

    let later = At(NOW + time::Duration::hours(1));
    let stored = surveys::set_logic(&mut memory, &later, acme, survey, vec![rule(&tree, "skip", 2).into()]).unwrap();
    assert_eq!((stored.version, version(&mut memory)), (2, 2), "the tree answered is the changed one");
    surveys::delete_question_item(&mut memory, &later, acme, survey, tree.pages[1].items[0].id).unwrap();
    assert_eq!(version(&mut memory), 3);

    let refused = surveys::set_logic(&mut memory, &later, acme, survey, vec![rule(&tree, "skip", 0).into()]);
    assert!(refused.is_err());
    let unknown = surveys::delete_question_item(&mut memory, &later, acme, survey, QuestionItemId::new(999));
    assert!(not_found(&unknown, "question item"));
    assert!(not_found(&surveys::set_logic(&mut memory, &later, other, survey, Vec::new()), "survey"));
    assert_eq!(version(&mut memory), 3, "a refused change moves nothing");

    let copy = surveys::copy(&mut memory, &later, acme, survey, CopyRequest::default()).unwrap();
    assert_eq!(copy.tree_version, 1, "a copy starts at 1");
}

#[test]
fn a_copy_takes_the_tree_and_its_logic_along_under_new_ids() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    surveys::set_logic(&mut memory, &At(NOW), acme, survey, vec![rule(&tree, "skip", 2).into()]).unwrap();

    let request = CopyRequest { name: Some("Staff again".into()), copy_logic: Some(true), ..CopyRequest::default() };
    let copy = surveys::copy(&mut memory, &At(NOW), acme, survey, request).unwrap();

    assert_ne!(copy.id, survey);
    assert_eq!(copy.name, "Staff again");
    let copied = surveys::question_tree(&mut memory, acme, copy.id).unwrap();
    let texts: Vec<&str> = copied.items().map(|item| item.text.as_str()).collect();
    assert_eq!(texts, ["Question 1", "Question 2", "Question 3"]);
    assert!(copied.items().all(|item| tree.item(item.id).is_none()), "new item ids");
    assert_eq!(copied.logic.len(), 1);
    let named = LogicRuleDraft {
        question_item_id: copied.pages[0].items[0].id,
        equals: "skip".into(),
        go_to_page_id: copied.pages[2].id,
    };
    assert_eq!(copied.logic[0].rule, named.into(), "the rule names the copied item and page");
}

/// A survey of one page holding a Rating item with the given scale labels.
fn rated(thank_you_message: Option<&str>, min_label: Option<&str>, max_label: Option<&str>) -> SurveyInput {
    let rating = QuestionItemDraft {
        kind: QuestionType::Rating,
        text: "How likely are you to recommend us?".into(),
        min_label: min_label.map(Into::into),
        max_label: max_label.map(Into::into),
        ..QuestionItemDraft::default()
    };
    SurveyInput {
        name: "Pulse".into(),
        thank_you_message: thank_you_message.map(Into::into),
        pages: vec![PageDraft { title: String::new(), items: vec![rating], randomize_items: false }],
        ..SurveyInput::default()
    }
}

#[test]
fn a_survey_keeps_its_thank_you_message_and_scale_labels_and_a_copy_keeps_them_too() {
    let (mut memory, acme, _) = two_accounts();
    let input = rated(Some("Thank you, see you next week."), Some("Not at all"), Some(" "));
    let survey = surveys::create(&mut memory, &At(NOW), acme, input).unwrap();
    assert_eq!(survey.thank_you_message.as_deref(), Some("Thank you, see you next week."));
    let tree = surveys::question_tree(&mut memory, acme, survey.id).unwrap();
    let item = &tree.pages[0].items[0];
    assert_eq!((item.min_label.as_deref(), item.max_label.as_deref()), (Some("Not at all"), None), "blank is none");

    let copy = surveys::copy(&mut memory, &At(NOW), acme, survey.id, CopyRequest::default()).unwrap();
    assert_eq!(copy.thank_you_message, survey.thank_you_message);
    assert_eq!(surveys::get(&mut memory, acme, copy.id).unwrap().thank_you_message, survey.thank_you_message);
    let copied = surveys::question_tree(&mut memory, acme, copy.id).unwrap();
    assert_ne!(copied.pages[0].items[0].id, item.id);
    assert_eq!((&copied.pages[0].items[0].min_label, &copied.pages[0].items[0].max_label), (&item.min_label, &None));

    let plain = surveys::create(&mut memory, &At(NOW), acme, rated(Some("  "), None, None)).unwrap();
    assert_eq!(plain.thank_you_message, None, "a blank thank-you message is none");
}

#[test]
fn scale_labels_off_a_rating_item_or_over_their_limits_are_refused_and_nothing_is_stored() {
    let (mut memory, acme, _) = two_accounts();
    let mut on_choice = rated(None, Some("Low"), None);
    on_choice.pages[0].items[0].kind = QuestionType::SingleChoice;
    on_choice.pages[0].items[0].options = vec![crate::survey::ChoiceOption { value: "a".into(), label: "A".into() }];
    let fields = invalid_fields(surveys::create(&mut memory, &At(NOW), acme, on_choice));
    assert_eq!(fields, ["pages[0].items[0].minLabel"]);

    let long_label = "x".repeat(crate::limits::SCALE_LABEL + 1);
    let long_message = "x".repeat(crate::limits::THANK_YOU_MESSAGE + 1);
    let too_long = rated(Some(&long_message), None, Some(&long_label));
    let fields = invalid_fields(surveys::create(&mut memory, &At(NOW), acme, too_long));
    assert_eq!(fields, ["thankYouMessage", "pages[0].items[0].maxLabel"]);
    assert!(surveys::list(&mut memory, acme).unwrap().is_empty());
}

#[test]
fn a_copy_keeps_the_language_of_each_sendout_it_takes_along() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, _) = created(&mut memory, acme);
    let login = |name: &str, language| SendoutInput {
        name: name.into(),
        kind: DispatchType::Login,
        message: MessageInput::default(),
        expiry_date: None,
        language,
        open_link: Default::default(),
    };
    let finnish = sendouts::create(&mut memory, &At(NOW), acme, survey, login("Kevät", Some(Language::Fi))).unwrap();
    let english = sendouts::create(&mut memory, &At(NOW), acme, survey, login("Spring", None)).unwrap();
    let source = memory.state.sendouts.iter_mut().find(|(_, s)| s.id == finnish.id).unwrap();
    source.1.status = SendoutStatus::Active;

    let request = CopyRequest { sendout_ids: Some(format!("{},{}", finnish.id, english.id)), ..CopyRequest::default() };
    let copy = surveys::copy(&mut memory, &At(NOW), acme, survey, request).unwrap();
    let copied = sendouts::list(&mut memory, acme, copy.id).unwrap();
    let kept: Vec<_> = copied.iter().map(|s| (s.name.as_str(), s.language, s.status)).collect();
    assert_eq!(kept, [("Kevät", Language::Fi, SendoutStatus::Draft), ("Spring", Language::En, SendoutStatus::Draft)]);
    assert!(copied.iter().all(|s| s.id != finnish.id && s.id != english.id), "new ids");
}

#[test]
fn a_copy_with_broken_logic_or_unknown_sendouts_is_refused() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = created(&mut memory, acme);
    surveys::set_logic(&mut memory, &At(NOW), acme, survey, vec![rule(&tree, "skip", 2).into()]).unwrap();
    surveys::delete_question_item(&mut memory, &At(NOW), acme, survey, tree.pages[0].items[0].id).unwrap();

    let with_logic = CopyRequest { copy_logic: Some(true), ..CopyRequest::default() };
    let broken = surveys::copy(&mut memory, &At(NOW), acme, survey, with_logic);
    assert!(matches!(broken, Err(DomainError::Conflict { kind: ConflictKind::BrokenLogic, .. })), "{broken:?}");

    let sendouts = CopyRequest { sendout_ids: Some("12345".into()), ..CopyRequest::default() };
    assert_eq!(invalid_fields(surveys::copy(&mut memory, &At(NOW), acme, survey, sendouts)), ["copysendoutids"]);
    assert!(not_found(&surveys::copy(&mut memory, &At(NOW), other, survey, CopyRequest::default()), "survey"));
    assert_eq!(surveys::list(&mut memory, acme).unwrap().len(), 1, "no copy was made");

    let without_logic = surveys::copy(&mut memory, &At(NOW), acme, survey, CopyRequest::default()).unwrap();
    assert!(surveys::question_tree(&mut memory, acme, without_logic.id).unwrap().logic.is_empty());
}
