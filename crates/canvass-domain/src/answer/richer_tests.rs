//! The answers of the richer types: a Dropdown's one option, a Date's `YYYY-MM-DD` within its bounds, a Matrix's
//! rows and options (every row when required), a Ranking's every option once; and how a page's form gives them.

use super::*;
use crate::ids::{PageId, SurveyId};
use crate::survey::{ItemSettings, Page};

fn choices(values: &[&str]) -> Vec<ChoiceOption> {
    values.iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect()
}

fn item(kind: QuestionType, required: bool, settings: ItemSettings) -> QuestionItem {
    let options = match kind {
        QuestionType::Dropdown | QuestionType::Ranking | QuestionType::Matrix => choices(&["a", "b", "c"]),
        _ => vec![],
    };
    QuestionItem {
        id: QuestionItemId::new(1),
        page_id: PageId::new(1),
        kind,
        text: "q".into(),
        required,
        options,
        min_label: None,
        max_label: None,
        settings,
    }
}

fn check(item: &QuestionItem, value: AnswerValue) -> Result<(), ValueProblem> {
    let page = Page { id: PageId::new(1), title: String::new(), items: vec![item.clone()], randomize_items: false };
    QuestionTree::assemble(SurveyId::new(1), vec![page], vec![]).check_answer(item, &value)
}

fn rows(pairs: &[(&str, &str)]) -> AnswerValue {
    AnswerValue::Rows(pairs.iter().map(|(r, o)| ((*r).into(), (*o).into())).collect())
}

fn matrix(required: bool) -> QuestionItem {
    item(QuestionType::Matrix, required, ItemSettings { rows: choices(&["r1", "r2"]), ..Default::default() })
}

#[test]
fn a_dropdown_takes_one_of_its_options() {
    let dropdown = item(QuestionType::Dropdown, false, ItemSettings::default());
    assert_eq!(check(&dropdown, AnswerValue::Text("b".into())), Ok(()));
    assert_eq!(check(&dropdown, AnswerValue::Text("z".into())), Err(ValueProblem::NotAnOption));
    assert_eq!(check(&dropdown, AnswerValue::Text(String::new())), Ok(()), "empty and not required");
}

#[test]
fn a_date_is_a_calendar_date_within_its_bounds() {
    let bounds =
        ItemSettings { min_date: parse_date("2040-01-01"), max_date: parse_date("2040-12-31"), ..Default::default() };
    let date = item(QuestionType::Date, true, bounds);
    assert_eq!(check(&date, AnswerValue::Text("2040-06-30".into())), Ok(()));
    assert_eq!(check(&date, AnswerValue::Text("2040-02-30".into())), Err(ValueProblem::NotADate));
    assert_eq!(check(&date, AnswerValue::Text("27-06-30".into())), Err(ValueProblem::NotADate));
    assert!(matches!(check(&date, AnswerValue::Text("2039-12-31".into())), Err(ValueProblem::BeforeMinDate(_))));
    assert!(matches!(check(&date, AnswerValue::Text("2041-01-01".into())), Err(ValueProblem::AfterMaxDate(_))));
    assert_eq!(check(&date, AnswerValue::Number(2027.0)), Err(ValueProblem::NotAString));
}

#[test]
fn a_matrix_answers_its_rows_with_its_options_and_every_row_when_required() {
    assert_eq!(check(&matrix(false), rows(&[("r1", "a")])), Ok(()), "an optional matrix may leave rows out");
    assert_eq!(check(&matrix(true), rows(&[("r1", "a")])), Err(ValueProblem::EveryRow));
    assert_eq!(check(&matrix(true), rows(&[])), Err(ValueProblem::EveryRow));
    assert_eq!(check(&matrix(true), rows(&[("r2", "c"), ("r1", "a")])), Ok(()));
    assert_eq!(check(&matrix(false), rows(&[("r9", "a")])), Err(ValueProblem::NotARow("r9".into())));
    assert_eq!(check(&matrix(false), rows(&[("r1", "z")])), Err(ValueProblem::NotAnOptionValue("z".into())));
    assert_eq!(check(&matrix(false), AnswerValue::Text("a".into())), Err(ValueProblem::NotRows));
}

#[test]
fn a_ranking_orders_every_option_once() {
    let ranking = item(QuestionType::Ranking, false, ItemSettings::default());
    let order = |values: &[&str]| AnswerValue::Choices(values.iter().map(|v| (*v).into()).collect());
    assert_eq!(check(&ranking, order(&["c", "a", "b"])), Ok(()));
    assert_eq!(check(&ranking, order(&["c", "a"])), Err(ValueProblem::RankEveryOption));
    assert_eq!(check(&ranking, order(&["c", "a", "a"])), Err(ValueProblem::ChosenTwice("a".into())));
    assert_eq!(check(&ranking, order(&["c", "a", "z"])), Err(ValueProblem::NotAnOptionValue("z".into())));
}

fn form(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()
}

#[test]
fn a_page_gives_a_matrix_by_row_and_a_ranking_by_place() {
    let answer = answer_from_item_form(&matrix(false), &form(&[("q1-1", "b"), ("q1-0", "a"), ("q9", "x")]));
    assert_eq!(answer, Ok(Some(rows(&[("r1", "a"), ("r2", "b")]))), "in row order, by the row's index");
    assert_eq!(answer_from_item_form(&matrix(false), &form(&[])), Ok(None));
    let ranking = item(QuestionType::Ranking, false, ItemSettings::default());
    let ranked = answer_from_item_form(&ranking, &form(&[("q1-0", "2"), ("q1-1", "3"), ("q1-2", "1")]));
    assert_eq!(ranked, Ok(Some(AnswerValue::Choices(vec!["c".into(), "a".into(), "b".into()]))));
    let twice = answer_from_item_form(&ranking, &form(&[("q1-0", "1"), ("q1-1", "1"), ("q1-2", "2")]));
    assert_eq!(twice, Err(ValueProblem::PlaceTwice));
    let partial = answer_from_item_form(&ranking, &form(&[("q1-0", "1"), ("q1-1", "")]));
    assert_eq!(partial, Err(ValueProblem::RankEveryOption));
    assert_eq!(answer_from_item_form(&ranking, &form(&[("q1-0", ""), ("q1-1", "")])), Ok(None));
}
