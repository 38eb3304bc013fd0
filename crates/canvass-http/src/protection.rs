//! The limits that protect the service from its callers: request rates per API key, failed guesses per client
//! address on the respondent pages, how long a request body may take to arrive, and how long a checked key is
//! trusted. Tests use small ones.

use std::num::NonZeroU32;
use std::time::Duration;

/// A count of failures allowed within a sliding window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureWindow {
    /// Failures allowed; one more within `window` blocks further attempts until the window passes.
    pub allowed: u32,
    /// How far back failures count.
    pub window: Duration,
}

/// Every limit of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Protection {
    /// Requests per second one API key may make (`RATE_LIMIT_PER_KEY`); bursts may reach ten times this.
    pub rate_limit_per_key: NonZeroU32,
    /// Unknown login identifiers one client address may try on one `/login/<sendoutId>`.
    pub login_failures: FailureWindow,
    /// Unknown link tokens one client address may try under `/r/`.
    pub token_failures: FailureWindow,
    /// The longest a request body may take to arrive whole (`BODY_READ_TIMEOUT`); then 408.
    pub body_read_timeout: Duration,
    /// Take the client address from `X-Forwarded-For`/`Forwarded` (set only behind a proxy that writes them).
    pub trust_forwarded_for: bool,
    /// How long an authenticated (or refused) key is trusted without asking the database again; a revoked key
    /// stops working within this time.
    pub key_cache_ttl: Duration,
}

impl Protection {
    /// The per-key burst: ten times the per-second rate.
    pub fn burst_per_key(&self) -> NonZeroU32 {
        self.rate_limit_per_key.saturating_mul(NonZeroU32::MIN.saturating_add(9))
    }
}

impl Default for Protection {
    fn default() -> Self {
        Self {
            rate_limit_per_key: NonZeroU32::new(100).unwrap_or(NonZeroU32::MIN),
            login_failures: FailureWindow { allowed: 10, window: Duration::from_secs(600) },
            token_failures: FailureWindow { allowed: 30, window: Duration::from_secs(60) },
            body_read_timeout: Duration::from_secs(10),
            trust_forwarded_for: false,
            key_cache_ttl: Duration::from_secs(5),
        }
    }
}
