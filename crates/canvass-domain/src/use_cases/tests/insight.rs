//! Insight: statistics only of a sendout of the account's survey, with the daily series up to the clock's UTC day;
//! results only of the account's survey, with a filter's sendout one of that survey's, one entry per item in tree
//! order.

use time::macros::{date, datetime};

use crate::account::AccountSettings;
use crate::answer::{Answer, AnswerCondition, AnswerFilter, AnswerSet, AnswerValue};
use crate::distribution::{DispatchType, RespondentStatus};
use crate::ids::{AnswerSetId, LabelId, PageId, QuestionItemId, SendoutId, SurveyId};
use crate::insight::{Breakdown, GroupKey, ItemFigures, NumericSummary, OptionCount};
use crate::survey::{Page, QuestionItem, QuestionTree, QuestionType};
use crate::testing::{capitalised, question_item, Memory};
use crate::use_cases::insight::{self, ResultsRequest};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, At, NOW};

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
    let page = if id < 200 { 100 } else { 200 };
    QuestionItem { text: format!("Question {id}"), ..question_item(id, page, kind, capitalised(options)) }
}

/// Acme's survey has two pages: info 101 and multiple choice 102 (`a`, `b`, `c`); single choice 201 (`x`, `y`),
/// numeric 202, open text 203.
fn fixture() -> Memory {
    let mut fake = Memory::default();
    fake.seed_survey(ACME, SURVEY);
    fake.seed_survey(ACME, SECOND);
    fake.seed_survey(OTHER, THEIRS);
    let first = vec![item(101, QuestionType::Info, &[]), item(102, QuestionType::MultipleChoice, &["a", "b", "c"])];
    let second = vec![
        item(201, QuestionType::SingleChoice, &["x", "y"]),
        item(202, QuestionType::Numeric, &[]),
        item(203, QuestionType::OpenText, &[]),
    ];
    let pages = vec![
        Page { id: PageId::new(100), title: "One".into(), items: first, randomize_items: false },
        Page { id: PageId::new(200), title: "Two".into(), items: second, randomize_items: false },
    ];
    fake.state.surveys.trees.push(QuestionTree::assemble(SURVEY, pages, vec![]));
    for (account, survey, sendout) in [(ACME, SURVEY, WAVE), (ACME, SECOND, SECOND_WAVE), (OTHER, THEIRS, THEIR_WAVE)] {
        fake.seed_sendout(account, survey, sendout, DispatchType::Email);
    }
    fake
}

/// A set of [`WAVE`] with these answers.
fn set(fake: &mut Memory, id: i64, completed: bool, at: time::OffsetDateTime, answers: Vec<Answer>) {
    let set = AnswerSet {
        id: AnswerSetId::new(id),
        survey_id: SURVEY,
        respondent_id: None,
        sendout_id: Some(WAVE),
        completed,
        quota_full: false,
        shown_order: Default::default(),
        created_at: at,
        updated_at: at,
        language: None,
        answers,
    };
    fake.seed_answer_set(ACME, set);
}

/// Results of the sets that pass the filter, not broken down.
fn asked(filter: AnswerFilter) -> ResultsRequest {
    ResultsRequest { filter, ..ResultsRequest::default() }
}

fn answer(item: i64, value: AnswerValue) -> Answer {
    Answer { question_item_id: QuestionItemId::new(item), value }
}

fn choices(values: &[&str]) -> AnswerValue {
    AnswerValue::Choices(values.iter().map(|v| (*v).to_owned()).collect())
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
}

