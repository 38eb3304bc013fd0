//! How counted values become tallies: by the item's type, a value that does not fit counting as an answer only.

use serde_json::json;

use super::*;
use crate::ids::{PageId, SurveyId};
use crate::survey::Page;
use crate::testing::{capitalised, question_item};

fn item(id: i64, kind: QuestionType, options: &[&str]) -> QuestionItem {
    question_item(id, 1, kind, capitalised(options))
}

fn tree() -> QuestionTree {
    let items = vec![
        item(1, QuestionType::SingleChoice, &["yes", "no"]),
        item(2, QuestionType::MultipleChoice, &["pay", "team"]),
        item(3, QuestionType::Numeric, &[]),
        item(4, QuestionType::Rating, &[]),
        item(5, QuestionType::Date, &[]),
        item(6, QuestionType::Matrix, &["1", "2"]),
        item(7, QuestionType::Ranking, &["a", "b", "c"]),
        item(8, QuestionType::OpenText, &[]),
    ];
    let pages = vec![Page { id: PageId::new(1), title: "One".into(), items, randomize_items: false }];
    QuestionTree::assemble(SurveyId::new(9), pages, vec![])
}

fn id(n: i64) -> QuestionItemId {
    QuestionItemId::new(n)
}

fn counted(values: &[(i64, Option<Value>, i64)]) -> ResultTallies {
    let tree = tree();
    let mut tallies = ValueTallies::new(&tree);
    for (item, value, count) in values {
        tallies.add(id(*item), value.as_ref(), *count);
    }
    tallies.finish(10)
}

#[test]
fn choices_count_offered_values_once_per_answer() {
    let tallies = counted(&[
        (1, Some(json!("yes")), 3),
        (1, Some(json!("maybe")), 2),
        (1, Some(json!(["yes"])), 1),
        (2, Some(json!(["pay", "team", "pay", 4, "gone"])), 2),
        (2, Some(json!(["team"])), 1),
    ]);
    let choices: Vec<(i64, &str, i64)> =
        tallies.choices.iter().map(|c| (c.item.get(), c.value.as_str(), c.count)).collect();
    assert_eq!(choices, [(1, "yes", 3), (2, "pay", 2), (2, "team", 3)]);
    let answered: Vec<(i64, i64)> = tallies.items.iter().map(|t| (t.item.get(), t.answered)).collect();
    assert_eq!(answered, [(1, 6), (2, 3)]);
    assert_eq!(tallies.answer_sets, 10);
}

#[test]
fn numbers_give_mean_median_and_range_as_sql_would() {
    // 1, 2, 2, 10 (the 2s counted in two parts): mean 15 / 4, median between 2 and 2.
    let tallies = counted(&[
        (3, Some(json!(10)), 1),
        (3, Some(json!(2)), 1),
        (3, Some(json!(1)), 1),
        (3, Some(json!(2.0)), 1),
        (3, Some(json!("7")), 1),
    ]);
    let summary = tallies.items[0].numbers;
    assert_eq!(tallies.items[0].answered, 5);
    assert_eq!(summary.count, 4);
    assert_eq!(summary.mean, Some(3.75));
    assert_eq!(summary.median, Some(2.0));
    assert_eq!((summary.min, summary.max), (Some(1.0), Some(10.0)));
    let listed: Vec<(f64, i64)> = tallies.numbers.iter().map(|n| (n.number, n.count)).collect();
    assert_eq!(listed, [(1.0, 1), (2.0, 1), (2.0, 1), (10.0, 1)]);
    // An even count interpolates between the middle two; an odd one takes the middle.
    let even = counted(&[(3, Some(json!(1)), 3), (3, Some(json!(4)), 3)]);
    assert_eq!(even.items[0].numbers.median, Some(2.5));
    let odd = counted(&[(3, Some(json!(1)), 3), (3, Some(json!(4)), 2)]);
    assert_eq!(odd.items[0].numbers.median, Some(1.0));
}

#[test]
fn ratings_dates_cells_and_places_follow_their_types() {
    let tallies = counted(&[
        (4, Some(json!(9)), 2),
        (4, Some(json!(7.5)), 1),
        (4, Some(json!(11)), 1),
        (5, Some(json!("2026-03-01")), 1),
        (5, Some(json!("2025-12-24")), 2),
        (5, Some(json!("")), 4),
        (6, Some(json!({"speed": "1", "price": "2", "odd": 3})), 2),
        (6, Some(json!({"speed": "1"})), 1),
        (7, Some(json!(["b", "a", 5, "c"])), 2),
        (7, Some(json!(["a", "b"])), 1),
        (8, None, 6),
    ]);
    assert!(tallies.numbers.is_empty(), "only Numeric items list their numbers");
    let ratings: Vec<(i64, i64)> = tallies.ratings.iter().map(|r| (r.rating, r.count)).collect();
    assert_eq!(ratings, [(9, 2)]);
    let date = &tallies.dates[0];
    assert_eq!((date.count, date.earliest.as_str(), date.latest.as_str()), (3, "2025-12-24", "2026-03-01"));
    let cells: Vec<(&str, &str, i64)> =
        tallies.cells.iter().map(|c| (c.row.as_str(), c.value.as_str(), c.count)).collect();
    assert_eq!(cells, [("price", "2", 2), ("speed", "1", 3)]);
    let ranks: Vec<(&str, i64, f64, i64)> =
        tallies.ranks.iter().map(|r| (r.value.as_str(), r.count, r.places, r.first_places)).collect();
    // "c" is fourth: the number before it keeps its place.
    assert_eq!(ranks, [("a", 3, 5.0, 1), ("b", 3, 4.0, 2), ("c", 2, 8.0, 0)]);
    let answered: Vec<(i64, i64)> = tallies.items.iter().map(|t| (t.item.get(), t.answered)).collect();
    assert_eq!(answered, [(4, 4), (5, 7), (6, 3), (7, 3), (8, 6)]);
}

#[test]
fn an_item_the_tree_does_not_have_is_left_out() {
    let tallies = counted(&[(99, Some(json!("yes")), 4)]);
    assert!(tallies.items.is_empty() && tallies.choices.is_empty());
}
