//! The rules of a translation against a survey's tree: what it may name, what it lacks, what outlives a change.

use std::collections::BTreeMap;

use super::*;
use crate::ids::SurveyId;
use crate::survey::{ItemSettings, Page, QuestionType};

fn choice(value: &str, label: &str) -> ChoiceOption {
    ChoiceOption { value: value.into(), label: label.into() }
}

fn item(id: i64, page: i64, kind: QuestionType) -> QuestionItem {
    QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(page),
        kind,
        text: format!("Question {id}"),
        required: false,
        options: Vec::new(),
        min_label: None,
        max_label: None,
        settings: ItemSettings::default(),
    }
}

/// Page 10 "Start" with a SingleChoice (20: yes/no) and a Rating (21, with a low-end label); page 11 without a
/// title, with a Matrix (22: rows speed/price, options 1/2).
fn tree() -> QuestionTree {
    let choice_item = QuestionItem {
        options: vec![choice("yes", "Yes"), choice("no", "No")],
        ..item(20, 10, QuestionType::SingleChoice)
    };
    let rating = QuestionItem { min_label: Some("Poor".into()), ..item(21, 10, QuestionType::Rating) };
    let matrix = QuestionItem {
        options: vec![choice("1", "Bad"), choice("2", "Good")],
        settings: ItemSettings {
            rows: vec![choice("speed", "Speed"), choice("price", "Price")],
            ..ItemSettings::default()
        },
        ..item(22, 11, QuestionType::Matrix)
    };
    let pages = vec![
        Page { id: PageId::new(10), title: "Start".into(), items: vec![choice_item, rating], randomize_items: false },
        Page { id: PageId::new(11), title: String::new(), items: vec![matrix], randomize_items: false },
    ];
    QuestionTree::assemble(SurveyId::new(1), pages, Vec::new())
}

fn survey_with(description: &str, thank_you: Option<&str>) -> Survey {
    Survey {
        description: description.into(),
        thank_you_message: thank_you.map(Into::into),
        ..crate::testing::staff_survey(SurveyId::new(1))
    }
}

fn item_texts(text: &str) -> ItemTexts {
    ItemTexts { text: Some(text.into()), ..ItemTexts::default() }
}

fn fields(errors: Vec<FieldError>) -> Vec<String> {
    errors.into_iter().map(|e| e.field).collect()
}

#[test]
fn a_translation_of_what_the_survey_holds_is_kept_and_blank_texts_are_dropped() {
    let input = TranslationInput {
        name: Some("Personal".into()),
        description: Some("  ".into()),
        pages: [("10".into(), Some("Början".into())), ("11".into(), Some(" ".into()))].into(),
        items: [
            ("20".into(), ItemTexts { options: [("yes".into(), "Ja".into())].into(), ..item_texts("Fråga") }),
            ("21".into(), ItemTexts { min_label: Some("Dålig".into()), ..ItemTexts::default() }),
            ("22".into(), ItemTexts { rows: [("price".into(), "Pris".into())].into(), ..ItemTexts::default() }),
        ]
        .into(),
        ..TranslationInput::default()
    };
    let texts = TranslatedTexts::check(input, &tree()).unwrap();
    assert_eq!(texts.name.as_deref(), Some("Personal"));
    assert_eq!(texts.description, None, "a blank text is no translation");
    assert_eq!(texts.pages, BTreeMap::from([(PageId::new(10), "Början".to_owned())]));
    assert_eq!(texts.items[&QuestionItemId::new(20)].options["yes"], "Ja");
    assert_eq!(texts.items[&QuestionItemId::new(21)].min_label.as_deref(), Some("Dålig"));
    assert_eq!(texts.items[&QuestionItemId::new(22)].rows["price"], "Pris");
}

#[test]
fn every_name_the_survey_does_not_hold_is_reported() {
    let input = TranslationInput {
        pages: [("99".into(), Some("x".into())), ("ten".into(), Some("x".into()))].into(),
        items: [
            ("98".into(), item_texts("x")),
            (
                "20".into(),
                ItemTexts {
                    options: [("maybe".into(), "Kanske".into())].into(),
                    min_label: Some("x".into()),
                    ..ItemTexts::default()
                },
            ),
            (
                "22".into(),
                ItemTexts {
                    rows: [("staff".into(), "Personal".into())].into(),
                    options: [("1".into(), "Dålig".into())].into(),
                    ..ItemTexts::default()
                },
            ),
        ]
        .into(),
        ..TranslationInput::default()
    };
    assert_eq!(
        fields(TranslatedTexts::check(input, &tree()).unwrap_err()),
        ["pages.99", "pages.ten", "items.20.minLabel", "items.20.options.maybe", "items.22.rows.staff", "items.98"]
    );
}

