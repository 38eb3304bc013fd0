//! A CSV body of contacts to import (`POST /contacts/import`): read as it arrives, never held whole in memory.
//!
//! Each chunk of the body goes through a bounded channel to a thread of the blocking pool, which writes it to an
//! anonymous temporary file (the spool) and parses it with the `csv` crate at once: the header row, every row's
//! number of cells, UTF-8, the number of rows. A body that breaks one of these is a 400 naming the line before
//! anything is stored. Only a whole, well-formed file reaches the store's lane, where [`CheckedCsv::lines`] reads
//! the spool again, a record at a time, into the rows the import use case takes: a slow upload never holds a
//! database connection, and memory holds a chunk of the body and a chunk of rows, whatever the file's size.

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::time::Duration;

use actix_web::http::header;
use actix_web::{web, HttpRequest};
use canvass_domain::directory::{ImportHeader, MAX_IMPORT_ROWS};
use canvass_domain::use_cases::contact_import::ImportLine;
use canvass_domain::DomainError;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::problem::{Problem, ProblemKind};

/// The largest CSV body taken.
pub const MAX_CSV_BYTES: usize = 64 * 1024 * 1024;

/// Chunks of the body in flight between the connection and the parsing thread.
const CHUNKS_IN_FLIGHT: usize = 16;

/// A well-formed file, spooled: its header, and the file to read its rows from.
#[derive(Debug)]
pub struct CheckedCsv {
    header: ImportHeader,
    spool: File,
}

/// A file that is not one: the line and what is wrong with it (the 400 names the line as its field).
fn malformed(line: u64, message: impl Into<String>) -> Problem {
    Problem::invalid_field(format!("line {line}"), message)
}

/// Whether the request says its body is CSV (`text/csv`, any parameters).
pub fn is_csv(req: &HttpRequest) -> bool {
    let content_type = req.headers().get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok());
    content_type
        .is_some_and(|value| value.split(';').next().unwrap_or_default().trim().eq_ignore_ascii_case("text/csv"))
}

/// Receives and checks a CSV body: 415 for another media type, 413 beyond [`MAX_CSV_BYTES`] (declared or
/// actual), 408 when no part of it arrives for `idle`, 400 naming the line for a file that is no file of contacts.
pub async fn receive(req: &HttpRequest, mut payload: web::Payload, idle: Duration) -> Result<CheckedCsv, Problem> {
    if !is_csv(req) {
        return Err(Problem::new(ProblemKind::UnsupportedMediaType, "the body must be CSV (Content-Type: text/csv)"));
    }
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > MAX_CSV_BYTES) {
        return Err(too_large());
    }
    let spool = tempfile::tempfile().map_err(|error| Problem::internal(&error))?;
    let (sender, receiver) = mpsc::channel::<web::Bytes>(CHUNKS_IN_FLIGHT);
    let span = tracing::Span::current();
    // Spawned now (not when awaited), so that it parses while the body arrives.
    let checking = web::block(move || span.in_scope(|| check(Arriving::new(receiver, spool))));
    let mut received = 0usize;
    loop {
        let chunk = match actix_web::rt::time::timeout(idle, payload.next()).await {
            Err(_) => {
                let detail = format!("no part of the body arrived for {} s", idle.as_secs_f64());
                return Err(Problem::new(ProblemKind::RequestTimeout, detail));
            }
            Ok(None) => break,
            Ok(Some(Err(_))) => return Err(Problem::new(ProblemKind::MalformedRequest, "the body could not be read")),
            Ok(Some(Ok(chunk))) => chunk,
        };
        received += chunk.len();
        if received > MAX_CSV_BYTES {
            return Err(too_large());
        }
        if sender.send(chunk).await.is_err() {
            break; // The check has stopped at a malformed line: its answer follows.
        }
    }
    drop(sender);
    checking.await.map_err(|error| Problem::internal(&error))?
}

fn too_large() -> Problem {
    Problem::new(ProblemKind::PayloadTooLarge, format!("the body exceeds {MAX_CSV_BYTES} bytes"))
}

/// The body as it arrives, its line breaks made `\n`, copied to the spool as it is read.
///
/// The `csv` crate reads `\r\n` as one record terminator but counts its line only when it reads on, so a record
/// after a `\r\n` would report the line before its own: with `\n` alone, every record's line is its own.
struct Arriving {
    receiver: mpsc::Receiver<web::Bytes>,
    spool: File,
    current: web::Bytes,
    /// A `\r` that ended the last chunk, whose `\n` may open the next.
    held_return: bool,
}

impl Arriving {
    fn new(receiver: mpsc::Receiver<web::Bytes>, spool: File) -> Self {
        Self { receiver, spool, current: web::Bytes::new(), held_return: false }
    }

    /// `chunk` with each `\r\n` made `\n`, a `\r` at its end held back for the next (or the end).
    fn unix_lines(&mut self, chunk: &[u8]) -> web::Bytes {
        let mut out = Vec::with_capacity(chunk.len() + 1);
        let mut bytes = chunk.iter().copied().peekable();
        if std::mem::take(&mut self.held_return) && bytes.peek() != Some(&b'\n') {
            out.push(b'\r');
        }
        while let Some(byte) = bytes.next() {
            match (byte, bytes.peek()) {
                (b'\r', Some(b'\n')) => {}
                (b'\r', None) => self.held_return = true,
                (byte, _) => out.push(byte),
            }
        }
        out.into()
    }
}

