//! CSV exports, written with the `csv` crate: RFC 4180 (fields quoted when they hold a comma, a quote or a line
//! break; quotes doubled), UTF-8, CRLF line ends, a byte-order mark on request. Numbers, ids and booleans are
//! written bare, times as RFC 3339 (as the JSON answers write them), empty cells as nothing; text cells and the
//! headings are guarded against formulas.

use std::fs::File;
use std::io::Write;

use canvass_domain::answer::export::{guarded, Cell, ExportRow, ExportTable};
use time::format_description::well_known::Rfc3339;

use crate::streamed::{RowWriter, WriteError};

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The largest magnitude below which every whole `f64` is an exact integer (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Writes the export table as CSV: the headings, then one record per answer set.
#[derive(Debug)]
pub struct CsvWriter {
    table: ExportTable,
    bom: bool,
    /// Where a cell that is not text is formatted, reused from cell to cell.
    scratch: Vec<u8>,
}

impl CsvWriter {
    /// CSV of `table`, starting with a byte-order mark when `bom`.
    pub fn new(table: ExportTable, bom: bool) -> Self {
        Self { table, bom, scratch: Vec::with_capacity(64) }
    }
}

/// A writer of one record onto `out`; its own buffer goes to `out` when it is flushed.
fn records(out: &mut Vec<u8>) -> csv::Writer<&mut Vec<u8>> {
    csv::WriterBuilder::new().terminator(csv::Terminator::CRLF).buffer_capacity(4 * 1024).from_writer(out)
}

/// Formats a cell that is not text into `scratch`.
fn format_into(scratch: &mut Vec<u8>, cell: &Cell<'_>) -> Result<(), WriteError> {
    scratch.clear();
    match cell {
        Cell::Empty | Cell::Text(_) => {}
        Cell::Integer(number) => write!(scratch, "{number}")?,
        Cell::Number(number) if number.fract() == 0.0 && number.abs() < EXACT => write!(scratch, "{}", *number as i64)?,
        Cell::Number(number) => write!(scratch, "{number}")?,
        Cell::Bool(flag) => write!(scratch, "{flag}")?,
        Cell::Timestamp(at) => {
            at.format_into(scratch, &Rfc3339)?;
        }
        Cell::Date(on) => write!(scratch, "{on}")?,
    }
    Ok(())
}

impl RowWriter<ExportRow> for CsvWriter {
    fn header(&mut self, out: &mut Vec<u8>) -> Result<(), WriteError> {
        if self.bom {
            out.extend_from_slice(BOM);
        }
        let mut csv = records(out);
        csv.write_record(self.table.headings().map(|heading| guarded(&heading).into_owned()))?;
        csv.flush()?;
        Ok(())
    }

    fn row(&mut self, set: ExportRow, out: &mut Vec<u8>) -> Result<(), WriteError> {
        let mut csv = records(out);
        for cell in self.table.row(&set) {
            match &cell {
                Cell::Text(text) => csv.write_field(guarded(text).as_bytes())?,
                other => {
                    format_into(&mut self.scratch, other)?;
                    csv.write_field(&self.scratch)?;
                }
            }
        }
        csv.write_record(None::<&[u8]>)?;
        csv.flush()?;
        Ok(())
    }

    fn footer(&mut self, _: &mut Vec<u8>) -> Result<Option<File>, WriteError> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use canvass_domain::answer::export::{ChoiceValues, Headings};
    use canvass_domain::answer::{Answer, AnswerSet, AnswerValue};
    use canvass_domain::ids::{AnswerSetId, PageId, QuestionItemId, SurveyId};
    use canvass_domain::survey::{Page, QuestionItem, QuestionTree, QuestionType};
    use time::macros::datetime;

    use super::*;

    fn table() -> ExportTable {
        let item = |id, kind, text: &str| QuestionItem {
            id: QuestionItemId::new(id),
            page_id: PageId::new(1),
            kind,
            text: text.into(),
            required: false,
            options: Vec::new(),
            min_label: None,
            max_label: None,
            settings: Default::default(),
        };
        let items = vec![item(1, QuestionType::OpenText, "Why, \"really\"?"), item(2, QuestionType::Numeric, "=Hours")];
        let page = Page { id: PageId::new(1), title: String::new(), items, randomize_items: false };
        let tree = QuestionTree::assemble(SurveyId::new(1), vec![page], Vec::new());
        ExportTable::new(&tree, Headings::Texts, ChoiceValues::Labels)
    }

    fn set(text: &str, number: f64) -> AnswerSet {
        AnswerSet {
            id: AnswerSetId::new(7),
            survey_id: SurveyId::new(1),
            respondent_id: None,
            sendout_id: None,
            completed: true,
            quota_full: false,
            shown_order: Default::default(),
            created_at: datetime!(2026-11-22 10:00 UTC),
            updated_at: datetime!(2026-11-22 10:00:00.5 UTC),
            language: None,
            answers: vec![
                Answer { question_item_id: QuestionItemId::new(1), value: AnswerValue::Text(text.into()) },
                Answer { question_item_id: QuestionItemId::new(2), value: AnswerValue::Number(number) },
            ],
        }
    }

    fn written(bom: bool, sets: Vec<AnswerSet>) -> String {
        let mut writer = CsvWriter::new(table(), bom);
        let mut out = Vec::new();
        writer.header(&mut out).unwrap();
        for set in sets {
            writer.row(set.into(), &mut out).unwrap();
        }
        assert!(writer.footer(&mut out).unwrap().is_none());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn records_are_rfc_4180_with_crlf_bare_numbers_and_guarded_texts() {
        let csv = written(false, vec![set("a, \"b\"\nc", 12.0), set("-2", -0.25)]);
        assert_eq!(
            csv,
            "answerSetId,respondentId,sendoutId,completed,createdAt,updatedAt,\"Why, \"\"really\"\"?\",'=Hours\r\n\
             7,,,true,2026-11-22T10:00:00Z,2026-11-22T10:00:00.5Z,\"a, \"\"b\"\"\nc\",12\r\n\
             7,,,true,2026-11-22T10:00:00Z,2026-11-22T10:00:00.5Z,'-2,-0.25\r\n"
        );
    }

    #[test]
    fn a_byte_order_mark_comes_first_on_request() {
        assert!(written(true, vec![]).as_bytes().starts_with(b"\xEF\xBB\xBFanswerSetId,"));
        assert!(written(false, vec![]).starts_with("answerSetId,"));
    }
}
