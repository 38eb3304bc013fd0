//! JSON Lines exports: one compact JSON object per answer set, each followed by `\n`.

use std::fs::File;

use canvass_domain::answer::export::ExportRow;

use crate::dto::export::ExportLine;
use crate::streamed::{RowWriter, WriteError};

/// Writes each answer set as one [`ExportLine`], with its respondent's background data when the export asks for
/// it.
#[derive(Debug, Default)]
pub struct JsonLines {
    /// Whether each line carries a `backgroundData` object.
    pub background_data: bool,
}

impl RowWriter<ExportRow> for JsonLines {
    fn header(&mut self, _: &mut Vec<u8>) -> Result<(), WriteError> {
        Ok(())
    }

    fn row(&mut self, row: ExportRow, out: &mut Vec<u8>) -> Result<(), WriteError> {
        serde_json::to_writer(&mut *out, &ExportLine::new(row, self.background_data))?;
        out.push(b'\n');
        Ok(())
    }

    fn footer(&mut self, _: &mut Vec<u8>) -> Result<Option<File>, WriteError> {
        Ok(None)
    }
}
