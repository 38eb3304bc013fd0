//! The writers of answer exports, one per file format, each a [`RowWriter`](crate::streamed::RowWriter) of answer
//! sets: CSV and XLSX write the rows of the domain's export table (`canvass_domain::answer::export`), their text
//! cells guarded against formulas; JSON Lines writes each set as the answer list does. `slots` caps the exports an
//! account runs at once, `temp_bytes` what the XLSX exports' temporary files hold.

pub mod csv;
pub mod jsonl;
pub mod slots;
pub mod temp_bytes;
pub mod xlsx;

use crate::dto::export::ExportFormat;

/// The media type of CSV exports.
pub const CSV_TYPE: &str = "text/csv; charset=utf-8";
/// The media type of XLSX exports.
pub const XLSX_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/// The media type of JSON Lines exports.
pub const JSONL_TYPE: &str = "application/jsonl";

impl ExportFormat {
    /// The media type the file is served as.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Csv => CSV_TYPE,
            Self::Xlsx => XLSX_TYPE,
            Self::Jsonl => JSONL_TYPE,
        }
    }

    /// The extension of its file name.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
            Self::Jsonl => "jsonl",
        }
    }
}
