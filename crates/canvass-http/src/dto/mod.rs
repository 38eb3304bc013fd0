//! Request and response bodies: the JSON shapes of the contract, kept apart from the domain's types and turned
//! into domain input by `into_domain` methods.

pub mod account;
pub mod answer;
pub mod answer_value;
pub mod bgdata;
pub mod blocklist;
pub mod governance;
pub mod respondent;
pub mod schemas;
pub mod sendout;
pub mod survey;

use std::collections::BTreeMap;

use canvass_domain::distribution::BackgroundData;
use canvass_domain::ids::LabelId;
use canvass_domain::timestamp::{parse_instant, DayEdge};
use canvass_domain::FieldError;
use time::OffsetDateTime;

/// Reads an optional client date (RFC 3339 or `YYYY-MM-DD`), naming `field` when it cannot be read.
pub fn optional_instant(value: Option<&str>, field: &str, edge: DayEdge) -> Result<Option<OffsetDateTime>, FieldError> {
    match value {
        None => Ok(None),
        Some(text) => parse_instant(text, edge)
            .map(Some)
            .ok_or_else(|| FieldError::new(field, "must be an RFC 3339 date-time or a YYYY-MM-DD date")),
    }
}

/// Background data cells as a body carries them (label id to value) in the domain's terms.
pub fn cells_to_domain(cells: BTreeMap<i64, String>) -> BackgroundData {
    cells.into_iter().map(|(label, value)| (LabelId::new(label), value)).collect()
}

/// The domain's background data cells as a body carries them: label id to value.
pub fn cells_of_domain(cells: BackgroundData) -> BTreeMap<i64, String> {
    cells.into_iter().map(|(label, value)| (label.get(), value)).collect()
}
