//! An answer's value as it travels: a string (OpenText, SingleChoice, Dropdown, a Date's `YYYY-MM-DD`), an array of
//! option values (MultipleChoice, Ranking in its order), an object of row values to option values (Matrix) or a
//! number (Numeric, Rating). It reads itself, so a value of any other shape is refused where the body is
//! read, at its path (`answers[2].value`); whole numbers are written without a fraction (`8`, not `8.0`).

use std::fmt;

use canvass_domain::answer::AnswerValue;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

/// What an answer value may be, in the words of a refusal.
const EXPECTED: &str = "a string, an array of strings, an object of strings or a number";

/// An answer's value, read and written as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerValueBody(pub AnswerValue);

impl<'de> Deserialize<'de> for AnswerValueBody {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(Self)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = AnswerValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<AnswerValue, E> {
        Ok(AnswerValue::Text(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<AnswerValue, E> {
        Ok(AnswerValue::Text(text))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<AnswerValue, E> {
        Ok(AnswerValue::Number(number as f64))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<AnswerValue, E> {
        Ok(AnswerValue::Number(number as f64))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<AnswerValue, E> {
        Ok(AnswerValue::Number(number))
    }

    /// The elements are taken whole and judged here, so a refusal names the value, not one of its elements.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnswerValue, A::Error> {
        let mut choices = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(element) = seq.next_element::<serde_json::Value>()? {
            match element {
                serde_json::Value::String(choice) => choices.push(choice),
                _ => return Err(de::Error::invalid_type(de::Unexpected::Seq, &self)),
            }
        }
        Ok(AnswerValue::Choices(choices))
    }

    /// A Matrix answer: each row's value to the option chosen for it; judged whole, as an array is.
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<AnswerValue, A::Error> {
        let mut rows = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some((row, option)) = map.next_entry::<String, serde_json::Value>()? {
            match option {
                serde_json::Value::String(option) => rows.push((row, option)),
                _ => return Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
            }
        }
        Ok(AnswerValue::Rows(rows))
    }
}

impl Serialize for AnswerValueBody {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// 2^53: every whole f64 below it is an exact integer.
        const EXACT: f64 = 9_007_199_254_740_992.0;
        match &self.0 {
            AnswerValue::Text(text) => serializer.serialize_str(text),
            AnswerValue::Number(number) if number.fract() == 0.0 && number.abs() < EXACT => {
                serializer.serialize_i64(*number as i64)
            }
            AnswerValue::Number(number) => serializer.serialize_f64(*number),
            AnswerValue::Choices(choices) => {
                let mut seq = serializer.serialize_seq(Some(choices.len()))?;
                for choice in choices {
                    seq.serialize_element(choice)?;
                }
                seq.end()
            }
            AnswerValue::Rows(rows) => {
                let mut map = serializer.serialize_map(Some(rows.len()))?;
                for (row, option) in rows {
                    map.serialize_entry(row, option)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<AnswerValue, String> {
        serde_json::from_str::<AnswerValueBody>(json).map(|body| body.0).map_err(|e| e.to_string())
    }

    #[test]
    fn strings_numbers_and_arrays_of_strings_are_values() {
        assert_eq!(read(r#""yes""#), Ok(AnswerValue::Text("yes".into())));
        assert_eq!(read("8"), Ok(AnswerValue::Number(8.0)));
        assert_eq!(read("-2.5"), Ok(AnswerValue::Number(-2.5)));
        assert_eq!(read(r#"["a","b"]"#), Ok(AnswerValue::Choices(vec!["a".into(), "b".into()])));
    }

    #[test]
    fn other_shapes_are_refused_with_what_is_expected() {
        assert_eq!(read(r#"{"r1":"a"}"#), Ok(AnswerValue::Rows(vec![("r1".into(), "a".into())])));
        for json in ["null", "true", r#"{"a":1}"#, r#"["a",3]"#] {
            let error = read(json).unwrap_err();
            assert!(error.contains(EXPECTED), "{json}: {error}");
        }
    }

    #[test]
    fn whole_numbers_are_written_without_a_fraction() {
        let write = |value| serde_json::to_string(&AnswerValueBody(value)).unwrap();
        assert_eq!(write(AnswerValue::Number(8.0)), "8");
        assert_eq!(write(AnswerValue::Number(2.5)), "2.5");
        assert_eq!(write(AnswerValue::Choices(vec!["a".into()])), r#"["a"]"#);
    }
}
