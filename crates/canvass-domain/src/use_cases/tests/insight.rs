//! Insight: statistics only of a sendout of the account's survey, with the daily series up to the clock's UTC day;
//! results only of the account's survey, with a filter's sendout one of that survey's, one entry per item in tree
//! order.

use time::macros::{date, datetime};

use crate::answer::AnswerFilter;
use crate::distribution::RespondentStatus;
use crate::ids::{PageId, QuestionItemId, SendoutId, SurveyId};
use crate::insight::{
    ChoiceCount, ItemFigures, ItemTally, NumericSummary, OptionCount, ResultTallies, SendoutFigures, StatusCounts,
};
use crate::survey::{ChoiceOption, Page, QuestionItem, QuestionTree, QuestionType};
use crate::testing::staff_survey;
use crate::use_cases::insight;
use crate::AccountId;

use super::fakes::insight::{Asked, Insight};
use super::fakes::{invalid_fields, not_found, At, NOW};

const ACME: AccountId = AccountId::new(1);
const OTHER: AccountId = AccountId::new(2);
/// Acme's survey, with [`WAVE`].
const SURVEY: SurveyId = SurveyId::new(1);
/// Another survey of Acme's, with [`SECOND_WAVE`].
const SECOND: SurveyId = SurveyId::new(2);
/// The other account's survey, with [`THEIR_WAVE`].
const THEIRS: SurveyId = SurveyId::new(3);
const WAVE: SendoutId = SendoutId::new(10);
const SECOND_WAVE: SendoutId = SendoutId::new(11);
const THEIR_WAVE: SendoutId = SendoutId::new(12);

fn item(id: i64, kind: QuestionType, options: &[&str]) -> QuestionItem {
    QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(if id < 200 { 100 } else { 200 }),
        kind,
        text: format!("Question {id}"),
        required: false,
        options: options.iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect(),
        min_label: None,
        max_label: None,
    }
}

/// Acme's survey has two pages: info 101 and multiple choice 102 (`a`, `b`, `c`); single choice 201 (`x`, `y`),
/// numeric 202, open text 203.
fn fixture() -> Insight {
    let mut fake = Insight::default();
    fake.surveys.rows.extend([
        (ACME, staff_survey(SURVEY)),
        (ACME, staff_survey(SECOND)),
        (OTHER, staff_survey(THEIRS)),
    ]);
    let first = vec![item(101, QuestionType::Info, &[]), item(102, QuestionType::MultipleChoice, &["a", "b", "c"])];
    let second = vec![
        item(201, QuestionType::SingleChoice, &["x", "y"]),
        item(202, QuestionType::Numeric, &[]),
        item(203, QuestionType::OpenText, &[]),
    ];
    let pages = vec![
        Page { id: PageId::new(100), title: "One".into(), items: first },
        Page { id: PageId::new(200), title: "Two".into(), items: second },
    ];
    fake.surveys.trees.push(QuestionTree::assemble(SURVEY, pages, vec![]));
    fake.sendouts.extend([(ACME, SURVEY, WAVE), (ACME, SECOND, SECOND_WAVE), (OTHER, THEIRS, THEIR_WAVE)]);
    fake
}

#[test]
fn statistics_are_of_a_sendout_of_the_accounts_survey_only() {
    let mut fake = fixture();
    let clock = At(NOW);
    let mut statistics = |survey, sendout| insight::sendout_statistics(&mut fake, &clock, ACME, survey, sendout);
    assert!(not_found(&statistics(SurveyId::new(99), WAVE), "survey"));
    assert!(not_found(&statistics(THEIRS, THEIR_WAVE), "survey"), "another account's survey is unknown");
    assert!(not_found(&statistics(SURVEY, SECOND_WAVE), "sendout"), "a sendout of another survey");
    assert!(not_found(&statistics(SURVEY, THEIR_WAVE), "sendout"), "another account's sendout");
    assert!(not_found(&statistics(SURVEY, SendoutId::new(99)), "sendout"));
    assert!(fake.asked.is_empty(), "nothing is counted for a sendout that is not found");
}

