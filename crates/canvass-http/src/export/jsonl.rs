//! JSON Lines exports: one compact JSON object per answer set, each followed by `\n`.

use std::fs::File;

use canvass_domain::answer::AnswerSet;

use crate::dto::export::ExportLine;
use crate::streamed::{RowWriter, WriteError};

/// Writes each answer set as one [`ExportLine`].
#[derive(Debug, Default)]
pub struct JsonLines;

impl RowWriter<AnswerSet> for JsonLines {
    fn header(&mut self, _: &mut Vec<u8>) -> Result<(), WriteError> {
        Ok(())
    }

    fn row(&mut self, set: AnswerSet, out: &mut Vec<u8>) -> Result<(), WriteError> {
        serde_json::to_writer(&mut *out, &ExportLine::from(set))?;
        out.push(b'\n');
        Ok(())
    }

    fn footer(&mut self, _: &mut Vec<u8>) -> Result<Option<File>, WriteError> {
        Ok(None)
    }
}
