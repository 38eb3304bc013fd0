//! The pace all workers sharing a database keep together (the contract's "Sending at the relay's pace"): a token
//! bucket of sending slots filled at `DELIVERY_RATE` and holding at most `DELIVERY_CONCURRENCY` slots, a ceiling
//! that halves when the relay asks to slow down and climbs back while it does not, and a count of the UTC day's
//! messages against `DELIVERY_DAILY_LIMIT`. The state is one row in the store; this is its arithmetic.

use time::{Date, Duration, OffsetDateTime};

/// How long a halving lasts before the pace starts to climb back, and how often it climbs by a tenth.
pub const THROTTLE_STEP: Duration = Duration::seconds(10);
/// The slowest the ceiling goes: one message every ten seconds.
const SLOWEST: f64 = 0.1;
/// The ceiling is lifted once it climbs past this many times the configured rate (or this many messages a second
/// when the rate is unlimited).
const UNLIMITED_CEILING: f64 = 1000.0;

/// What the operator set: `DELIVERY_RATE`, `DELIVERY_CONCURRENCY` (the bucket's size) and `DELIVERY_DAILY_LIMIT`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaceLimits {
    /// Messages per second over all workers; `None` for no limit.
    pub rate: Option<f64>,
    /// The most slots the bucket holds: a worker's burst.
    pub burst: i64,
    /// Messages per UTC day over all workers; `None` for no limit.
    pub daily: Option<i64>,
}

impl PaceLimits {
    /// Whether any limit is set (else, short of a throttle, every round takes what it wants).
    pub fn is_limited(&self) -> bool {
        self.rate.is_some() || self.daily.is_some()
    }
}

/// The shared pace as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    /// Slots in the bucket.
    pub tokens: f64,
    /// When the bucket was last filled.
    pub refilled_at: OffsetDateTime,
    /// The ceiling a throttle set, in messages per second; `None` when the relay has not asked to slow down.
    pub ceiling: Option<f64>,
    /// When the ceiling last changed (halved or climbed).
    pub ceiling_at: Option<OffsetDateTime>,
    /// The UTC day `day_sent` counts.
    pub day: Date,
    /// Messages handed out on `day`.
    pub day_sent: i64,
    /// When the day's limit was reached, if it was.
    pub day_full_at: Option<OffsetDateTime>,
}

/// What [`Pace::take`] granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaceGrant {
    /// Slots granted: messages the round may claim.
    pub slots: i64,
    /// When none was granted, how long until the next slot (the next UTC day for a full day).
    pub wait: Option<Duration>,
}

impl Pace {
    /// A fresh pace at `now`: a full bucket, no ceiling, nothing sent today.
    pub fn new(now: OffsetDateTime, limits: &PaceLimits) -> Self {
        Self {
            tokens: limits.burst as f64,
            refilled_at: now,
            ceiling: None,
            ceiling_at: None,
            day: now.date(),
            day_sent: 0,
            day_full_at: None,
        }
    }

    /// The messages per second the pace allows now: the configured rate under the throttle's ceiling; `None` for
    /// no limit.
    pub fn per_second(&self, limits: &PaceLimits) -> Option<f64> {
        match (limits.rate, self.ceiling) {
            (Some(rate), Some(ceiling)) => Some(rate.min(ceiling)),
            (rate, ceiling) => rate.or(ceiling),
        }
    }

    /// Takes up to `want` slots at `now`: fills the bucket for the time since it was last filled, lets the ceiling
    /// climb, starts a new day's count, and grants what the bucket and the day allow. A `now` older than the last
    /// fill (a worker read its clock, then waited for the row behind another) counts as the last fill: the bucket's
    /// time never goes back, so no span is filled twice.
    pub fn take(&mut self, now: OffsetDateTime, want: i64, limits: &PaceLimits) -> PaceGrant {
        let now = now.max(self.refilled_at);
        self.climb(now, limits);
        if now.date() != self.day {
            self.day = now.date();
            self.day_sent = 0;
            self.day_full_at = None;
        }
        let rate = self.per_second(limits);
        let elapsed = (now - self.refilled_at).as_seconds_f64();
        self.tokens = match rate {
            Some(rate) => (self.tokens + elapsed * rate).min(limits.burst as f64),
            None => want as f64,
        };
        self.refilled_at = now;
        let day_left = limits.daily.map_or(i64::MAX, |daily| (daily - self.day_sent).max(0));
        let slots = want.min(self.tokens.floor() as i64).min(day_left).max(0);
        self.tokens -= slots as f64;
        self.day_sent += slots;
        if slots == day_left {
            self.day_full_at.get_or_insert(now);
        }
        let wait = (slots == 0).then(|| match day_left {
            0 => self.day.next_day().map_or(Duration::HOUR, |day| day.midnight().assume_utc() - now),
            _ => {
                let per_second = rate.unwrap_or(f64::INFINITY).max(SLOWEST);
                Duration::seconds_f64(((1.0 - self.tokens) / per_second).clamp(0.001, 3600.0))
            }
        });
        PaceGrant { slots, wait }
    }