#[test]
fn statistics_finish_the_figures_up_to_the_clocks_utc_day() {
    let mut fake = fixture();
    fake.figures = SendoutFigures {
        by_status: StatusCounts::of([(RespondentStatus::Sent, 2), (RespondentStatus::Pending, 1)]),
        opted_out: 1,
        reached: 2,
        started: 1,
        completed: 1,
        median_seconds_to_complete: Some(30.0),
        daily: vec![],
    };
    // 01:30 at UTC+3 is still the 24th in UTC.
    let clock = At(datetime!(2026-11-25 01:30 +03:00));
    let statistics = insight::sendout_statistics(&mut fake, &clock, ACME, SURVEY, WAVE).unwrap();
    assert_eq!(fake.asked, [Asked::Figures(ACME, WAVE, date!(2026 - 11 - 24))]);
    assert_eq!(statistics.sendout_id, WAVE);
    assert_eq!((statistics.respondents, statistics.reached, statistics.started, statistics.completed), (3, 2, 1, 1));
    assert_eq!((statistics.response_rate, statistics.completion_rate), (Some(0.5), Some(0.5)));
    assert_eq!(statistics.by_status.count(RespondentStatus::Expired), 0);
    assert_eq!((statistics.opted_out, statistics.median_seconds_to_complete), (1, Some(30.0)));
}

#[test]
fn results_need_the_accounts_survey_before_the_filters_sendout() {
    let mut fake = fixture();
    let filter = AnswerFilter::default().of_sendout(Some(SendoutId::new(99)));
    for survey in [THEIRS, SurveyId::new(99)] {
        let result = insight::survey_results(&mut fake, ACME, survey, &filter);
        assert!(not_found(&result, "survey"), "an unknown survey stays 404 whatever its filter names");
    }
    let of = |sendout| AnswerFilter::default().of_sendout(Some(sendout));
    for sendout in [SECOND_WAVE, THEIR_WAVE, SendoutId::new(99)] {
        let refused = insight::survey_results(&mut fake, ACME, SURVEY, &of(sendout));
        assert_eq!(invalid_fields(refused), ["sendoutId"], "{sendout}");
    }
    assert!(fake.asked.is_empty(), "nothing is tallied for a refused filter");
}

#[test]
fn results_list_every_item_in_tree_order_with_every_option() {
    let mut fake = fixture();
    let numbers = NumericSummary { count: 2, mean: Some(4.0), median: Some(4.0), min: Some(3.0), max: Some(5.0) };
    fake.tallies = ResultTallies {
        answer_sets: 3,
        items: vec![
            ItemTally { item: QuestionItemId::new(202), answered: 2, numbers },
            ItemTally { item: QuestionItemId::new(102), answered: 3, numbers: NumericSummary::default() },
        ],
        choices: vec![ChoiceCount { item: QuestionItemId::new(102), value: "b".into(), count: 2 }],
        ratings: vec![],
    };
    let filter = AnswerFilter::new(Some(NOW), None, None, true).unwrap().of_sendout(Some(WAVE));
    let results = insight::survey_results(&mut fake, ACME, SURVEY, &filter).unwrap();
    assert_eq!(fake.asked, [Asked::Tallies(ACME, SURVEY, filter)], "the filter reaches the store as given");
    assert_eq!((results.survey_id, results.answer_sets), (SURVEY, 3));
    let order: Vec<(i64, QuestionType)> = results.items.iter().map(|r| (r.question_item_id.get(), r.kind)).collect();
    use QuestionType::*;
    assert_eq!(order, [(101, Info), (102, MultipleChoice), (201, SingleChoice), (202, Numeric), (203, OpenText)]);
    assert_eq!(results.items[0].figures, ItemFigures::Info, "an Info item has no answered count");
    let option = |value: &str, count| OptionCount { value: value.into(), label: value.to_uppercase(), count };
    let chosen = ItemFigures::Choices { answered: 3, options: vec![option("a", 0), option("b", 2), option("c", 0)] };
    assert_eq!(results.items[1].figures, chosen);
    let unanswered = ItemFigures::Choices { answered: 0, options: vec![option("x", 0), option("y", 0)] };
    assert_eq!(results.items[2].figures, unanswered);
    assert_eq!(results.items[3].figures, ItemFigures::Numeric { answered: 2, summary: numbers });
    assert_eq!(results.items[4].figures, ItemFigures::OpenText { answered: 0 });
    assert_eq!(results.items[4].text, "Question 203");
}
