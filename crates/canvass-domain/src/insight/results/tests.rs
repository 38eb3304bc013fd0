//! The rules of results: the Net Promoter Score's rounding, rating summaries, and how tallies become one entry per
//! item in tree order.

use super::*;
use crate::ids::PageId;
use crate::insight::{WordCount, WordTally};
use crate::survey::{ChoiceOption, Page};

fn distribution(ratings: &[(usize, i64)]) -> [i64; RATINGS] {
    let mut counts = [0; RATINGS];
    for (rating, count) in ratings {
        counts[*rating] = *count;
    }
    counts
}

#[test]
fn the_score_rounds_halves_away_from_zero() {
    // 100 × (1 − 2) / 8 = −12.5 and 100 × (2 − 1) / 8 = 12.5.
    let below = Nps::of(&distribution(&[(10, 1), (0, 1), (6, 1), (7, 3), (8, 2)]));
    assert_eq!((below.promoters, below.passives, below.detractors, below.score), (1, 5, 2, Some(-13)));
    let above = Nps::of(&distribution(&[(9, 1), (10, 1), (3, 1), (7, 5)]));
    assert_eq!((above.promoters, above.passives, above.detractors, above.score), (2, 5, 1, Some(13)));
    // 100 × (1 − 0) / 3 = 33.33… and 100 × (2 − 0) / 3 = 66.67…: to the nearest.
    assert_eq!(Nps::of(&distribution(&[(9, 1), (8, 2)])).score, Some(33));
    assert_eq!(Nps::of(&distribution(&[(9, 2), (8, 1)])).score, Some(67));
    assert_eq!(Nps::of(&distribution(&[(0, 4)])).score, Some(-100));
}

#[test]
fn no_rating_has_no_score_and_no_mean() {
    let summary = RatingSummary::of([0; RATINGS]);
    assert_eq!(summary.count, 0);
    assert_eq!(summary.mean, None);
    assert_eq!(summary.nps, Nps { promoters: 0, passives: 0, detractors: 0, score: None });
}

#[test]
fn a_rating_summary_counts_and_averages_its_distribution() {
    // Ratings 0, 5, 5, 9, 10: mean 29 / 5.
    let summary = RatingSummary::of(distribution(&[(0, 1), (5, 2), (9, 1), (10, 1)]));
    assert_eq!(summary.count, 5);
    assert_eq!(summary.mean, Some(5.8));
    assert_eq!(summary.nps, Nps { promoters: 2, passives: 0, detractors: 3, score: Some(-20) });
}

fn item(id: i64, kind: QuestionType, options: &[(&str, &str)]) -> QuestionItem {
    QuestionItem {
        id: QuestionItemId::new(id),
        page_id: PageId::new(if id < 5 { 1 } else { 2 }),
        kind,
        text: format!("item {id}"),
        required: false,
        options: options.iter().map(|(v, l)| ChoiceOption { value: (*v).into(), label: (*l).into() }).collect(),
        min_label: None,
        max_label: None,
        settings: Default::default(),
    }
}

/// Two pages: single choice 1, multiple choice 2, info 3 on the first; numeric 6, rating 7, open text 8 on the second.
fn tree() -> QuestionTree {
    let first = vec![
        item(1, QuestionType::SingleChoice, &[("yes", "Yes"), ("no", "No")]),
        item(2, QuestionType::MultipleChoice, &[("pay", "Pay"), ("team", "Team"), ("desk", "Desk")]),
        item(3, QuestionType::Info, &[]),
    ];
    let second = vec![
        item(6, QuestionType::Numeric, &[]),
        item(7, QuestionType::Rating, &[]),
        item(8, QuestionType::OpenText, &[]),
    ];
    let pages = vec![
        Page { id: PageId::new(1), title: "One".into(), items: first, randomize_items: false },
        Page { id: PageId::new(2), title: "Two".into(), items: second, randomize_items: false },
    ];
    QuestionTree::assemble(SurveyId::new(9), pages, vec![])
}

fn id(n: i64) -> QuestionItemId {
    QuestionItemId::new(n)
}

fn tally(item: i64, answered: i64) -> ItemTally {
    ItemTally { item: id(item), answered, numbers: NumericSummary::default() }
}