#[test]
fn texts_are_held_to_the_lengths_of_what_they_translate() {
    let input = TranslationInput {
        name: Some("n".repeat(limits::NAME + 1)),
        pages: [("10".into(), Some("t".repeat(limits::PAGE_TITLE + 1)))].into(),
        items: [(
            "20".into(),
            ItemTexts {
                options: [("no".into(), "o".repeat(limits::OPTION + 1))].into(),
                ..item_texts(&"q".repeat(limits::ITEM_TEXT))
            },
        )]
        .into(),
        ..TranslationInput::default()
    };
    assert_eq!(
        fields(TranslatedTexts::check(input, &tree()).unwrap_err()),
        ["name", "pages.10.title", "items.20.options.no"]
    );
}

#[test]
fn missing_lists_every_untranslated_text_in_the_order_the_survey_shows_them() {
    let survey = survey_with("About work", Some("Thanks"));
    let none = TranslatedTexts::default();
    assert_eq!(
        none.missing(&survey, &tree()),
        [
            "name",
            "description",
            "thankYouMessage",
            "pages.10.title",
            "items.20.text",
            "items.20.options.yes",
            "items.20.options.no",
            "items.21.text",
            "items.21.minLabel",
            "items.22.text",
            "items.22.options.1",
            "items.22.options.2",
            "items.22.rows.speed",
            "items.22.rows.price",
        ],
        "page 11 has no title to translate; the Rating has no maxLabel"
    );
    let some = TranslatedTexts {
        name: Some("Personal".into()),
        pages: [(PageId::new(10), "Början".to_owned())].into(),
        items: [(
            QuestionItemId::new(20),
            ItemTexts { options: [("no".into(), "Nej".into())].into(), ..item_texts("Fråga") },
        )]
        .into(),
        ..TranslatedTexts::default()
    };
    let missing = some.missing(&survey_with(" ", None), &tree());
    assert_eq!(missing[..2], ["items.20.options.yes", "items.21.text"], "{missing:?}");
    assert_eq!(missing.len(), 8, "then the Rating's minLabel and five texts of the Matrix");
}

#[test]
fn a_change_of_the_tree_leaves_the_translations_of_what_remains() {
    let texts = TranslatedTexts {
        pages: [(PageId::new(10), "Början".to_owned()), (PageId::new(12), "Borta".to_owned())].into(),
        items: [
            (
                QuestionItemId::new(20),
                ItemTexts {
                    options: [("yes".into(), "Ja".into()), ("gone".into(), "Borta".into())].into(),
                    ..item_texts("Fråga")
                },
            ),
            (QuestionItemId::new(21), ItemTexts { min_label: Some("Dålig".into()), ..item_texts("Betyg") }),
            (QuestionItemId::new(23), item_texts("Borta")),
        ]
        .into(),
        ..TranslatedTexts::default()
    };
    let mut changed = tree();
    changed.pages[0].items[1].kind = QuestionType::Numeric;
    let kept = texts.within(&changed);
    assert_eq!(kept.pages.keys().copied().collect::<Vec<_>>(), [PageId::new(10)]);
    assert_eq!(kept.items.keys().copied().collect::<Vec<_>>(), [QuestionItemId::new(20), QuestionItemId::new(21)]);
    assert_eq!(kept.items[&QuestionItemId::new(20)].options.keys().collect::<Vec<_>>(), ["yes"]);
    assert_eq!(kept.items[&QuestionItemId::new(21)], item_texts("Betyg"), "a Numeric takes no scale labels");
}

#[test]
fn a_copy_keys_the_texts_by_the_copy_s_ids() {
    let texts = TranslatedTexts {
        name: Some("Personal".into()),
        pages: [(PageId::new(10), "Början".to_owned())].into(),
        items: [(QuestionItemId::new(20), item_texts("Fråga")), (QuestionItemId::new(21), item_texts("Betyg"))].into(),
        ..TranslatedTexts::default()
    };
    let copied =
        texts.for_copy(&[(PageId::new(10), PageId::new(110))], &[(QuestionItemId::new(20), QuestionItemId::new(120))]);
    assert_eq!(copied.name.as_deref(), Some("Personal"));
    assert_eq!(copied.pages, BTreeMap::from([(PageId::new(110), "Början".to_owned())]));
    assert_eq!(copied.items, BTreeMap::from([(QuestionItemId::new(120), item_texts("Fråga"))]));
}
