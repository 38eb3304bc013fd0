//! A survey's results: per question item, in tree order, what the matching answer sets answered, from tallies the
//! store computes ([`ResultTallies`]); the Net Promoter Score of rating items.

use std::collections::HashMap;

use super::figures::divide_rounded;
use crate::ids::{QuestionItemId, SurveyId};
use crate::survey::{QuestionItem, QuestionTree, QuestionType};

/// How many ratings there are: one per whole number from [`QuestionType::RATING_MIN`] to
/// [`QuestionType::RATING_MAX`].
pub const RATINGS: usize = (QuestionType::RATING_MAX - QuestionType::RATING_MIN + 1) as usize;

/// Lowest rating of a promoter.
const PROMOTER_FROM: i64 = 9;
/// Highest rating of a detractor.
const DETRACTOR_TO: i64 = 6;

/// The numbers answered to a Numeric item: their count and, when there is at least one, their mean, median (the
/// mean of the two middle values for an even count), lowest and highest.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct NumericSummary {
    /// How many numbers.
    pub count: i64,
    /// Their mean.
    pub mean: Option<f64>,
    /// Their median.
    pub median: Option<f64>,
    /// The lowest.
    pub min: Option<f64>,
    /// The highest.
    pub max: Option<f64>,
}

impl NumericSummary {
    /// The summary with no figure when there is no number.
    fn checked(self) -> Self {
        if self.count == 0 {
            Self::default()
        } else {
            self
        }
    }
}

/// What the store tallies for one item answered in the matching sets.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemTally {
    /// The item.
    pub item: QuestionItemId,
    /// Answers to it.
    pub answered: i64,
    /// Its numbers, for a Numeric item (a zero count for the other types).
    pub numbers: NumericSummary,
}

/// How many times one option value of a choice item was chosen in the matching sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceCount {
    /// The item.
    pub item: QuestionItemId,
    /// The option value.
    pub value: String,
    /// Answers that chose it.
    pub count: i64,
}

/// How many answers of the matching sets gave a Rating item one rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingCount {
    /// The item.
    pub item: QuestionItemId,
    /// The rating, a whole number from 0 to 10.
    pub rating: i64,
    /// Answers that gave it.
    pub count: i64,
}

/// Of one Date item: how many answers hold a date, and the earliest and latest (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateTally {
    /// The item.
    pub item: QuestionItemId,
    /// Answers holding a date.
    pub count: i64,
    /// The earliest date given.
    pub earliest: String,
    /// The latest date given.
    pub latest: String,
}

/// Of one row of a Matrix item: how many answers chose one option value for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellCount {
    /// The item.
    pub item: QuestionItemId,
    /// The row value.
    pub row: String,
    /// The option value.
    pub value: String,
    /// Answers that chose it for the row.
    pub count: i64,
}

/// Of one option of a Ranking item: how many answers ranked it, the sum of the places they gave it (from 1) and
/// how many put it first.
#[derive(Debug, Clone, PartialEq)]
pub struct RankTally {
    /// The item.
    pub item: QuestionItemId,
    /// The option value.
    pub value: String,
    /// Answers that ranked it.
    pub count: i64,
    /// The sum of its places.
    pub places: f64,
    /// Answers that put it first.
    pub first_places: i64,
}

/// What the store tallies over a survey's answer sets that pass a filter (see
/// [`InsightRepository::result_tallies`](super::ports::InsightRepository::result_tallies)).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultTallies {
    /// Per Date item, its dates.
    pub dates: Vec<DateTally>,
    /// Per Matrix item, row and option value, the answers that chose it.
    pub cells: Vec<CellCount>,
    /// Per Ranking item and option, its places.
    pub ranks: Vec<RankTally>,
    /// The matching answer sets.
    pub answer_sets: i64,
    /// Per OpenText item, its most frequent words (at least its top [`super::TOP_WORDS`], ties included or not).
    pub words: Vec<super::WordTally>,
    /// One per item with at least one answer, in any order.
    pub items: Vec<ItemTally>,
    /// Option values of SingleChoice and MultipleChoice items with how many answers chose them (each value of a
    /// multiple choice counts once per answer that chose it); a value never chosen may be missing or count zero.
    pub choices: Vec<ChoiceCount>,
    /// Ratings of Rating items with how many answers gave them; a rating never given is missing.
    pub ratings: Vec<RatingCount>,
    /// The numbers answered to Numeric items with how many answers gave each, in number order per item (what
    /// their histograms count).
    pub numbers: Vec<super::NumberCount>,
}

/// One option of a choice item and how many answers chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionCount {
    /// The option value.
    pub value: String,
    /// The label shown.
    pub label: String,
    /// Answers that chose it.
    pub count: i64,
}

/// The Net Promoter Score of a Rating item: promoters rate 9 or 10, passives 7 or 8, detractors 0 to 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nps {
    /// Ratings of 9 and 10.
    pub promoters: i64,
    /// Ratings of 7 and 8.
    pub passives: i64,
    /// Ratings of 0 to 6.
    pub detractors: i64,
    /// `round(100 × (promoters − detractors) / count)`, halves away from zero (−12.5 → −13, 12.5 → 13), in
    /// integers; `None` without a rating.
    pub score: Option<i64>,
}

