//! A survey's translations through the use cases: stored whole and read back with what they lack, the survey's own
//! language and unknown names refused with nothing stored, a tree change leaving the texts of what remains and
//! counting new texts as missing, a copy keeping them under its own ids, and another account's survey not found.

use crate::ids::SurveyId;
use crate::language::Language;
use crate::survey::{
    ChoiceOption, ItemPatch, ItemTexts, PageDraft, PageInput, QuestionItemDraft, QuestionTree, QuestionType,
    SurveyInput, TranslationInput,
};
use crate::testing::Memory;
use crate::use_cases::{questionnaire, surveys, translations};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

/// A Swedish survey of one page: a yes/no choice and a note.
fn swedish(memory: &mut Memory, account: AccountId) -> (SurveyId, QuestionTree) {
    let choice = QuestionItemDraft {
        kind: QuestionType::SingleChoice,
        text: "Trivs du?".into(),
        options: vec![
            ChoiceOption { value: "yes".into(), label: "Ja".into() },
            ChoiceOption { value: "no".into(), label: "Nej".into() },
        ],
        ..QuestionItemDraft::default()
    };
    let note = QuestionItemDraft { text: "Varför?".into(), ..QuestionItemDraft::default() };
    let pages = vec![PageDraft { title: "Arbete".into(), items: vec![choice, note], randomize_items: false }];
    let input = SurveyInput { name: "Puls".into(), language: Some(Language::Sv), pages, ..SurveyInput::default() };
    let survey = surveys::create(memory, &At(NOW), account, input).unwrap();
    (survey.id, surveys::question_tree(memory, account, survey.id).unwrap())
}

/// The English texts of everything but the note and the choice's "no".
fn english(tree: &QuestionTree) -> TranslationInput {
    let page = &tree.pages[0];
    let choice = &page.items[0];
    TranslationInput {
        name: Some("Pulse".into()),
        pages: [(page.id.to_string(), Some("Work".into()))].into(),
        items: [(
            choice.id.to_string(),
            ItemTexts {
                text: Some("Do you like it here?".into()),
                options: [("yes".into(), "Yes".into())].into(),
                ..ItemTexts::default()
            },
        )]
        .into(),
        ..TranslationInput::default()
    }
}

#[test]
fn a_translation_is_stored_whole_and_read_back_with_what_it_lacks() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    let (choice, note) = (tree.pages[0].items[0].id, tree.pages[0].items[1].id);
    let stored = translations::put(&mut memory, &At(NOW), acme, survey, Language::En, english(&tree)).unwrap();
    assert_eq!(stored.translation.texts.name.as_deref(), Some("Pulse"));
    assert_eq!(stored.missing, [format!("items.{choice}.options.no"), format!("items.{note}.text")]);
    assert_eq!(translations::get(&mut memory, acme, survey, Language::En).unwrap(), stored);

    let only_the_name = TranslationInput { name: Some("Pulse".into()), ..TranslationInput::default() };
    let replaced = translations::put(&mut memory, &At(NOW), acme, survey, Language::En, only_the_name).unwrap();
    assert!(replaced.translation.texts.pages.is_empty(), "a PUT replaces the language's texts whole");
    translations::put(&mut memory, &At(NOW), acme, survey, Language::Fi, TranslationInput::default()).unwrap();
    let listed = translations::list(&mut memory, acme, survey).unwrap();
    let summary: Vec<_> = listed.iter().map(|t| (t.language, t.missing_count)).collect();
    assert_eq!(summary, [(Language::En, 5), (Language::Fi, 6)], "in the order first stored");

    translations::delete(&mut memory, acme, survey, Language::En).unwrap();
    assert!(not_found(&translations::get(&mut memory, acme, survey, Language::En), "translation"));
    assert!(not_found(&translations::delete(&mut memory, acme, survey, Language::En), "translation"));
}

#[test]
fn the_survey_s_own_language_and_names_it_does_not_hold_are_refused_and_nothing_is_stored() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    let own = translations::put(&mut memory, &At(NOW), acme, survey, Language::Sv, english(&tree));
    assert_eq!(invalid_fields(own), ["language"]);
    let mut unknown = english(&tree);
    unknown.items.insert("999999".into(), ItemTexts::default());
    let refused = translations::put(&mut memory, &At(NOW), acme, survey, Language::En, unknown);
    assert_eq!(invalid_fields(refused), ["items.999999"]);
    assert!(translations::list(&mut memory, acme, survey).unwrap().is_empty());
}

