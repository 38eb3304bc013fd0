//! The request rate of each API key, kept by `governor` (GCRA): `RATE_LIMIT_PER_KEY` requests per second with
//! bursts up to ten times that, and the `RateLimit-*` and `Retry-After` headers that tell a client where it stands.

use std::num::NonZeroU32;
use std::time::Duration;

use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::problem::{Problem, ProblemKind};

/// The SHA-256 of a presented key: what the limiter counts by (the key itself is never kept).
pub type KeyDigest = [u8; 32];

type Limiter = RateLimiter<KeyDigest, DashMapStateStore<KeyDigest>, DefaultClock, StateInformationMiddleware>;

/// The highest rate a key may be given.
const MAX_PER_SECOND: NonZeroU32 = NonZeroU32::new(1_000_000_000).unwrap();

/// Keys whose state is kept before idle ones (full buckets) are forgotten.
const FORGET_IDLE_AFTER: usize = 10_000;

/// Where a key stands after a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The burst a key may use at once.
    pub limit: u32,
    /// Requests left in the burst now.
    pub remaining: u32,
    /// Seconds until the whole burst is available again.
    pub reset: u64,
    /// Seconds until the next request is let through, when this one was refused.
    pub retry_after: Option<u64>,
}

impl Standing {
    /// Writes `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (and `Retry-After` when refused).
    pub fn write(&self, headers: &mut HeaderMap) {
        let pairs = [
            ("ratelimit-limit", u64::from(self.limit)),
            ("ratelimit-remaining", u64::from(self.remaining)),
            ("ratelimit-reset", self.reset),
        ];
        for (name, value) in pairs {
            headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
        }
        if let Some(seconds) = self.retry_after {
            headers.insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
    }

    /// The 429 problem for a refused request, with its headers.
    pub fn too_many_requests(&self) -> actix_web::HttpResponse {
        let seconds = self.retry_after.unwrap_or(1);
        let problem = Problem::new(
            ProblemKind::RateLimited,
            format!("this API key made more than {} requests at once; retry after {seconds} s", self.limit),
        );
        let mut response = actix_web::ResponseError::error_response(&problem);
        self.write(response.headers_mut());
        response
    }
}

impl Standing {
    /// Where a key stands after the shared limits' `grant` (one cell for the request at hand, the rest `ahead`
    /// for its next requests), of a burst of `burst`.
    pub fn of_grant(grant: &canvass_limits::Grant, ahead: u32, burst: u32) -> Self {
        let retry_after = (grant.granted == 0).then(|| ceil_seconds(grant.retry_after).max(1));
        let remaining = grant.remaining.saturating_add(ahead);
        Self { limit: burst, remaining, reset: ceil_seconds(grant.reset), retry_after }
    }
}

/// The per-key limiter.
pub struct KeyLimits {
    limiter: Limiter,
    clock: DefaultClock,
    burst: NonZeroU32,
    interval: Duration,
}

impl KeyLimits {
    /// `per_second` requests per second per key, bursts up to `burst`.
    pub fn new(per_second: NonZeroU32, burst: NonZeroU32) -> Self {
        // GCRA counts in nanoseconds: a rate over 10^9 per second would make a request weigh nothing.
        let per_second = per_second.min(MAX_PER_SECOND);
        let clock = DefaultClock::default();
        let quota = Quota::per_second(per_second).allow_burst(burst);
        let limiter = RateLimiter::dashmap_with_clock(quota, clock.clone()).with_middleware();
        Self { limiter, clock, burst, interval: Duration::from_secs(1) / per_second.get() }
    }

    /// Counts one request of the key with this digest and says where the key stands.
    pub fn check(&self, key: &KeyDigest) -> Standing {
        if self.limiter.len() > FORGET_IDLE_AFTER {
            self.limiter.retain_recent();
        }
        let limit = self.burst.get();
        match self.limiter.check_key(key) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                Standing { limit, remaining, reset: self.seconds_for(limit - remaining), retry_after: None }
            }
            Err(refused) => {
                let wait = refused.wait_time_from(self.clock.now());
                let retry_after = ceil_seconds(wait).max(1);
                Standing { limit, remaining: 0, reset: self.seconds_for(limit), retry_after: Some(retry_after) }
            }
        }
    }

    fn seconds_for(&self, cells: u32) -> u64 {
        ceil_seconds(self.interval * cells)
    }
}

fn ceil_seconds(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_counted_down_and_then_refused_with_a_wait() {
        let limits = KeyLimits::new(NonZeroU32::MIN, NonZeroU32::new(3).unwrap_or(NonZeroU32::MIN));
        let key = [7u8; 32];
        let standings: Vec<_> = (0..4).map(|_| limits.check(&key)).collect();
        assert_eq!(standings.iter().map(|s| s.remaining).collect::<Vec<_>>(), [2, 1, 0, 0]);
        assert_eq!(standings[3].retry_after, Some(1));
        assert_eq!(standings[2].reset, 3);
        assert_eq!(limits.check(&[8u8; 32]).remaining, 2, "another key has a burst of its own");
        let unlimited = KeyLimits::new(NonZeroU32::MAX, NonZeroU32::MAX);
        assert!(unlimited.check(&key).retry_after.is_none());
    }
}
