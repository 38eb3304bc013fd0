//! The writer of the long JSON lists: `[`, each row's DTO as compact JSON with a comma before every row but the
//! first, `]`: the bytes the whole list written at once would have been. A list inside an object (a page of
//! answer sets) is the same between the object's start and its end.

use std::fs::File;

use serde::Serialize;

use super::{RowWriter, WriteError};

/// Writes rows `T` as the DTOs `write` makes of them, in one JSON array.
pub struct JsonArray<W> {
    write: W,
    /// Whether a row is written, so that the next one takes a comma.
    wrote_row: bool,
    /// What comes before the array's `[` and after its `]`.
    around: (Vec<u8>, &'static [u8]),
}

impl<W> JsonArray<W> {
    /// The array of what `write` makes of each row.
    pub fn new(write: W) -> Self {
        Self { write, wrote_row: false, around: (Vec::new(), b"") }
    }

    /// The array as the last member of an object: `before` is the object up to the member's name and its `:`,
    /// `after` what closes the object.
    pub fn within(before: Vec<u8>, after: &'static [u8], write: W) -> Self {
        Self { write, wrote_row: false, around: (before, after) }
    }
}

impl<T, D, W> RowWriter<T> for JsonArray<W>
where
    D: Serialize,
    W: Fn(T) -> D + Send + 'static,
{
    fn header(&mut self, out: &mut Vec<u8>) -> Result<(), WriteError> {
        out.append(&mut self.around.0);
        out.push(b'[');
        Ok(())
    }

    fn row(&mut self, row: T, out: &mut Vec<u8>) -> Result<(), WriteError> {
        if self.wrote_row {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, &(self.write)(row))?;
        self.wrote_row = true;
        Ok(())
    }

    fn footer(&mut self, out: &mut Vec<u8>) -> Result<Option<File>, WriteError> {
        out.push(b']');
        out.extend_from_slice(self.around.1);
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(rows: Vec<i64>) -> String {
        let mut writer = JsonArray::new(|n: i64| serde_json::json!({ "n": n }));
        let mut out = Vec::new();
        writer.header(&mut out).unwrap();
        for row in rows {
            writer.row(row, &mut out).unwrap();
        }
        writer.footer(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_are_one_compact_array() {
        assert_eq!(written(vec![]), "[]");
        assert_eq!(written(vec![1, 2, 3]), r#"[{"n":1},{"n":2},{"n":3}]"#);
    }

    #[test]
    fn an_array_within_an_object_is_written_between_its_start_and_its_end() {
        let mut writer = JsonArray::within(br#"{"total":2,"items":"#.to_vec(), b"}", |n: i64| n);
        let mut out = Vec::new();
        writer.header(&mut out).unwrap();
        writer.row(1, &mut out).unwrap();
        writer.row(2, &mut out).unwrap();
        writer.footer(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"total":2,"items":[1,2]}"#);
    }
}
