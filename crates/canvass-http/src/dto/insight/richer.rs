//! The results of the richer item types: a Date's count and range, a Matrix's counts per row, a Ranking's mean
//! places and first places.

use canvass_domain::insight::{RankedOption, RowCounts};
use serde::Serialize;
use time::Date;
use utoipa::ToSchema;

use super::OptionCountBody;
use crate::dto::questionnaire::day;

/// A Date item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DateItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Dates answered.
    #[schema(minimum = 0)]
    pub count: i64,
    /// The earliest date; null when count is 0.
    #[serde(with = "day::option")]
    #[schema(value_type = Option<String>, format = Date, required = true, max_length = 10)]
    pub min: Option<Date>,
    /// The latest date; null when count is 0.
    #[serde(with = "day::option")]
    #[schema(value_type = Option<String>, format = Date, required = true, max_length = 10)]
    pub max: Option<Date>,
}

/// One row of a Matrix item's results.
#[derive(Debug, Serialize, ToSchema)]
pub struct RowCountsBody {
    /// The row's value.
    pub value: String,
    /// Its label.
    pub label: String,
    /// Each option with the answers that chose it for this row, in option order.
    pub options: Vec<OptionCountBody>,
}

impl From<RowCounts> for RowCountsBody {
    fn from(row: RowCounts) -> Self {
        Self { value: row.value, label: row.label, options: row.options.into_iter().map(Into::into).collect() }
    }
}

/// A Matrix item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatrixItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Each row, in row order.
    pub rows: Vec<RowCountsBody>,
}

/// One option of a Ranking item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RankedOptionBody {
    /// The option value.
    pub value: String,
    /// Its label.
    pub label: String,
    /// Its mean place, 1 being first; null when no answer ranked it.
    #[schema(required = true, minimum = 1)]
    pub mean_position: Option<f64>,
    /// Answers that put it first.
    #[schema(minimum = 0)]
    pub first_places: i64,
}

impl From<RankedOption> for RankedOptionBody {
    fn from(option: RankedOption) -> Self {
        Self {
            value: option.value,
            label: option.label,
            mean_position: option.mean_position,
            first_places: option.first_places,
        }
    }
}

/// A Ranking item's results.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RankingItemResult {
    /// The item.
    pub question_item_id: i64,
    /// Its text.
    pub text: String,
    /// Matching answer sets that answered it.
    #[schema(minimum = 0)]
    pub answered: i64,
    /// Each option, in option order.
    pub options: Vec<RankedOptionBody>,
}
