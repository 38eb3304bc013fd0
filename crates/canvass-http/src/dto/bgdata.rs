//! Bodies of the background data document endpoints.

use std::collections::BTreeMap;

use canvass_domain::distribution::BgDocument;
use canvass_domain::use_cases::bgdata::Row;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::schemas::BackgroundValues;

/// A background data document.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BgDocumentResponse {
    /// The document's id.
    pub bg_document_id: i64,
    /// Its sendout.
    pub sendout_id: i64,
    /// The sendout's survey.
    pub survey_id: i64,
    /// The sendout's name.
    pub name: String,
    /// Its rows: the sendout's respondents.
    pub row_count: i64,
}

impl From<BgDocument> for BgDocumentResponse {
    fn from(d: BgDocument) -> Self {
        Self {
            bg_document_id: d.id.get(),
            sendout_id: d.sendout_id.get(),
            survey_id: d.survey_id.get(),
            name: d.name,
            row_count: d.row_count,
        }
    }
}

/// Label ids of a row to read or delete.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RowLabelsBody {
    /// Label ids of the document.
    pub labels: Vec<i64>,
}

/// Cells to set.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CellDataBody {
    /// Label id to non-empty value.
    #[schema(value_type = BackgroundValues)]
    pub cell_data: BTreeMap<i64, String>,
}

/// A new row: a respondent of the document's sendout with its cells.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewRowBody {
    /// Contact details fitting the sendout type.
    #[schema(min_length = 1, max_length = 320)]
    pub contact_details: String,
    /// Label id to non-empty value.
    #[schema(value_type = BackgroundValues)]
    pub cell_data: BTreeMap<i64, String>,
    /// The language its respondent sees the survey in, before its sendout's; absent or null for its sendout's.
    #[serde(default)]
    pub language: Option<super::sendout::LanguageBody>,
}

/// A row: a respondent and its cells.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowResponse {
    /// The respondent.
    pub respondent_id: i64,
    /// Label id to value.
    #[schema(value_type = BackgroundValues)]
    pub cells: BTreeMap<i64, String>,
}

impl From<Row> for RowResponse {
    fn from(row: Row) -> Self {
        Self { respondent_id: row.respondent_id.get(), cells: super::cells_of_domain(row.cells) }
    }
}