    /// Gives back `slots` taken and not used (the round found fewer messages).
    pub fn give_back(&mut self, slots: i64, limits: &PaceLimits) {
        if slots <= 0 {
            return;
        }
        self.tokens = (self.tokens + slots as f64).min(limits.burst as f64);
        self.day_sent = (self.day_sent - slots).max(0);
        if limits.daily.is_some_and(|daily| self.day_sent < daily) {
            self.day_full_at = None;
        }
    }

    /// The relay asked to slow down at `now` while this worker was sending `measured` messages a second: the pace
    /// (the configured one under its ceiling, or without one what was measured) halves, at most once every
    /// [`THROTTLE_STEP`].
    pub fn throttle(&mut self, now: OffsetDateTime, measured: f64, limits: &PaceLimits) {
        if self.ceiling_at.is_some_and(|at| now - at < THROTTLE_STEP) && self.ceiling.is_some() {
            return;
        }
        let current = self.per_second(limits).unwrap_or(measured);
        let current = if current.is_finite() && current > 0.0 { current } else { limits.burst as f64 };
        self.ceiling = Some((current / 2.0).max(SLOWEST));
        self.ceiling_at = Some(now);
        self.tokens = self.tokens.min(1.0);
    }

    /// Lets the ceiling climb by a tenth for every [`THROTTLE_STEP`] since it last changed, and lifts it once it is
    /// far above the configured rate.
    fn climb(&mut self, now: OffsetDateTime, limits: &PaceLimits) {
        let (Some(ceiling), Some(at)) = (self.ceiling, self.ceiling_at) else { return };
        let steps = ((now - at) / THROTTLE_STEP).floor();
        if steps < 1.0 {
            return;
        }
        let climbed = ceiling * 1.1f64.powf(steps.min(200.0));
        if climbed >= limits.rate.map_or(UNLIMITED_CEILING, |rate| rate * 2.0) {
            self.ceiling = None;
            self.ceiling_at = None;
        } else {
            self.ceiling = Some(climbed);
            self.ceiling_at = Some(at + THROTTLE_STEP * steps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-27 10:00 UTC);

    fn limits(rate: Option<f64>, burst: i64, daily: Option<i64>) -> PaceLimits {
        PaceLimits { rate, burst, daily }
    }

    /// Takes slots every `step` for `span`, wanting `want` each time; returns what each take granted.
    fn run(pace: &mut Pace, limits: &PaceLimits, step: Duration, span: Duration, want: i64) -> Vec<i64> {
        let mut grants = Vec::new();
        let mut at = NOW;
        while at < NOW + span {
            grants.push(pace.take(at, want, limits).slots);
            at += step;
        }
        grants
    }

    #[test]
    fn any_ten_seconds_hold_at_most_rate_times_ten_plus_the_burst() {
        let limits = limits(Some(14.0), 8, None);
        let mut pace = Pace::new(NOW, &limits);
        let grants = run(&mut pace, &limits, Duration::milliseconds(50), Duration::seconds(60), 200);
        for window in grants.windows(200) {
            let sent: i64 = window.iter().sum();
            assert!(sent <= 14 * 10 + 8, "{sent} in ten seconds");
        }
        let total: i64 = grants.iter().sum();
        assert!((14 * 60..=14 * 60 + 8).contains(&total), "the rate is kept, not undershot: {total} in a minute");
    }

    #[test]
    fn takes_arriving_out_of_their_clocks_order_grant_no_more_than_the_rate() {
        // Workers read their clocks before they wait for the pace's row: a take can arrive with an older time than
        // the one before it. Each such take must not set the fill back and have the next one count the time again.
        let limits = limits(Some(100.0), 2, None);
        let mut pace = Pace::new(NOW, &limits);
        let mut granted = 0;
        for step in 1..=1000 {
            let late = NOW + Duration::milliseconds(10 * step - 9);
            let early = NOW + Duration::milliseconds(10 * step);
            granted += pace.take(early, 10, &limits).slots + pace.take(late, 10, &limits).slots;
        }
        assert!(granted <= 100 * 10 + 2, "{granted} slots in ten seconds at 100 a second");
        assert!(granted >= 100 * 10 - 2, "the rate is kept: {granted}");
    }

    #[test]
    fn an_empty_bucket_says_how_long_to_wait() {
        let limits = limits(Some(2.0), 1, None);
        let mut pace = Pace::new(NOW, &limits);
        assert_eq!(pace.take(NOW, 5, &limits), PaceGrant { slots: 1, wait: None });
        let empty = pace.take(NOW, 5, &limits);
        assert_eq!(empty.slots, 0);
        assert_eq!(empty.wait, Some(Duration::milliseconds(500)));
        assert_eq!(pace.take(NOW + Duration::milliseconds(500), 5, &limits).slots, 1);
    }

    #[test]
    fn unused_slots_go_back_to_the_bucket_and_the_day() {
        let limits = limits(Some(1.0), 8, Some(10));
        let mut pace = Pace::new(NOW, &limits);
        assert_eq!(pace.take(NOW, 8, &limits).slots, 8);
        pace.give_back(5, &limits);
        assert_eq!((pace.tokens, pace.day_sent), (5.0, 3));
    }

    #[test]
    fn the_daily_limit_holds_the_rest_until_the_next_utc_day() {
        let limits = limits(None, 8, Some(10));
        let mut pace = Pace::new(NOW, &limits);
        assert_eq!(pace.take(NOW, 8, &limits).slots, 8);
        assert_eq!(pace.take(NOW, 8, &limits).slots, 2);
        let full = pace.take(NOW + Duration::minutes(1), 8, &limits);
        assert_eq!(full, PaceGrant { slots: 0, wait: Some(Duration::hours(14) - Duration::minutes(1)) });
        assert_eq!(pace.day_full_at, Some(NOW));
        let tomorrow = datetime!(2026-11-28 00:00:01 UTC);
        assert_eq!(pace.take(tomorrow, 8, &limits).slots, 8);
        assert_eq!(pace.day_full_at, None);
    }

    #[test]
    fn a_throttle_halves_the_pace_once_and_it_climbs_back() {
        let limits = limits(Some(14.0), 8, None);
        let mut pace = Pace::new(NOW, &limits);
        pace.throttle(NOW, 14.0, &limits);
        assert_eq!(pace.per_second(&limits), Some(7.0));
        pace.throttle(NOW + Duration::seconds(1), 7.0, &limits);
        assert_eq!(pace.per_second(&limits), Some(7.0), "a round of throttled replies halves it once");
        pace.throttle(NOW + THROTTLE_STEP, 7.0, &limits);
        assert_eq!(pace.per_second(&limits), Some(3.5));
        pace.take(NOW + THROTTLE_STEP * 3, 1, &limits);
        let climbed = pace.per_second(&limits).unwrap();
        assert!((climbed - 3.5 * 1.1 * 1.1).abs() < 1e-9, "{climbed}");
        pace.take(NOW + Duration::minutes(30), 1, &limits);
        assert_eq!(pace.per_second(&limits), Some(14.0), "back to the configured rate");
        assert_eq!(pace.ceiling, None);
    }

    #[test]
    fn without_a_rate_a_throttle_halves_what_the_worker_was_sending() {
        let limits = limits(None, 8, None);
        let mut pace = Pace::new(NOW, &limits);
        assert_eq!(pace.take(NOW, 200, &limits).slots, 200, "no limit: every slot wanted");
        pace.throttle(NOW, 600.0, &limits);
        assert_eq!(pace.per_second(&limits), Some(300.0));
        let grant = pace.take(NOW + Duration::seconds(1), 200, &limits);
        assert!(grant.slots <= 8, "the bucket holds a burst: {grant:?}");
    }
}
