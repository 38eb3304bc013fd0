use canvass_domain::ids::QuestionItemId;
use canvass_domain::insight::{
    BinLayout, Histogram, ItemFigures, ItemResult, NumericSummary, OptionCount, RatingSummary, RowCounts,
};
use canvass_domain::survey::QuestionType;

use super::*;

fn result(kind: QuestionType, figures: ItemFigures) -> ItemResult {
    ItemResult { question_item_id: QuestionItemId::new(7), kind, text: "How was it?\u{7}".to_owned(), figures }
}

fn option(label: &str, count: i64) -> OptionCount {
    OptionCount { value: label.to_lowercase(), label: label.to_owned(), count }
}

#[test]
fn choices_are_bars_with_shares_of_the_answers_and_the_same_table() {
    let figures =
        ItemFigures::Choices { answered: 8, options: vec![option("Yes", 6), option("No", 2), option("?", 0)] };
    let chart = Chart::of(&result(QuestionType::SingleChoice, figures), None);
    assert_eq!(chart.title, "How was it?", "control characters are left out");
    assert_eq!(chart.summary, "8 answers");
    let Some(Plot::Bars { bars, of, .. }) = &chart.plot else { panic!("bars: {chart:?}") };
    assert_eq!((bars.len(), bars[0].count, *of), (3, 6, 8));
    assert_eq!(chart.table.head, ["Option", "Answers", "Share"]);
    assert_eq!(chart.table.rows[0], ["Yes", "6", "75%"]);
    assert_eq!(chart.table.rows[2], ["?", "0", "0%"]);
}

#[test]
fn a_rating_has_eleven_bars_and_its_nps_in_the_summary() {
    let mut distribution = [0; 11];
    (distribution[10], distribution[9], distribution[3]) = (3, 1, 2);
    let figures = ItemFigures::Rating { answered: 6, summary: RatingSummary::of(distribution) };
    let chart = Chart::of(&result(QuestionType::Rating, figures), None);
    assert_eq!(chart.summary, "6 answers; mean 7.5; NPS 33 (4 promoters, 0 passives, 2 detractors)");
    assert_eq!(chart.table.rows.len(), 11);
    assert_eq!(chart.table.rows[10], ["10", "3", "50%"]);
}

#[test]
fn a_numeric_item_is_its_histogram() {
    let summary = NumericSummary { count: 5, mean: Some(30.2), median: Some(25.0), min: Some(18.0), max: Some(67.0) };
    let layout = BinLayout::of(QuestionItemId::new(7), 18.0, 67.0);
    let histogram = Histogram::of(layout, [(0, 2), (2, 2), (10, 1)]);
    let figures = ItemFigures::Numeric { answered: 5, summary };
    let chart = Chart::of(&result(QuestionType::Numeric, figures), Some(&histogram));
    assert_eq!(chart.summary, "5 answers; mean 30.2; median 25; from 18 to 67");
    assert_eq!(chart.table.rows.len(), 11);
    assert_eq!(chart.table.rows[0], ["15 to < 20", "2", "40%"]);
    assert_eq!(chart.table.rows[10], ["65 to < 70", "1", "20%"]);
}

#[test]
fn a_matrix_is_a_row_per_row_with_each_options_share_of_the_row() {
    let row = |label: &str, counts: [i64; 2]| RowCounts {
        value: label.to_lowercase(),
        label: label.to_owned(),
        options: vec![option("Agree", counts[0]), option("Disagree", counts[1])],
    };
    let figures = ItemFigures::Matrix { answered: 4, rows: vec![row("Price", [3, 1]), row("Staff", [0, 0])] };
    let chart = Chart::of(&result(QuestionType::Matrix, figures), None);
    assert_eq!(chart.table.head, ["Row", "Agree", "Disagree"]);
    assert_eq!(chart.table.rows[0], ["Price", "3 (75%)", "1 (25%)"]);
    assert_eq!(chart.table.rows[1], ["Staff", "0 (–)", "0 (–)"]);
    assert!(matches!(chart.plot, Some(Plot::Rows { ref rows, .. }) if rows.len() == 2));
}

#[test]
fn a_date_has_a_table_and_no_plot() {
    let figures = ItemFigures::Date { answered: 2, count: 2, min: None, max: None };
    let chart = Chart::of(&result(QuestionType::Date, figures), None);
    assert!(chart.plot.is_none());
    assert_eq!(chart.table.rows[1], ["Earliest", "–"]);
}

#[test]
fn numbers_keep_at_most_two_decimals() {
    assert_eq!([number(2.0), number(2.5), number(1.0 / 3.0), number(-0.001)], ["2", "2.5", "0.33", "0"]);
    assert_eq!([percent(1, 3), percent(0, 0)], ["33%", "–"]);
}
