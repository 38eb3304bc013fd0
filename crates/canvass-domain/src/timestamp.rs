//! Reading the dates clients send: RFC 3339 date-times with an offset, or date-only `YYYY-MM-DD`.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, Time, UtcOffset};

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
/// assert_eq!(parse_instant("0000-01-01", DayEdge::Start), None, "before year 1");
/// ```
pub fn parse_instant(text: &str, edge: DayEdge) -> Option<OffsetDateTime> {
    let text = text.trim();
    if let Ok(instant) = OffsetDateTime::parse(text, &Rfc3339) {
        return instant.checked_to_offset(UtcOffset::UTC).filter(|utc| SUPPORTED_YEARS.contains(&utc.year()));
    }
    Some(day_at(parse_date(text)?, edge))
}

/// The instant a date-only value stands for at the given edge of that UTC day (the end to the microsecond, the
/// precision PostgreSQL stores).
pub fn day_at(date: Date, edge: DayEdge) -> OffsetDateTime {
    match edge {
        DayEdge::Start => date.with_time(Time::MIDNIGHT).assume_utc(),
        DayEdge::End => date.with_time(time::macros::time!(23:59:59.999_999)).assume_utc(),
    }
}

/// The years a date may fall in: from year 1 to 9999, the years RFC 3339 can write.
pub const SUPPORTED_YEARS: std::ops::RangeInclusive<i32> = 1..=9999;

/// Parses a date-only `YYYY-MM-DD` value with a four-digit year from [`SUPPORTED_YEARS`].
pub fn parse_date(text: &str) -> Option<Date> {
    Date::parse(text.trim(), format_description!("[year repr:full sign:automatic]-[month]-[day]"))
        .ok()
        .filter(|date| SUPPORTED_YEARS.contains(&date.year()))
}

/// Parses a day: a `YYYY-MM-DD` date, or the calendar date of an RFC 3339 date-time as written (its own offset).
///
/// ```
/// use canvass_domain::timestamp::parse_day;
/// use time::macros::date;
///
/// assert_eq!(parse_day("2027-01-01"), Some(date!(2027 - 01 - 01)));
/// assert_eq!(parse_day("2027-01-01T00:30:00+02:00"), Some(date!(2027 - 01 - 01)));
/// assert_eq!(parse_day("2027-01-01T25:00:00Z"), None);
/// ```
pub fn parse_day(text: &str) -> Option<Date> {
    parse_date(text).or_else(|| {
        let instant = OffsetDateTime::parse(text.trim(), &Rfc3339).ok()?;
        Some(instant.date()).filter(|date| SUPPORTED_YEARS.contains(&date.year()))
    })
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
    fn years_outside_the_supported_range_are_refused() {
        for bad in ["-0001-01-01", "0000-12-31", "0000-06-01T00:00:00Z", "9999-12-31T23:00:00-05:00", "+10000-01-01"] {
            assert_eq!(parse_instant(bad, DayEdge::End), None, "{bad}");
        }
        assert_eq!(parse_instant("9999-12-31", DayEdge::End), Some(datetime!(9999-12-31 23:59:59.999999 UTC)));
        assert_eq!(parse_instant("0001-01-01T00:00:00+00:00", DayEdge::Start), Some(datetime!(0001-01-01 00:00 UTC)));
    }
}
