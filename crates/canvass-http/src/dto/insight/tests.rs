//! The JSON of the insight bodies: every status named, each item by its type (an Info item without `answered`),
//! nulls where a figure is missing, days as YYYY-MM-DD.

use canvass_domain::distribution::RespondentStatus;
use canvass_domain::ids::{QuestionItemId, SendoutId, SurveyId};
use canvass_domain::insight::{
    DailyActivity, ItemFigures, ItemResult, NumericSummary, OptionCount, RatingSummary, SendoutFigures,
    SendoutStatistics, StatusCounts, SurveyResults,
};
use canvass_domain::survey::QuestionType;
use serde_json::{json, Value};
use time::macros::date;

use super::*;

fn to_json(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_default()
}

#[test]
fn by_status_names_every_status_with_its_count() {
    let counts = StatusCounts::of([(RespondentStatus::Sent, 4), (RespondentStatus::FrequencyLimitReached, 2)]);
    let body = to_json(ByStatusBody::from(counts));
    let mut names: Vec<&str> = counts.iter().map(|(status, _)| status.as_str()).collect();
    names.sort_unstable();
    let keys: Vec<&str> = body.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(keys, names, "every status, by its name (the map sorts them), and nothing else");
    for (status, count) in counts.iter() {
        assert_eq!(body[status.as_str()], count, "{}", status.as_str());
    }
    assert_eq!(body["FrequencyLimitReached"], 2);
}

#[test]
fn statistics_without_anyone_reached_have_null_rates_and_days_are_dates() {
    let figures = SendoutFigures {
        by_status: StatusCounts::of([(RespondentStatus::Pending, 2)]),
        daily: vec![DailyActivity { date: date!(2026 - 03 - 07), sent: 0, started: 1, completed: 0 }],
        ..SendoutFigures::default()
    };
    let body = to_json(SendoutStatisticsResponse::from(SendoutStatistics::new(SendoutId::new(5), figures)));
    assert_eq!(body["sendoutId"], 5);
    assert_eq!(body["respondents"], 2);
    assert_eq!(body["byStatus"]["Pending"], 2);
    assert_eq!((&body["responseRate"], &body["completionRate"]), (&Value::Null, &Value::Null));
    assert_eq!(body["medianSecondsToComplete"], Value::Null);
    assert_eq!(body["optedOut"], 0);
    assert_eq!(body["daily"], json!([{"date": "2026-03-07", "sent": 0, "started": 1, "completed": 0}]));
}

fn result(id: i64, kind: QuestionType, figures: ItemFigures) -> ItemResult {
    ItemResult { question_item_id: QuestionItemId::new(id), kind, text: format!("Item {id}"), figures }
}

#[test]
fn each_item_is_written_by_its_type() {
    let option = OptionCount { value: "a".into(), label: "A".into(), count: 2 };
    let results = SurveyResults {
        survey_id: SurveyId::new(3),
        answer_sets: 2,
        groups: None,
        items: vec![
            result(1, QuestionType::SingleChoice, ItemFigures::Choices { answered: 2, options: vec![option.clone()] }),
            result(2, QuestionType::MultipleChoice, ItemFigures::Choices { answered: 1, options: vec![option] }),
            result(3, QuestionType::Info, ItemFigures::Info),
            result(4, QuestionType::Numeric, ItemFigures::Numeric { answered: 0, summary: NumericSummary::default() }),
            result(
                5,
                QuestionType::Rating,
                ItemFigures::Rating { answered: 1, summary: RatingSummary::of([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]) },
            ),
            result(
                6,
                QuestionType::OpenText,
                ItemFigures::OpenText {
                    answered: 2,
                    top_words: vec![canvass_domain::insight::WordCount { word: "desks".into(), count: 2 }],
                },
            ),
        ],
    };
    let body = to_json(SurveyResultsResponse::from(results));
    assert_eq!((&body["surveyId"], &body["answerSets"]), (&json!(3), &json!(2)));
    let items = &body["items"];
    assert_eq!(
        items[0],
        json!({"type": "SingleChoice", "questionItemId": 1, "text": "Item 1", "answered": 2,
            "options": [{"value": "a", "label": "A", "count": 2}]})
    );
    assert_eq!(items[1]["type"], "MultipleChoice");
    assert_eq!(items[2], json!({"type": "Info", "questionItemId": 3, "text": "Item 3"}), "no answered");
    assert_eq!(
        items[3],
        json!({"type": "Numeric", "questionItemId": 4, "text": "Item 4", "answered": 0, "count": 0,
            "mean": null, "median": null, "min": null, "max": null})
    );
    assert_eq!(
        items[4],
        json!({"type": "Rating", "questionItemId": 5, "text": "Item 5", "answered": 1, "count": 1, "mean": 9.0,
            "distribution": [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0],
            "nps": {"promoters": 1, "passives": 0, "detractors": 0, "score": 100}})
    );
    assert_eq!(
        items[5],
        json!({"type": "OpenText", "questionItemId": 6, "text": "Item 6", "answered": 2, "count": 2,
            "topWords": [{"word": "desks", "count": 2}]})
    );
}