#[test]
fn statistics_finish_the_figures_up_to_the_clocks_utc_day() {
    let mut fake = fixture();
    let sent_at = datetime!(2026-11-24 10:00 UTC);
    let ann = fake.seed_respondent(ACME, WAVE, "ann@example.com");
    let bob = fake.seed_respondent(ACME, WAVE, "bob@example.com");
    fake.seed_respondent(ACME, WAVE, "carol@example.com");
    for id in [ann, bob] {
        let row = fake.respondent_row(id);
        (row.status, row.sent_at) = (RespondentStatus::Sent, Some(sent_at));
    }
    fake.state.respondents[1].opted_out_at = Some(sent_at);
    let started = sent_at + time::Duration::seconds(10);
    let done = AnswerSet {
        id: AnswerSetId::new(90),
        survey_id: SURVEY,
        respondent_id: Some(ann),
        sendout_id: Some(WAVE),
        completed: true,
        quota_full: false,
        shown_order: Default::default(),
        created_at: started,
        updated_at: sent_at + time::Duration::seconds(30),
        language: None,
        answers: Vec::new(),
    };
    fake.seed_answer_set(ACME, done);
    let activated = fake.state.sendouts.iter_mut().find(|(_, s)| s.id == WAVE).map(|(_, s)| s);
    activated.into_iter().for_each(|s| s.activated_at = Some(datetime!(2026-11-23 12:00 UTC)));
    // 01:30 at UTC+3 is still the 24th in UTC: the series ends there.
    let clock = At(datetime!(2026-11-25 01:30 +03:00));
    let statistics = insight::sendout_statistics(&mut fake, &clock, ACME, SURVEY, WAVE).unwrap();
    let days: Vec<_> = statistics.daily.iter().map(|day| (day.date, day.sent, day.started, day.completed)).collect();
    assert_eq!(days, [(date!(2026 - 11 - 23), 0, 0, 0), (date!(2026 - 11 - 24), 2, 1, 1)]);
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
        let result = insight::survey_results(&mut fake, ACME, survey, &asked(filter.clone()));
        assert!(not_found(&result, "survey"), "an unknown survey stays 404 whatever its filter names");
    }
    let of = |sendout| AnswerFilter::default().of_sendout(Some(sendout));
    for sendout in [SECOND_WAVE, THEIR_WAVE, SendoutId::new(99)] {
        let refused = insight::survey_results(&mut fake, ACME, SURVEY, &asked(of(sendout)));
        assert_eq!(invalid_fields(refused), ["sendoutId"], "{sendout}");
    }
}

#[test]
fn results_list_every_item_in_tree_order_with_every_option() {
    let mut fake = fixture();
    let numbers = NumericSummary { count: 2, mean: Some(4.0), median: Some(4.0), min: Some(3.0), max: Some(5.0) };
    set(&mut fake, 1, true, NOW, vec![answer(102, choices(&["b"])), answer(202, AnswerValue::Number(3.0))]);
    set(&mut fake, 2, true, NOW, vec![answer(102, choices(&["b"])), answer(202, AnswerValue::Number(5.0))]);
    set(&mut fake, 3, true, NOW, vec![answer(102, choices(&[]))]);
    // Sets the filter leaves out: open, before its start, of no sendout.
    set(&mut fake, 4, false, NOW, vec![answer(102, choices(&["a"])), answer(203, AnswerValue::Text("x".into()))]);
    set(&mut fake, 5, true, NOW - time::Duration::days(1), vec![answer(102, choices(&["a"]))]);
    set(&mut fake, 6, true, NOW, vec![answer(102, choices(&["a"]))]);
    fake.state.answer_sets[5].set.sendout_id = None;
    let filter = AnswerFilter::new(Some(NOW - time::Duration::hours(1)), None, None, true).unwrap();
    let filter = filter.of_sendout(Some(WAVE));
    let results = insight::survey_results(&mut fake, ACME, SURVEY, &asked(filter)).unwrap();
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
    assert_eq!(results.items[4].figures, ItemFigures::OpenText { answered: 0, top_words: vec![] });
    assert_eq!(results.items[4].text, "Question 203");
}

/// Sets 1 to 7 of single choice 201: `x` in four, `y` in two, none in one; numbers 1 to 7 in 202.
fn grouped_fixture() -> Memory {
    let mut fake = fixture();
    let picks = ["x", "x", "y", "x", "y", "", "x"];
    for (id, pick) in (1..).zip(picks) {
        let mut answers = vec![answer(202, AnswerValue::Number(id as f64))];
        if !pick.is_empty() {
            answers.push(answer(201, AnswerValue::Text(pick.into())));
        }
        set(&mut fake, id, true, NOW, answers);
    }
    fake
}

fn broken_down(by: Breakdown, min_group_size: Option<i64>) -> ResultsRequest {
    ResultsRequest { filter: AnswerFilter::default(), breakdown: Some(by), min_group_size }
}

