//! XLSX exports, written with `rust_xlsxwriter` in its constant-memory mode: one sheet, "Answers", its heading row
//! bold; ids and numbers as numbers, `completed` as a boolean, times as Excel date-times in UTC shown as
//! `yyyy-mm-dd hh:mm:ss`, text cells (and headings) guarded against formulas.
//!
//! Memory stays flat: the worksheet keeps one row in memory and writes each finished row to a temporary file of
//! its own (its strings inline, without a shared string table); at the end the workbook is saved, zipped as it is
//! read from that file, to another temporary file, which the body sends in pieces. Both files are unlinked at
//! once (`tempfile`), so they go when they are dropped, whether the export ends or the client goes away. Every
//! call runs on the blocking pool ([`RowWriter::ON_FILES`]).
//!
//! What the files hold is counted against the caps of [`TempBytes`](crate::export::temp_bytes::TempBytes) as the
//! rows are written, each row about as many bytes as its XML takes ([`row_bytes`]) and twice over (the sheet's file
//! now, its share of the zipped workbook at the end): an export that would pass a cap breaks off.

use std::fs::File;
use std::io::{Seek, SeekFrom};

use canvass_domain::answer::export::ExportRow;
use canvass_domain::answer::export::{guarded, Cell, ExportTable};
use rust_xlsxwriter::{ColNum, ExcelDateTime, Format, RowNum, Workbook, XlsxError};
use time::{OffsetDateTime, UtcOffset};

use crate::export::temp_bytes::TempHold;
use crate::streamed::{RowWriter, WriteError};

/// The name of the one sheet.
pub const SHEET: &str = "Answers";

/// How the times are shown.
pub const DATE_FORMAT: &str = "yyyy-mm-dd hh:mm:ss";
/// The number format of a Date answer's cell: a real date, shown as its ISO form.
pub const DAY_FORMAT: &str = "yyyy-mm-dd";

/// The most columns a sheet holds (Excel's limit): the six fixed ones and 16,378 items.
pub const MAX_COLUMNS: usize = 16_384;

/// The most rows a sheet holds (Excel's limit): the headings and 1,048,575 answer sets.
const MAX_ROWS: RowNum = 1_048_576;

/// The longest text a cell holds, in UTF-16 code units (Excel's limit).
const MAX_CELL_TEXT: usize = 32_767;

/// Writes the export table into a workbook, then saves it to a temporary file.
pub struct XlsxWriter {
    table: ExportTable,
    workbook: Workbook,
    /// The row the next set goes to (the headings are row 0).
    next_row: RowNum,
    bold: Format,
    date: Format,
    /// The format of a Date answer's cell.
    day: Format,
    /// What the temporary files hold, counted against their caps.
    temp: TempHold,
}

impl XlsxWriter {
    /// A workbook of `table`, its temporary files counted by `temp`; nothing is written to a file before the
    /// header.
    pub fn new(table: ExportTable, temp: TempHold) -> Self {
        Self {
            table,
            workbook: Workbook::new(),
            next_row: 1,
            bold: Format::new().set_bold(),
            date: Format::new().set_num_format(DATE_FORMAT),
            day: Format::new().set_num_format(DAY_FORMAT),
            temp,
        }
    }
}

/// What a cell's XML takes besides its text: `<c r="XFD1048576" s="1" t="inlineStr"><is><t></t></is></c>`.
const CELL_XML: u64 = 64;

/// About how many bytes a row's XML takes in the sheet's file: each cell's markup, and its text with the five
/// characters XML escapes counted at their longest (`&quot;`).
fn row_bytes<'a>(texts: impl IntoIterator<Item = &'a str>, cells: usize) -> u64 {
    let text: usize =
        texts.into_iter().map(|text| text.len() + 5 * text.matches(['&', '<', '>', '"', '\'']).count()).sum();
    CELL_XML * cells as u64 + text as u64
}

/// A text as a cell holds it: guarded, and cut to Excel's limit (at a character's end).
fn cell_text(text: &str) -> String {
    let guarded = guarded(text);
    let mut units = 0;
    let end = guarded
        .char_indices()
        .find(|(_, c)| {
            units += c.len_utf16();
            units > MAX_CELL_TEXT
        })
        .map_or(guarded.len(), |(index, _)| index);
    guarded[..end].to_owned()
}

/// The width of a column, in characters: the ids and `completed` narrow, the times as wide as
/// `yyyy-mm-dd hh:mm:ss`, the items wide enough to read a label or the start of a text.
fn column_width(column: ColNum) -> f64 {
    match column {
        0..=3 => 12.0,
        4 | 5 => 20.0,
        _ => 30.0,
    }
}

/// An instant as an Excel date-time in UTC (fractions of a second kept). A year Excel cannot hold is an error.
fn excel_time(at: OffsetDateTime) -> Result<ExcelDateTime, XlsxError> {
    let at = at.to_offset(UtcOffset::UTC);
    let seconds = f64::from(at.second()) + f64::from(at.nanosecond()) / 1e9;
    let year = u16::try_from(at.year()).unwrap_or(0);
    ExcelDateTime::from_ymd(year, at.month().into(), at.day())?.and_hms(u16::from(at.hour()), at.minute(), seconds)
}

