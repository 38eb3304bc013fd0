//! The limits that protect the service from its callers: request rates per API key, failed guesses per client
//! address on the respondent pages (a login page's budget grows with its sendout, for a whole office may share one
//! address), which proxies say who the client is, how long a request body may take to arrive, how long a
//! checked key is trusted, and how often `/metrics` may count the outbox; how long a streamed body may go unread,
//! what a chunk of answer sets may weigh, how many exports an account runs at once and what their temporary files
//! may hold. Tests use small ones.

use std::num::NonZeroU32;
use std::time::Duration;

use crate::client_address::TrustedProxies;
use crate::routes::metrics::backlog::BACKLOG_FRESH_FOR;

/// A count of failures allowed within a sliding window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailureWindow {
    /// Failures allowed; one more within `window` blocks further attempts until the window passes.
    pub allowed: u32,
    /// How far back failures count.
    pub window: Duration,
}

/// Every limit of the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protection {
    /// Requests per second one API key may make (`RATE_LIMIT_PER_KEY`); bursts may reach ten times this.
    pub rate_limit_per_key: NonZeroU32,
    /// Unknown login identifiers one client address may try on one `/login/<sendoutId>` of a sendout without
    /// respondents; see [`Protection::login_budget`].
    pub login_failures: FailureWindow,
    /// A login page's budget grows by one unknown identifier per this many of its sendout's respondents.
    pub login_respondents_per_extra_failure: NonZeroU32,
    /// Unknown link tokens one client address may try under `/r/`.
    pub token_failures: FailureWindow,
    /// The longest a request body may take to arrive whole (`BODY_READ_TIMEOUT`); then 408.
    pub body_read_timeout: Duration,
    /// The proxies (`TRUSTED_PROXIES`) whose `X-Forwarded-For`/`Forwarded` name the client of a request.
    pub trusted_proxies: TrustedProxies,
    /// How long an authenticated (or refused) key is trusted without asking the database again; a revoked key
    /// stops working within this time.
    pub key_cache_ttl: Duration,
    /// How long `/metrics` serves one reading of the outbox backlog (an all-accounts count) before a scrape reads it
    /// again; see `routes/metrics/backlog.rs`.
    pub backlog_reading_ttl: Duration,
    /// How long a piece of a streamed body (a long list, a page of answer sets, an export) may stay unread before
    /// its connection is closed (docs/decisions.md, "A body no one reads is closed").
    pub stream_idle_timeout: Duration,
    /// What one chunk of answer sets read for an export or a page may weigh, in bytes
    /// ([`canvass_domain::chunks::CHUNK_BYTES`]).
    pub chunk_bytes: u64,
    /// How many exports one account runs at once; one more answers 429.
    pub exports_per_account: usize,
    /// What the temporary files of one account's XLSX exports may hold at once, in bytes.
    pub export_temp_bytes_per_account: u64,
    /// What the temporary files of every XLSX export may hold at once, in bytes.
    pub export_temp_bytes: u64,
    /// Starts of one open link one client address may make within the window (`OPEN_LINK_STARTS_PER_MINUTE`
    /// within a minute); one more answers 429.
    pub open_link_starts: FailureWindow,
}

/// The default of [`Protection::open_link_starts`]: 60 starts a minute from one address (docs/decisions.md,
/// "Open links").
pub const OPEN_LINK_STARTS: FailureWindow = FailureWindow { allowed: 60, window: Duration::from_secs(60) };

impl Protection {
    /// The per-key burst: ten times the per-second rate.
    pub fn burst_per_key(&self) -> NonZeroU32 {
        self.rate_limit_per_key.saturating_mul(NonZeroU32::MIN.saturating_add(9))
    }

    /// The unknown identifiers one client address may try within the window on the login page of a sendout of
    /// `respondents` people: 10 plus one tenth of them by default, so that an office behind one address does not
    /// lock itself out with its typos (1,000 people: 110).
    pub fn login_budget(&self, respondents: u64) -> u32 {
        let extra = respondents / u64::from(self.login_respondents_per_extra_failure.get());
        self.login_failures.allowed.saturating_add(u32::try_from(extra).unwrap_or(u32::MAX))
    }
}

impl Default for Protection {
    fn default() -> Self {
        Self {
            rate_limit_per_key: NonZeroU32::new(100).unwrap_or(NonZeroU32::MIN),
            login_failures: FailureWindow { allowed: 10, window: Duration::from_secs(600) },
            login_respondents_per_extra_failure: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            token_failures: FailureWindow { allowed: 30, window: Duration::from_secs(60) },
            body_read_timeout: Duration::from_secs(10),
            trusted_proxies: TrustedProxies::default(),
            key_cache_ttl: Duration::from_secs(5),
            backlog_reading_ttl: BACKLOG_FRESH_FOR,
            stream_idle_timeout: Duration::from_secs(60),
            chunk_bytes: canvass_domain::chunks::CHUNK_BYTES,
            exports_per_account: 4,
            export_temp_bytes_per_account: 512 * 1024 * 1024,
            export_temp_bytes: 2 * 1024 * 1024 * 1024,
            open_link_starts: OPEN_LINK_STARTS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_budget_is_ten_and_one_per_ten_respondents() {
        let protection = Protection::default();
        assert_eq!(protection.login_budget(0), 10);
        assert_eq!(protection.login_budget(9), 10);
        assert_eq!(protection.login_budget(200), 30);
        assert_eq!(protection.login_budget(1_000), 110);
        assert_eq!(protection.login_budget(u64::MAX), u32::MAX, "saturates");
    }
}