#[test]
fn a_breakdown_gives_each_group_beside_the_whole_and_hides_small_ones() {
    let mut fake = grouped_fixture();
    let request = broken_down(Breakdown::Item(QuestionItemId::new(201)), Some(2));
    let results = insight::survey_results(&mut fake, ACME, SURVEY, &request).unwrap();
    assert_eq!(results.answer_sets, 7, "the whole");
    let groups = results.groups.unwrap();
    let shown: Vec<_> = groups
        .iter()
        .map(|group| (group.key.clone(), group.label.clone(), group.results.as_ref().map(|r| r.answer_sets)))
        .collect();
    assert_eq!(
        shown,
        [
            (Some(GroupKey::Text("x".into())), Some("X".into()), Some(4)),
            (Some(GroupKey::Text("y".into())), Some("Y".into()), Some(2)),
            (None, None, None),
        ],
        "the set with no answer is its own group, under the minimum"
    );
    let numbers = |group: &crate::insight::ResultGroup| group.results.as_ref().unwrap().items[3].figures.clone();
    let summary = NumericSummary { count: 2, mean: Some(4.0), median: Some(4.0), min: Some(3.0), max: Some(5.0) };
    assert_eq!(numbers(&groups[1]), ItemFigures::Numeric { answered: 2, summary });
    // Without a minimum, the default of 5 hides `y` and `x` (4 sets) alike.
    let default = broken_down(Breakdown::Item(QuestionItemId::new(201)), None);
    let groups = insight::survey_results(&mut fake, ACME, SURVEY, &default).unwrap().groups.unwrap();
    assert!(groups.iter().all(|group| group.results.is_none()));
}

#[test]
fn the_accounts_floor_bounds_the_minimum_group() {
    let mut fake = grouped_fixture();
    use crate::ports::AccountRepository;
    fake.save_account_settings(ACME, &AccountSettings::new(3).unwrap()).unwrap();
    let under = broken_down(Breakdown::Item(QuestionItemId::new(201)), Some(2));
    assert_eq!(invalid_fields(insight::survey_results(&mut fake, ACME, SURVEY, &under)), ["minGroupSize"]);
    let floor = broken_down(Breakdown::Item(QuestionItemId::new(201)), Some(3));
    let groups = insight::survey_results(&mut fake, ACME, SURVEY, &floor).unwrap().groups.unwrap();
    let shown: Vec<bool> = groups.iter().map(|group| group.results.is_some()).collect();
    assert_eq!(shown, [true, false, false]);
}

#[test]
fn breakdowns_and_conditions_must_fit_the_survey() {
    let mut fake = grouped_fixture();
    fake.seed_label(ACME, SECOND_WAVE, LabelId::new(40));
    fake.seed_label(ACME, WAVE, LabelId::new(41));
    let own_label = broken_down(Breakdown::Label(LabelId::new(41)), None);
    assert!(insight::survey_results(&mut fake, ACME, SURVEY, &own_label).is_ok());
    let mut refused =
        |request: ResultsRequest| invalid_fields(insight::survey_results(&mut fake, ACME, SURVEY, &request));
    for misfit in [Breakdown::Item(QuestionItemId::new(102)), Breakdown::Item(QuestionItemId::new(999))] {
        assert_eq!(refused(broken_down(misfit, None)), ["breakdownBy"], "{misfit:?}");
    }
    assert_eq!(
        refused(broken_down(Breakdown::Label(LabelId::new(40)), None)),
        ["breakdownBy"],
        "another survey's label"
    );
    for condition in ["999:eq:x", "202:eq:many", "203:gt:a", "101:eq:a"] {
        let filter = AnswerFilter::default().meeting(vec![AnswerCondition::parse(condition).unwrap()]);
        assert_eq!(refused(asked(filter)), ["where"], "{condition}");
    }
}

#[test]
fn conditions_narrow_the_sets_counted() {
    let mut fake = grouped_fixture();
    let conditions = ["201:ne:x", "202:lt:6"].map(|text| AnswerCondition::parse(text).unwrap());
    let filter = AnswerFilter::default().meeting(conditions.to_vec());
    let results = insight::survey_results(&mut fake, ACME, SURVEY, &asked(filter)).unwrap();
    // Sets 3 and 5 chose `y`; set 6 chose nothing but has 6, not under 6.
    assert_eq!(results.answer_sets, 2);
}