fn filter() -> ResultsFilterQuery {
    ResultsFilterQuery {
        from: None,
        to: None,
        updated: None,
        completed: None,
        sendout_id: None,
        language: None,
        conditions: Vec::new(),
    }
}

#[test]
fn the_results_query_is_the_answer_filter_with_a_sendout() {
    let asked = ResultsFilterQuery { completed: Some(true), sendout_id: Some(8), ..filter() };
    let request = results_request(asked, BreakdownQuery::default()).unwrap_or_default();
    assert!(request.filter.completed_only);
    assert_eq!(request.filter.sendout_id, Some(SendoutId::new(8)));
    assert_eq!(filter().into_domain().unwrap_or_default().sendout_id, None);
}

#[test]
fn the_results_query_reads_breakdown_minimum_and_conditions_naming_each_fault() {
    let asked = ResultsFilterQuery { conditions: vec!["7:in:a|b".into()], ..filter() };
    let breakdown = BreakdownQuery { breakdown_by: Some("bg:4".into()), min_group_size: Some(3) };
    let request = results_request(asked, breakdown).unwrap();
    assert_eq!(
        request.breakdown,
        Some(canvass_domain::insight::Breakdown::Label(canvass_domain::ids::LabelId::new(4)))
    );
    assert_eq!((request.min_group_size, request.filter.conditions.len()), (Some(3), 1));
    let wrong = ResultsFilterQuery { conditions: vec!["7:like:a".into()], ..filter() };
    let breakdown = BreakdownQuery { breakdown_by: Some("colour".into()), min_group_size: Some(0) };
    let fields: Vec<String> =
        results_request(wrong, breakdown).unwrap_err().into_iter().map(|error| error.field).collect();
    assert_eq!(fields, ["where", "breakdownBy", "minGroupSize"]);
}

#[test]
fn a_group_shows_its_figures_or_only_that_it_is_suppressed() {
    use canvass_domain::insight::{GroupKey, ResultGroup};
    let results = SurveyResults { survey_id: SurveyId::new(3), answer_sets: 6, items: vec![], groups: None };
    let groups = vec![
        ResultGroup { key: Some(GroupKey::Number(7)), label: Some("7".into()), results: Some(results.clone()) },
        ResultGroup { key: Some(GroupKey::Text("sv".into())), label: Some("Svenska".into()), results: None },
        ResultGroup { key: None, label: None, results: None },
    ];
    let body = SurveyResultsResponse::from(SurveyResults { groups: Some(groups), ..results });
    assert_eq!(
        serde_json::to_value(&body).unwrap()["groups"],
        json!([
            {"key": 7, "label": "7", "suppressed": false, "answerSets": 6, "items": []},
            {"key": "sv", "label": "Svenska", "suppressed": true},
            {"key": null, "label": null, "suppressed": true},
        ])
    );
}