impl RowWriter<ExportRow> for XlsxWriter {
    const ON_FILES: bool = true;

    fn header(&mut self, _: &mut Vec<u8>) -> Result<(), WriteError> {
        let headings: Vec<String> = self.table.headings().map(|heading| cell_text(&heading)).collect();
        // Twice: in the sheet's file, and in the zip it is packed into at the end (which holds it compressed).
        self.temp.grow(row_bytes(headings.iter().map(String::as_str), headings.len()).saturating_mul(2))?;
        let sheet = self.workbook.add_worksheet_with_constant_memory()?;
        sheet.set_name(SHEET)?;
        // The headings stay in view while one scrolls; the columns are wide enough for what they hold (the times
        // would otherwise show as `###`).
        sheet.set_freeze_panes(1, 0)?;
        // Printed, the sheet fits the page's width, landscape, with the headings on every page.
        sheet.set_landscape().set_print_fit_to_pages(1, 0).set_repeat_rows(0, 0)?;
        for (column, heading) in headings.into_iter().enumerate() {
            let column = ColNum::try_from(column)?;
            sheet.set_column_width(column, column_width(column))?;
            sheet.write_string_with_format(0, column, heading, &self.bold)?;
        }
        Ok(())
    }

    fn row(&mut self, set: ExportRow, _: &mut Vec<u8>) -> Result<(), WriteError> {
        let row = self.next_row;
        if row >= MAX_ROWS {
            return Err("an XLSX sheet holds at most 1,048,575 answer sets; the export has more".into());
        }
        let cells = self.table.row(&set);
        let texts = cells.iter().filter_map(|cell| if let Cell::Text(text) = cell { Some(&**text) } else { None });
        self.temp.grow(row_bytes(texts, cells.len()).saturating_mul(2))?;
        let (sheet, date, day) = (self.workbook.worksheet_from_index(0)?, &self.date, &self.day);
        for (column, cell) in cells.iter().enumerate() {
            let column = ColNum::try_from(column)?;
            match cell {
                Cell::Empty => {}
                Cell::Text(text) => {
                    sheet.write_string(row, column, cell_text(text))?;
                }
                Cell::Integer(number) => {
                    sheet.write_number(row, column, *number as f64)?;
                }
                Cell::Number(number) => {
                    sheet.write_number(row, column, *number)?;
                }
                Cell::Bool(flag) => {
                    sheet.write_boolean(row, column, *flag)?;
                }
                Cell::Timestamp(at) => {
                    sheet.write_datetime_with_format(row, column, excel_time(*at)?, date)?;
                }
                Cell::Date(on) => {
                    let on =
                        ExcelDateTime::from_ymd(u16::try_from(on.year()).unwrap_or(0), on.month().into(), on.day())?;
                    sheet.write_datetime_with_format(row, column, on, day)?;
                }
            }
        }
        self.next_row += 1;
        Ok(())
    }

    fn footer(&mut self, _: &mut Vec<u8>) -> Result<Option<File>, WriteError> {
        let mut file = tempfile::tempfile()?;
        self.workbook.save_to_writer(&mut file)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(Some(file))
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn a_cell_text_is_guarded_and_cut_to_excels_limit_at_a_character() {
        assert_eq!(cell_text("@x"), "'@x");
        let long = "a".repeat(MAX_CELL_TEXT + 10);
        assert_eq!(cell_text(&long).len(), MAX_CELL_TEXT);
        // An emoji takes two UTF-16 units: the one that would straddle the limit is left out whole.
        let emoji = format!("{}🎉", "a".repeat(MAX_CELL_TEXT - 1));
        assert_eq!(cell_text(&emoji), "a".repeat(MAX_CELL_TEXT - 1));
        let guarded_long = format!("={}", "b".repeat(MAX_CELL_TEXT));
        assert_eq!(cell_text(&guarded_long).encode_utf16().count(), MAX_CELL_TEXT);
        assert!(cell_text(&guarded_long).starts_with("'="));
    }

    #[test]
    fn a_row_counts_its_cells_markup_and_its_texts_escaped_at_their_longest() {
        assert_eq!(row_bytes([], 3), 3 * CELL_XML);
        assert_eq!(row_bytes(["abc", "a<b"], 6), 6 * CELL_XML + 3 + 3 + 5);
        assert_eq!(row_bytes(["é\"'&"], 1), CELL_XML + 5 + 3 * 5);
    }

    #[test]
    fn times_are_excel_serial_date_times_in_utc() {
        let serial = |at| excel_time(at).unwrap().to_excel();
        assert_eq!(serial(datetime!(1970-01-01 00:00 UTC)), 25_569.0);
        // 2026-11-22 is day 46,348; 18:00 is three quarters of it.
        assert_eq!(serial(datetime!(2026-11-22 18:00 UTC)), 46_348.75);
        assert_eq!(serial(datetime!(2026-11-22 20:00 +02:00)), 46_348.75);
    }
}