impl Read for Arriving {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_empty() {
            let chunk = match self.receiver.blocking_recv() {
                Some(chunk) => self.unix_lines(&chunk),
                None if std::mem::take(&mut self.held_return) => web::Bytes::from_static(b"\r"),
                None => return Ok(0),
            };
            self.spool.write_all(&chunk)?;
            self.current = chunk;
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

/// A reader of the file's records: every row must have the header's number of cells, which the import checks.
fn records_of<R: Read>(source: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(source)
}

/// What the `csv` crate could not read, at its line.
fn unreadable(error: &csv::Error) -> Problem {
    let line = error.position().map_or(0, csv::Position::line);
    match error.kind() {
        csv::ErrorKind::Utf8 { .. } => malformed(line, "is not UTF-8"),
        _ => Problem::new(ProblemKind::MalformedRequest, "the body could not be read as CSV"),
    }
}

/// The header row's names, a byte order mark taken off the first.
fn header_of(record: &csv::StringRecord) -> Result<ImportHeader, Problem> {
    let names: Vec<&str> = record
        .iter()
        .enumerate()
        .map(|(i, name)| if i == 0 { name.trim_start_matches('\u{feff}') } else { name })
        .collect();
    ImportHeader::new(&names).map_err(|message| malformed(1, message))
}

/// Parses the whole body as it arrives; the spool holds it after.
fn check(arriving: Arriving) -> Result<CheckedCsv, Problem> {
    let mut reader = records_of(arriving);
    let mut record = csv::StringRecord::new();
    if !reader.read_record(&mut record).map_err(|error| unreadable(&error))? {
        return Err(malformed(1, "must be a header row naming an `email` or a `phone` column"));
    }
    let header = header_of(&record)?;
    let mut rows = 0usize;
    while reader.read_record(&mut record).map_err(|error| unreadable(&error))? {
        let line = record.position().map_or(0, csv::Position::line);
        if record.len() != header.width() {
            return Err(malformed(line, format!("has {} cells where the header has {}", record.len(), header.width())));
        }
        rows += 1;
        if rows > MAX_IMPORT_ROWS {
            return Err(malformed(line, format!("is past the {MAX_IMPORT_ROWS} rows a file may hold")));
        }
    }
    let mut spool = reader.into_inner().spool;
    spool.rewind().map_err(|error| Problem::internal(&error))?;
    Ok(CheckedCsv { header, spool })
}

impl CheckedCsv {
    /// The file's rows, read again from the spool a record at a time, each with its line.
    pub fn lines(self) -> impl Iterator<Item = Result<ImportLine, DomainError>> {
        let Self { header, spool } = self;
        let mut records = records_of(io::BufReader::new(spool)).into_records().skip(1);
        std::iter::from_fn(move || {
            let record = records.next()?;
            Some(match record {
                Ok(record) => {
                    let line = record.position().map_or(0, csv::Position::line);
                    Ok(ImportLine { line, row: header.row(record.iter()) })
                }
                Err(error) => {
                    let line = error.position().map_or(0, csv::Position::line);
                    Err(DomainError::invalid(format!("line {line}"), "could not be read again"))
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(body: &'static [u8]) -> Result<CheckedCsv, Problem> {
        let (sender, receiver) = mpsc::channel(64);
        for part in body.chunks(7) {
            sender.try_send(web::Bytes::from_static(part)).ok();
        }
        drop(sender);
        check(Arriving::new(receiver, tempfile::tempfile().unwrap()))
    }

    fn field(result: Result<CheckedCsv, Problem>) -> String {
        result.unwrap_err().errors.first().map(|error| error.field.clone()).unwrap_or_default()
    }

    #[test]
    fn a_file_is_read_again_from_the_spool_with_its_lines() {
        let body =
            b"\xef\xbb\xbfemail,firstName\r\nanna@example.com,Anna\r\n\"bo@example.com\",\"B\no\"\nc@example.com,\n";
        let (sender, receiver) = mpsc::channel(64);
        for part in body.chunks(5) {
            sender.try_send(web::Bytes::copy_from_slice(part)).unwrap();
        }
        drop(sender);
        let checked = check(Arriving::new(receiver, tempfile::tempfile().unwrap())).unwrap();
        let lines: Vec<u64> = checked.lines().map(|line| line.unwrap().line).collect();
        assert_eq!(lines, [2, 3, 5], "a quoted line break makes a row two lines long");
    }

    #[test]
    fn a_malformed_file_names_its_line() {
        assert_eq!(field(checked(b"")), "line 1");
        assert_eq!(field(checked(b"firstName\nAnna\n")), "line 1");
        assert_eq!(field(checked(b"email,tier\na@example.com,gold\nb@example.com\n")), "line 3");
        assert_eq!(field(checked(b"email\na@example.com\n\xff@example.com\n")), "line 3");
    }
}