impl Nps {
    /// The score of a distribution of ratings 0 to 10.
    ///
    /// ```
    /// use canvass_domain::insight::Nps;
    ///
    /// // One promoter, two detractors, five passives: 100 × (1 − 2) / 8 = −12.5.
    /// let nps = Nps::of(&[1, 0, 0, 0, 0, 0, 1, 5, 0, 0, 1]);
    /// assert_eq!((nps.promoters, nps.passives, nps.detractors, nps.score), (1, 5, 2, Some(-13)));
    /// ```
    pub fn of(distribution: &[i64; RATINGS]) -> Self {
        let sum = |keep: fn(i64) -> bool| -> i64 {
            (QuestionType::RATING_MIN..=QuestionType::RATING_MAX)
                .zip(distribution)
                .filter(|(rating, _)| keep(*rating))
                .map(|(_, count)| count)
                .sum()
        };
        let promoters = sum(|rating| rating >= PROMOTER_FROM);
        let detractors = sum(|rating| rating <= DETRACTOR_TO);
        let passives = sum(|rating| rating > DETRACTOR_TO && rating < PROMOTER_FROM);
        let count = i128::from(promoters + passives + detractors);
        let score = divide_rounded(100 * i128::from(promoters - detractors), count).map(|score| score as i64);
        Self { promoters, passives, detractors, score }
    }
}

/// The ratings given to a Rating item: their count, mean, distribution and Net Promoter Score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingSummary {
    /// How many ratings.
    pub count: i64,
    /// Their mean; `None` without a rating.
    pub mean: Option<f64>,
    /// How many of each rating, 0 to 10.
    pub distribution: [i64; RATINGS],
    /// The Net Promoter Score.
    pub nps: Nps,
}

impl RatingSummary {
    /// The summary of a distribution of ratings 0 to 10.
    pub fn of(distribution: [i64; RATINGS]) -> Self {
        let count: i64 = distribution.iter().sum();
        let total: i64 = (QuestionType::RATING_MIN..).zip(distribution).map(|(rating, n)| rating * n).sum();
        let mean = (count > 0).then(|| total as f64 / count as f64);
        Self { count, mean, distribution, nps: Nps::of(&distribution) }
    }
}

/// One row of a Matrix's results: how many answers chose each option for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowCounts {
    /// The row's value.
    pub value: String,
    /// Its label.
    pub label: String,
    /// Each option of the item with its count for this row, in option order.
    pub options: Vec<OptionCount>,
}

/// One option of a Ranking's results.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedOption {
    /// The option's value.
    pub value: String,
    /// Its label.
    pub label: String,
    /// Its mean place (1 is first); `None` when no answer ranked it.
    pub mean_position: Option<f64>,
    /// How many answers put it first.
    pub first_places: i64,
}

/// What the matching sets answered to one item, by its type.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemFigures {
    /// A Date item: how many answers hold a date, the earliest and the latest.
    Date {
        /// Answers to it.
        answered: i64,
        /// Answers that hold a date.
        count: i64,
        /// The earliest date; `None` when there is none.
        min: Option<time::Date>,
        /// The latest date; `None` when there is none.
        max: Option<time::Date>,
    },
    /// A Matrix item: per row, per option, the answers that chose it.
    Matrix {
        /// Answers to it.
        answered: i64,
        /// Each row, in row order.
        rows: Vec<RowCounts>,
    },
    /// A Ranking item: per option, its mean place and first places.
    Ranking {
        /// Answers to it.
        answered: i64,
        /// Each option, in option order.
        options: Vec<RankedOption>,
    },
    /// A SingleChoice or MultipleChoice item: every option, zeros included.
    Choices {
        /// Answers to the item.
        answered: i64,
        /// Every option in the item's order.
        options: Vec<OptionCount>,
    },
    /// A Numeric item.
    Numeric {
        /// Answers to the item.
        answered: i64,
        /// Its numbers.
        summary: NumericSummary,
    },
    /// A Rating item.
    Rating {
        /// Answers to the item.
        answered: i64,
        /// Its ratings.
        summary: RatingSummary,
    },
    /// An OpenText item: how many answered it and its top words (the texts are the export's).
    OpenText {
        /// Answers to the item, the texts' count.
        answered: i64,
        /// The words found in the most answers, most first, ties by word.
        top_words: Vec<super::WordCount>,
    },
    /// An Info item, which takes no answer.
    Info,
}

/// One item of the results.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemResult {
    /// The item.
    pub question_item_id: QuestionItemId,
    /// Its type.
    pub kind: QuestionType,
    /// Its text.
    pub text: String,
    /// What was answered.
    pub figures: ItemFigures,
}

