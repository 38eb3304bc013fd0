//! A date as clients send it, read where the body or query is read: an RFC 3339 date-time with an offset, or a
//! `YYYY-MM-DD` day that the field reading it places at the start or end of that UTC day. Anything else is refused
//! at its path (`startDate`), before a connection is taken.

use std::fmt;

use canvass_domain::timestamp::{day_at, parse_date, parse_instant, DayEdge};
use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use time::{Date, OffsetDateTime};

/// What a date may be, in the words of a refusal.
const EXPECTED: &str = "an RFC 3339 date-time or a YYYY-MM-DD date";

/// A client's date, checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientDate {
    /// A date-time, in UTC.
    At(OffsetDateTime),
    /// A date without a time.
    Day(Date),
}

impl ClientDate {
    /// Reads a date, or `None` when `text` is neither form, falls outside years 1 to 9999, or is longer than the
    /// published `maxLength` (blanks around it count).
    pub fn parse(text: &str) -> Option<Self> {
        if !canvass_domain::limits::fits(text, canvass_domain::limits::DATE_TEXT) {
            return None;
        }
        parse_date(text).map(Self::Day).or_else(|| parse_instant(text, DayEdge::Start).map(Self::At))
    }

    /// The instant it stands for; a day is taken at `edge`.
    pub fn at(self, edge: DayEdge) -> OffsetDateTime {
        match self {
            Self::At(instant) => instant,
            Self::Day(day) => day_at(day, edge),
        }
    }
}

/// The instant of an optional date, a day taken at `edge`.
pub fn instant(date: Option<ClientDate>, edge: DayEdge) -> Option<OffsetDateTime> {
    date.map(|date| date.at(edge))
}

impl<'de> Deserialize<'de> for ClientDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(DateVisitor { empty_is_none: false })?.ok_or_else(|| de::Error::custom(EXPECTED))
    }
}

/// Reads an optional date where an empty string also means none (`sendDate: ""`).
pub fn empty_is_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<ClientDate>, D::Error> {
    deserializer.deserialize_option(OptionalDate)
}

struct OptionalDate;

impl<'de> Visitor<'de> for OptionalDate {
    type Value = Option<ClientDate>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{EXPECTED}, an empty string or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(DateVisitor { empty_is_none: true })
    }
}

struct DateVisitor {
    empty_is_none: bool,
}

impl<'de> Visitor<'de> for DateVisitor {
    type Value = Option<ClientDate>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if self.empty_is_none && text.is_empty() {
            return Ok(None);
        }
        ClientDate::parse(text).map(Some).ok_or_else(|| E::custom(format!("must be {EXPECTED}")))
    }
}

#[cfg(test)]
mod tests {
    use time::macros::{date, datetime};

    use super::*;

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(default)]
        at: Option<ClientDate>,
        #[serde(default, deserialize_with = "empty_is_none")]
        send: Option<ClientDate>,
    }

    fn read(json: &str) -> Result<Body, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn days_and_date_times_are_read_and_placed_at_their_edge() {
        let body = read(r#"{"at": "2026-11-22", "send": "2026-11-22T10:00:00+01:00"}"#).unwrap();
        assert_eq!(body.at, Some(ClientDate::Day(date!(2026 - 11 - 22))));
        assert_eq!(instant(body.at, DayEdge::End), Some(datetime!(2026-11-22 23:59:59.999999 UTC)));
        assert_eq!(instant(body.send, DayEdge::End), Some(datetime!(2026-11-22 09:00 UTC)));
    }

    #[test]
    fn anything_else_is_refused_and_an_empty_string_is_none_only_where_allowed() {
        assert!(read(r#"{"at": "22/11/2026"}"#).unwrap_err().contains(EXPECTED));
        assert!(read(r#"{"at": ""}"#).is_err());
        assert!(read(r#"{"at": 7}"#).is_err());
        assert_eq!(read(r#"{"send": ""}"#).unwrap().send, None);
        assert_eq!(read(r#"{"send": null}"#).unwrap().send, None);
        assert!(read(r#"{"send": "soon"}"#).unwrap_err().contains(EXPECTED));
        let padded = |blanks: usize| format!(r#"{{"at":"{}2026-11-22"}}"#, " ".repeat(blanks));
        assert!(read(&padded(55)).unwrap_err().contains(EXPECTED), "65 characters as sent");
        assert!(read(&padded(54)).is_ok(), "64 characters as sent");
    }
}
