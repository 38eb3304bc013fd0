//! Reading the dates clients send: RFC 3339 date-times with an offset, or date-only `YYYY-MM-DD`.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime, Time};

/// Which end of a range a date-only value stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayEdge {
    /// A date-only value means the start of that day (UTC): `from`, `updated`, `startDate`.
    Start,
    /// A date-only value means the end of that day (UTC), inclusive: `to`.
    End,
}

/// Parses an RFC 3339 date-time, or a `YYYY-MM-DD` date taken at the given edge of that UTC day.
///
/// ```
/// use canvass_domain::timestamp::{parse_instant, DayEdge};
/// use time::macros::datetime;
///
/// assert_eq!(parse_instant("2026-11-22T10:00:00+01:00", DayEdge::Start), Some(datetime!(2026-11-22 09:00 UTC)));
/// assert_eq!(parse_instant("2026-11-22", DayEdge::Start), Some(datetime!(2026-11-22 00:00 UTC)));
/// assert_eq!(parse_instant("2026-11-22", DayEdge::End), Some(datetime!(2026-11-22 23:59:59.999999 UTC)));
/// assert_eq!(parse_instant("22/11/2026", DayEdge::Start), None);
/// ```
pub fn parse_instant(text: &str, edge: DayEdge) -> Option<OffsetDateTime> {
    let text = text.trim();
    if let Ok(instant) = OffsetDateTime::parse(text, &Rfc3339) {
        return Some(instant.to_offset(time::UtcOffset::UTC));
    }
    let date = parse_date(text)?;
    let start = date.with_time(Time::MIDNIGHT).assume_utc();
    Some(match edge {
        DayEdge::Start => start,
        DayEdge::End => start + Duration::days(1) - Duration::microseconds(1),
    })
}

/// Parses a date-only `YYYY-MM-DD` value.
pub fn parse_date(text: &str) -> Option<Date> {
    Date::parse(text.trim(), format_description!("[year]-[month]-[day]")).ok()
}

/// Rounds an instant down to the microsecond, the precision PostgreSQL stores, so that what a use case returns
/// equals what a later read returns.
pub fn to_storage_precision(instant: OffsetDateTime) -> OffsetDateTime {
    let micros = instant.microsecond();
    instant.replace_microsecond(micros).unwrap_or(instant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn rfc3339_is_normalised_to_utc() {
        let parsed = parse_instant("2026-01-01T00:30:00-02:00", DayEdge::End);
        assert_eq!(parsed, Some(datetime!(2026-01-01 02:30 UTC)));
    }

    #[test]
    fn garbage_and_impossible_dates_are_refused() {
        for bad in ["", "tomorrow", "2026-02-30", "2026-13-01", "2026-11-22T25:00:00Z", "2026-11-22T10:00:00"] {
            assert_eq!(parse_instant(bad, DayEdge::Start), None, "{bad}");
        }
    }

    #[test]
    fn storage_precision_drops_nanoseconds() {
        let instant = datetime!(2026-01-01 00:00:00.123456789 UTC);
        assert_eq!(to_storage_precision(instant), datetime!(2026-01-01 00:00:00.123456 UTC));
    }
}