/// A survey's results over the answer sets that pass a filter.
#[derive(Debug, Clone, PartialEq)]
pub struct SurveyResults {
    /// The survey.
    pub survey_id: SurveyId,
    /// How many answer sets matched.
    pub answer_sets: i64,
    /// One per item of the tree, in tree order.
    pub items: Vec<ItemResult>,
    /// With a breakdown, its groups (each without groups of its own).
    pub groups: Option<Vec<super::ResultGroup>>,
}

impl SurveyResults {
    /// The results of the tree's items from the store's tallies: every item in tree order, every option of a
    /// choice item with its label (values the item no longer offers are left out), every rating from 0 to 10.
    pub fn assemble(tree: &QuestionTree, tallies: ResultTallies) -> Self {
        let items: HashMap<QuestionItemId, ItemTally> = tallies.items.into_iter().map(|t| (t.item, t)).collect();
        let mut words: HashMap<QuestionItemId, Vec<super::WordTally>> = HashMap::new();
        for tally in tallies.words {
            words.entry(tally.item).or_default().push(tally);
        }
        let mut choices: HashMap<(QuestionItemId, String), i64> = HashMap::new();
        for choice in tallies.choices {
            *choices.entry((choice.item, choice.value)).or_default() += choice.count;
        }
        let mut ratings: HashMap<QuestionItemId, [i64; RATINGS]> = HashMap::new();
        for given in tallies.ratings {
            let slot = usize::try_from(given.rating - QuestionType::RATING_MIN).ok().filter(|slot| *slot < RATINGS);
            if let Some(slot) = slot {
                ratings.entry(given.item).or_insert([0; RATINGS])[slot] += given.count;
            }
        }
        let dates: HashMap<QuestionItemId, DateTally> = tallies.dates.into_iter().map(|d| (d.item, d)).collect();
        let mut cells: HashMap<(QuestionItemId, String, String), i64> = HashMap::new();
        for cell in tallies.cells {
            *cells.entry((cell.item, cell.row, cell.value)).or_default() += cell.count;
        }
        let ranks: HashMap<(QuestionItemId, String), RankTally> =
            tallies.ranks.into_iter().map(|r| ((r.item, r.value.clone()), r)).collect();
        let result = |item: &QuestionItem| {
            let tally = items.get(&item.id);
            let answered = tally.map_or(0, |t| t.answered);
            let figures = match item.kind {
                QuestionType::Date => {
                    let tally = dates.get(&item.id);
                    let date = |text: Option<&String>| text.and_then(|text| crate::answer::parse_date(text));
                    ItemFigures::Date {
                        answered,
                        count: tally.map_or(0, |t| t.count),
                        min: date(tally.map(|t| &t.earliest)),
                        max: date(tally.map(|t| &t.latest)),
                    }
                }
                QuestionType::Matrix => ItemFigures::Matrix {
                    answered,
                    rows: item
                        .settings
                        .rows
                        .iter()
                        .map(|row| RowCounts {
                            value: row.value.clone(),
                            label: row.label.clone(),
                            options: item
                                .options
                                .iter()
                                .map(|option| OptionCount {
                                    value: option.value.clone(),
                                    label: option.label.clone(),
                                    count: cells
                                        .get(&(item.id, row.value.clone(), option.value.clone()))
                                        .copied()
                                        .unwrap_or(0),
                                })
                                .collect(),
                        })
                        .collect(),
                },
                QuestionType::Ranking => ItemFigures::Ranking {
                    answered,
                    options: item
                        .options
                        .iter()
                        .map(|option| {
                            let tally = ranks.get(&(item.id, option.value.clone()));
                            RankedOption {
                                value: option.value.clone(),
                                label: option.label.clone(),
                                mean_position: tally.filter(|t| t.count > 0).map(|t| t.places / t.count as f64),
                                first_places: tally.map_or(0, |t| t.first_places),
                            }
                        })
                        .collect(),
                },
                QuestionType::SingleChoice | QuestionType::MultipleChoice | QuestionType::Dropdown => {
                    ItemFigures::Choices {
                        answered,
                        options: item
                            .options
                            .iter()
                            .map(|option| OptionCount {
                                value: option.value.clone(),
                                label: option.label.clone(),
                                count: choices.get(&(item.id, option.value.clone())).copied().unwrap_or(0),
                            })
                            .collect(),
                    }
                }
                QuestionType::Numeric => ItemFigures::Numeric {
                    answered,
                    summary: tally.map_or_else(NumericSummary::default, |t| t.numbers.checked()),
                },
                QuestionType::Rating => ItemFigures::Rating {
                    answered,
                    summary: RatingSummary::of(ratings.get(&item.id).copied().unwrap_or([0; RATINGS])),
                },
                QuestionType::OpenText => {
                    let top_words = super::words::top_words(words.remove(&item.id).unwrap_or_default());
                    ItemFigures::OpenText { answered, top_words }
                }
                QuestionType::Info => ItemFigures::Info,
            };
            ItemResult { question_item_id: item.id, kind: item.kind, text: item.text.clone(), figures }
        };
        let items = tree.items().map(result).collect();
        Self { survey_id: tree.survey_id, answer_sets: tallies.answer_sets, items, groups: None }
    }
}

#[cfg(test)]
mod tests;
