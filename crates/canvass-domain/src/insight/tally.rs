//! A group's tallies from the distinct values its answers hold: the store counts, in one pass over the answers, how
//! many answers gave each item each value, and the rules of each answering type read those values here (the options
//! a choice item offers, whole ratings from 0 to 10, the rows of a Matrix, the places of a Ranking, the numbers of a
//! Numeric item with their mean, median and histogram).
//!
//! A value that does not fit its item's type (left by an edit of the tree) counts as an answer and nothing else.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;

use super::{CellCount, ChoiceCount, DateTally, ItemTally, NumericSummary, RankTally, RatingCount, ResultTallies};
use crate::ids::QuestionItemId;
use crate::survey::{QuestionItem, QuestionTree, QuestionType};

/// How many answers of the matching sets gave a Numeric item one number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberCount {
    /// The item.
    pub item: QuestionItemId,
    /// The number.
    pub number: f64,
    /// Answers that gave it.
    pub count: i64,
}

/// The figures of one place in a Ranking: answers, the sum of the places (from 1) and the first places.
type Places = (i64, f64, i64);

/// Builds one group's [`ResultTallies`] from `(item, value, answers)` counts, in any order, a value counted once
/// or split over several counts alike.
pub struct ValueTallies<'tree> {
    items: HashMap<QuestionItemId, &'tree QuestionItem>,
    /// The option values of each item with options, looked up once per chosen value (an item may offer 1,000).
    offered: HashMap<QuestionItemId, HashSet<&'tree str>>,
    answered: BTreeMap<QuestionItemId, i64>,
    numbers: BTreeMap<QuestionItemId, Vec<(f64, i64)>>,
    choices: BTreeMap<(QuestionItemId, String), i64>,
    ratings: BTreeMap<(QuestionItemId, i64), i64>,
    dates: BTreeMap<QuestionItemId, DateTally>,
    cells: BTreeMap<(QuestionItemId, String, String), i64>,
    ranks: BTreeMap<(QuestionItemId, String), Places>,
}

impl<'tree> ValueTallies<'tree> {
    /// Nothing counted yet, for the items of the tree.
    pub fn new(tree: &'tree QuestionTree) -> Self {
        Self {
            items: tree.items().map(|item| (item.id, item)).collect(),
            offered: (tree.items())
                .map(|item| (item.id, item.options.iter().map(|option| option.value.as_str()).collect()))
                .collect(),
            answered: BTreeMap::new(),
            numbers: BTreeMap::new(),
            choices: BTreeMap::new(),
            ratings: BTreeMap::new(),
            dates: BTreeMap::new(),
            cells: BTreeMap::new(),
            ranks: BTreeMap::new(),
        }
    }

    /// Counts `count` answers to `item` that hold `value` (`None`: answers whose value does not matter, those of
    /// OpenText items). An item the tree does not have is left out.
    pub fn add(&mut self, item: QuestionItemId, value: Option<&Value>, count: i64) {
        let Some(question) = self.items.get(&item) else { return };
        *self.answered.entry(item).or_default() += count;
        let Some(value) = value else { return };
        let offers = |value: &str| self.offered.get(&item).is_some_and(|offered| offered.contains(value));
        match (question.kind, value) {
            (QuestionType::Numeric, Value::Number(number)) => {
                if let Some(number) = number.as_f64() {
                    self.numbers.entry(item).or_default().push((number, count));
                }
            }
            (QuestionType::Rating, Value::Number(number)) => {
                if let Some(rating) = number.as_f64().and_then(whole_rating) {
                    *self.ratings.entry((item, rating)).or_default() += count;
                }
            }
            (QuestionType::SingleChoice | QuestionType::Dropdown, Value::String(chosen)) if offers(chosen) => {
                *self.choices.entry((item, chosen.clone())).or_default() += count;
            }
            (QuestionType::MultipleChoice, Value::Array(chosen)) => {
                let mut distinct: Vec<&str> = chosen.iter().filter_map(Value::as_str).filter(|v| offers(v)).collect();
                distinct.sort_unstable();
                distinct.dedup();
                for chosen in distinct {
                    *self.choices.entry((item, chosen.to_owned())).or_default() += count;
                }
            }
            (QuestionType::Date, Value::String(date)) if !date.is_empty() => {
                let tally = self.dates.entry(item).or_insert_with(|| DateTally {
                    item,
                    count: 0,
                    earliest: date.clone(),
                    latest: date.clone(),
                });
                tally.count += count;
                if *date < tally.earliest {
                    tally.earliest.clone_from(date);
                }
                if *date > tally.latest {
                    tally.latest.clone_from(date);
                }
            }
            (QuestionType::Matrix, Value::Object(rows)) => {
                for (row, chosen) in rows {
                    if let Value::String(chosen) = chosen {
                        *self.cells.entry((item, row.clone(), chosen.clone())).or_default() += count;
                    }
                }
            }
            (QuestionType::Ranking, Value::Array(order)) => {
                for (place, ranked) in (1_u32..).zip(order) {
                    if let Value::String(ranked) = ranked {
                        let tally = self.ranks.entry((item, ranked.clone())).or_default();
                        tally.0 += count;
                        tally.1 += f64::from(place) * count as f64;
                        tally.2 += if place == 1 { count } else { 0 };
                    }
                }
            }
            _ => {}
        }
    }