#[test]
fn every_item_comes_in_tree_order_with_every_option() {
    let numbers = NumericSummary { count: 3, mean: Some(2.5), median: Some(2.0), min: Some(-1.0), max: Some(6.5) };
    let tallies = ResultTallies {
        dates: vec![],
        cells: vec![],
        ranks: vec![],
        answer_sets: 4,
        words: vec![
            WordTally { item: id(8), word: "pay".into(), count: 1 },
            WordTally { item: id(8), word: "desks".into(), count: 2 },
        ],
        // In no particular order, as the store gives them.
        items: vec![
            tally(8, 2),
            ItemTally { item: id(6), answered: 3, numbers },
            tally(2, 3),
            tally(1, 4),
            tally(7, 2),
        ],
        choices: vec![
            ChoiceCount { item: id(2), value: "team".into(), count: 3 },
            ChoiceCount { item: id(1), value: "yes".into(), count: 3 },
            ChoiceCount { item: id(2), value: "pay".into(), count: 1 },
            ChoiceCount { item: id(1), value: "no".into(), count: 1 },
            ChoiceCount { item: id(1), value: "maybe".into(), count: 5 },
        ],
        numbers: vec![],
        ratings: vec![
            RatingCount { item: id(7), rating: 10, count: 1 },
            RatingCount { item: id(7), rating: 3, count: 1 },
        ],
    };
    let results = SurveyResults::assemble(&tree(), tallies);
    assert_eq!((results.survey_id, results.answer_sets), (SurveyId::new(9), 4));
    let ids: Vec<i64> = results.items.iter().map(|r| r.question_item_id.get()).collect();
    assert_eq!(ids, [1, 2, 3, 6, 7, 8]);
    assert_eq!(results.items[0].text, "item 1");
    let option = |value: &str, label: &str, count| OptionCount { value: value.into(), label: label.into(), count };
    assert_eq!(
        results.items[0].figures,
        ItemFigures::Choices { answered: 4, options: vec![option("yes", "Yes", 3), option("no", "No", 1)] },
        "a value the item does not offer is left out"
    );
    assert_eq!(
        results.items[1].figures,
        ItemFigures::Choices {
            answered: 3,
            options: vec![option("pay", "Pay", 1), option("team", "Team", 3), option("desk", "Desk", 0)]
        },
        "an option never chosen counts zero"
    );
    assert_eq!(results.items[2].figures, ItemFigures::Info);
    assert_eq!(results.items[3].figures, ItemFigures::Numeric { answered: 3, summary: numbers });
    let ItemFigures::Rating { answered: 2, summary } = results.items[4].figures else {
        panic!("a rating: {:?}", results.items[4].figures)
    };
    assert_eq!(summary.distribution, [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]);
    assert_eq!((summary.count, summary.mean, summary.nps.score), (2, Some(6.5), Some(0)));
    let word = |word: &str, count| WordCount { word: word.into(), count };
    let top_words = vec![word("desks", 2), word("pay", 1)];
    assert_eq!(results.items[5].figures, ItemFigures::OpenText { answered: 2, top_words }, "most answers first");
}

#[test]
fn items_nobody_answered_count_zero_and_have_no_figures() {
    let results = SurveyResults::assemble(&tree(), ResultTallies::default());
    assert_eq!(results.answer_sets, 0);
    let figures: Vec<&ItemFigures> = results.items.iter().map(|r| &r.figures).collect();
    let zero = |value: &str, label: &str| OptionCount { value: value.into(), label: label.into(), count: 0 };
    assert_eq!(*figures[0], ItemFigures::Choices { answered: 0, options: vec![zero("yes", "Yes"), zero("no", "No")] });
    assert_eq!(*figures[3], ItemFigures::Numeric { answered: 0, summary: NumericSummary::default() });
    let ItemFigures::Rating { answered: 0, summary } = figures[4] else { panic!("a rating: {:?}", figures[4]) };
    assert_eq!((summary.count, summary.mean, summary.nps.score, summary.distribution), (0, None, None, [0; RATINGS]));
    assert_eq!(*figures[5], ItemFigures::OpenText { answered: 0, top_words: vec![] });
}

#[test]
fn numbers_without_a_count_have_no_figures_and_ratings_out_of_range_are_dropped() {
    let stray = NumericSummary { count: 0, mean: Some(1.0), median: Some(1.0), min: Some(1.0), max: Some(1.0) };
    let tallies = ResultTallies {
        dates: vec![],
        cells: vec![],
        ranks: vec![],
        answer_sets: 1,
        items: vec![ItemTally { item: id(6), answered: 1, numbers: stray }],
        numbers: vec![],
        ratings: vec![
            RatingCount { item: id(7), rating: 11, count: 4 },
            RatingCount { item: id(7), rating: -1, count: 4 },
        ],
        ..ResultTallies::default()
    };
    let results = SurveyResults::assemble(&tree(), tallies);
    assert_eq!(results.items[3].figures, ItemFigures::Numeric { answered: 1, summary: NumericSummary::default() });
    let ItemFigures::Rating { summary, .. } = results.items[4].figures else { panic!("a rating") };
    assert_eq!(summary.count, 0);
}
