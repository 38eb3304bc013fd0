//! Insight: what a sendout's respondents did (its statistics) and what a survey's answer sets say (its results),
//! from figures the store computes over any number of rows, and the rules that finish them here: rates rounded to
//! four decimals, the Net Promoter Score, every respondent status and every option named, zeros included.

mod breakdown;
mod figures;
pub mod ports;
mod report;
mod results;
mod statistics;
mod tally;
mod words;

pub use breakdown::{
    assemble_groups, item_label, language_label, Breakdown, GroupKey, ResultGroup, TallyGroup, BREAKDOWN_BY,
    DEFAULT_MIN_GROUP_SIZE, MIN_GROUP_SIZE,
};
pub use figures::{divide_rounded, rate};
pub use report::{BinLayout, Histogram, QuotedTexts, SendoutFunnel, HISTOGRAM_BINS, QUOTED_TEXTS};
pub use results::{
    CellCount, ChoiceCount, DateTally, ItemFigures, ItemResult, ItemTally, Nps, NumericSummary, OptionCount, RankTally,
    RankedOption, RatingCount, RatingSummary, ResultTallies, RowCounts, SurveyResults, RATINGS,
};
pub use statistics::{DailyActivity, SendoutFigures, SendoutStatistics, StatusCounts};
pub use tally::{NumberCount, ValueTallies};
pub use words::{stop_words, TextFigures, TextTallies, WordCount, WordTally, TOP_WORDS};