    /// The tallies of the `answer_sets` sets counted, with the numbers of each Numeric item in number order.
    pub fn finish(self, answer_sets: i64) -> ResultTallies {
        let mut numbers = Vec::new();
        let mut summaries: HashMap<QuestionItemId, NumericSummary> = HashMap::new();
        for (item, mut given) in self.numbers {
            given.sort_by(|a, b| a.0.total_cmp(&b.0));
            summaries.insert(item, summary(&given));
            numbers.extend(given.into_iter().map(|(number, count)| NumberCount { item, number, count }));
        }
        let items = self
            .answered
            .into_iter()
            .map(|(item, answered)| ItemTally {
                item,
                answered,
                numbers: summaries.get(&item).copied().unwrap_or_default(),
            })
            .collect();
        ResultTallies {
            dates: self.dates.into_values().collect(),
            cells: (self.cells.into_iter())
                .map(|((item, row, value), count)| CellCount { item, row, value, count })
                .collect(),
            ranks: (self.ranks.into_iter())
                .map(|((item, value), (count, places, first_places))| RankTally {
                    item,
                    value,
                    count,
                    places,
                    first_places,
                })
                .collect(),
            answer_sets,
            words: Vec::new(),
            items,
            choices: self
                .choices
                .into_iter()
                .map(|((item, value), count)| ChoiceCount { item, value, count })
                .collect(),
            ratings: self
                .ratings
                .into_iter()
                .map(|((item, rating), count)| RatingCount { item, rating, count })
                .collect(),
            numbers,
        }
    }
}

/// A whole rating from 0 to 10, as the domain stores them; `None` for any other number.
fn whole_rating(rating: f64) -> Option<i64> {
    let range = QuestionType::RATING_MIN as f64..=QuestionType::RATING_MAX as f64;
    (rating.fract() == 0.0 && range.contains(&rating)).then_some(rating as i64)
}

/// Count, mean, median, lowest and highest of numbers given as `(number, answers)` in number order.
/// The median is the 50th percentile interpolated between the two middle numbers, as SQL's `percentile_cont(0.5)`.
fn summary(given: &[(f64, i64)]) -> NumericSummary {
    let count: i64 = given.iter().map(|(_, n)| n).sum();
    if count == 0 {
        return NumericSummary::default();
    }
    let total: f64 = given.iter().map(|(number, n)| number * *n as f64).sum();
    // The numbers at places `lower` and `lower + 1` (from 0) of the sorted list of every answer's number.
    let at = |place: i64| {
        let mut seen = 0;
        given.iter().find(|(_, n)| {
            seen += n;
            seen > place
        })
    };
    let lower = (count - 1) / 2;
    let below = at(lower).map(|(number, _)| *number);
    let above = if count % 2 == 0 { at(lower + 1).map(|(number, _)| *number) } else { below };
    NumericSummary {
        count,
        mean: Some(total / count as f64),
        median: below.zip(above).map(|(below, above)| below + (above - below) / 2.0),
        min: given.first().map(|(number, _)| *number),
        max: given.last().map(|(number, _)| *number),
    }
}

#[cfg(test)]
mod tests;