#[test]
fn a_tree_change_keeps_the_texts_of_what_remains_and_counts_new_texts_as_missing() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    let (page, choice) = (tree.pages[0].id, tree.pages[0].items[0].id);
    translations::put(&mut memory, &At(NOW), acme, survey, Language::En, english(&tree)).unwrap();
    let only_no = ItemPatch {
        options: Some(vec![ChoiceOption { value: "no".into(), label: "Nej".into() }]),
        ..ItemPatch::default()
    };
    questionnaire::patch_item(&mut memory, &At(NOW), acme, survey, choice, only_no).unwrap();
    let added = PageInput { title: "Mer".into(), ..PageInput::default() };
    let new_page = questionnaire::add_page(&mut memory, &At(NOW), acme, survey, added).unwrap();

    let read = translations::get(&mut memory, acme, survey, Language::En).unwrap();
    let choice_texts = &read.translation.texts.items[&choice];
    assert!(choice_texts.options.is_empty(), "the label of the removed option is gone");
    assert_eq!(choice_texts.text.as_deref(), Some("Do you like it here?"));
    assert_eq!(read.translation.texts.pages[&page], "Work");
    assert!(read.missing.contains(&format!("pages.{}.title", new_page.id)), "{:?}", read.missing);
}

#[test]
fn a_copy_keeps_the_translations_under_its_own_ids() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    translations::put(&mut memory, &At(NOW), acme, survey, Language::En, english(&tree)).unwrap();
    let copy = surveys::copy(&mut memory, &At(NOW), acme, survey, Default::default()).unwrap();
    assert_eq!(copy.language, Language::Sv);
    let copied_tree = surveys::question_tree(&mut memory, acme, copy.id).unwrap();
    let read = translations::get(&mut memory, acme, copy.id, Language::En).unwrap();
    assert_eq!(read.translation.texts.pages[&copied_tree.pages[0].id], "Work");
    let copied_choice = copied_tree.pages[0].items[0].id;
    assert_eq!(read.translation.texts.items[&copied_choice].options["yes"], "Yes");
    assert_eq!(read.missing.len(), 2, "{:?}", read.missing);
}

#[test]
fn another_account_s_survey_has_no_translations() {
    let (mut memory, acme, other) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    translations::put(&mut memory, &At(NOW), acme, survey, Language::En, english(&tree)).unwrap();
    let put = translations::put(&mut memory, &At(NOW), other, survey, Language::En, english(&tree));
    assert!(not_found(&put, "survey"));
    assert!(not_found(&translations::get(&mut memory, other, survey, Language::En), "survey"));
    assert!(not_found(&translations::list(&mut memory, other, survey), "survey"));
    assert!(not_found(&translations::delete(&mut memory, other, survey, Language::En), "survey"));
    assert_eq!(translations::list(&mut memory, acme, survey).unwrap().len(), 1);
}

#[test]
fn a_translation_pipes_answers_of_earlier_pages_only_and_its_copy_pipes_the_copy_s_items() {
    let (mut memory, acme, _) = two_accounts();
    let (survey, tree) = swedish(&mut memory, acme);
    let (page, choice, note) = (tree.pages[0].id, tree.pages[0].items[0].id, tree.pages[0].items[1].id);
    let same_page = format!("{{{{answer.{choice}}}}}");
    let mut forward = english(&tree);
    forward.pages.insert(page.to_string(), Some(format!("About {same_page}")));
    forward
        .items
        .insert(note.to_string(), ItemTexts { text: Some(format!("Why {same_page}?")), ..ItemTexts::default() });
    forward.items.get_mut(&choice.to_string()).unwrap().options.insert("yes".into(), format!("{{{{answer.{note}}}}}"));
    let refused = translations::put(&mut memory, &At(NOW), acme, survey, Language::En, forward);
    let expected = [format!("pages.{page}.title"), format!("items.{choice}.options.yes"), format!("items.{note}.text")];
    let mut fields = invalid_fields(refused);
    fields.sort();
    let mut expected = expected.to_vec();
    expected.sort();
    assert_eq!(fields, expected);
    assert!(translations::list(&mut memory, acme, survey).unwrap().is_empty(), "nothing stored");

    let thanks = format!("You said {same_page}: {{{{answer.{note}}}}}, {{{{firstName}}}}");
    let input = TranslationInput { thank_you_message: Some(thanks), ..english(&tree) };
    translations::put(&mut memory, &At(NOW), acme, survey, Language::En, input).unwrap();
    let copy = surveys::copy(&mut memory, &At(NOW), acme, survey, Default::default()).unwrap();
    let copied = surveys::question_tree(&mut memory, acme, copy.id).unwrap();
    let (choice, note) = (copied.pages[0].items[0].id, copied.pages[0].items[1].id);
    let read = translations::get(&mut memory, acme, copy.id, Language::En).unwrap();
    let expected = format!("You said {{{{answer.{choice}}}}}: {{{{answer.{note}}}}}, {{{{firstName}}}}");
    assert_eq!(read.translation.texts.thank_you_message, Some(expected), "the thank-you page comes after every page");
}
