//! Limits every process of a service shares (`LIMITS_URL`, a Redis URL): a key's request rate (GCRA) and the
//! respondent side's sliding windows of guesses and starts, each counted request one round trip (a Lua script by
//! `EVALSHA`), on the Redis server's clock so that every process reads the same time.
//!
//! One multiplexed connection ([`redis::aio::ConnectionManager`]) made on first use reconnects by itself; a request
//! that cannot reach Redis within [`TIMEOUT`] answers [`Unreachable`] and the caller applies its rule (the per-key
//! limit fails open, guesses fail closed). [`SharedLimits::is_up`] says how the last request went, for the gauge
//! `canvass_limits_backend_up`; each change is logged once, never with the URL (it may hold a password).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::Script;

/// How long one request, or one connection attempt, may take before Redis counts as unreachable.
pub const TIMEOUT: Duration = Duration::from_millis(500);

/// Redis did not answer: the caller falls back as its limit's rule says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the shared limits (LIMITS_URL) cannot be reached")]
pub struct Unreachable;

/// `LIMITS_URL` is not a Redis URL.
#[derive(Debug, thiserror::Error)]
#[error("LIMITS_URL is not a Redis URL (redis://host:port/db, rediss://… or unix:///path): {0}")]
pub struct InvalidUrl(String);

/// A parsed `LIMITS_URL`: read at start, so that a bad one stops the process before it serves; its `Debug` shows
/// nothing of it (it may hold a password).
#[derive(Clone)]
pub struct LimitsUrl(redis::Client);

impl LimitsUrl {
    /// Parses `url`: `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS) or `unix:///path`.
    pub fn parse(url: &str) -> Result<Self, InvalidUrl> {
        // The error is redis's own description of what is wrong, never the URL.
        redis::Client::open(url).map(Self).map_err(|error| InvalidUrl(format!("{:?}", error.kind())))
    }
}

impl std::fmt::Debug for LimitsUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LimitsUrl(..)")
    }
}

/// Where a key stands after taking cells (requests) from its burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// Cells granted, at most those wanted; 0: the request is refused.
    pub granted: u32,
    /// Cells left in the burst after them.
    pub remaining: u32,
    /// Until the whole burst is available again.
    pub reset: Duration,
    /// Until the next request is let through; zero when this one was.
    pub retry_after: Duration,
}

/// A sliding window of one client's failures (or starts) at one scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window<'a> {
    /// The window's name: the scope and the client, never personal data.
    pub key: &'a str,
    /// How many fall within the window before the next attempt is refused.
    pub allowed: u32,
    /// How far back they count.
    pub span: Duration,
}

/// The limits in Redis: see the module documentation.
pub struct SharedLimits {
    connection: ConnectionManager,
    up: AtomicBool,
    gcra: Script,
    wait: Script,
    record: Script,
}

impl std::fmt::Debug for SharedLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLimits").field("up", &self.is_up()).finish_non_exhaustive()
    }
}

/// Every key this service writes begins with this.
const PREFIX: &str = "canvass:limits:";

impl SharedLimits {
    /// Limits kept at `url`; connects on first use, so a Redis down at start only means requests fall back until
    /// it is up. Must be called within a Tokio runtime, which then drives the connection.
    pub fn open(url: &LimitsUrl) -> Result<Self, InvalidUrl> {
        let client = url.0.clone();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(TIMEOUT);
        let connection = ConnectionManager::new_lazy_with_config(client, config)
            .map_err(|error| InvalidUrl(format!("{:?}", error.kind())))?;
        Ok(Self {
            connection,
            up: AtomicBool::new(true),
            gcra: Script::new(include_str!("scripts/gcra.lua")),
            wait: Script::new(include_str!("scripts/window_wait.lua")),
            record: Script::new(include_str!("scripts/window_record.lua")),
        })
    }

    /// Whether the last request reached Redis (true before the first).
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Acquire)
    }

    /// Takes up to `wanted` cells (at least one: the request at hand) of the key named `key` (a digest, never the
    /// key) at `per_second` with bursts of `burst`: as many as are free, none when none is.
    pub async fn take_request(
        &self,
        key: &str,
        per_second: u32,
        burst: u32,
        wanted: u32,
    ) -> Result<Grant, Unreachable> {
        let interval = 1_000_000f64 / f64::from(per_second.max(1));
        let mut call = self.gcra.key(format!("{PREFIX}key:{key}"));
        call.arg(interval).arg(burst.max(1)).arg(wanted.max(1));
        let (granted, remaining, reset, retry): (u32, u32, u64, u64) = self.run(&call).await?;
        Ok(Grant { granted, remaining, reset: Duration::from_micros(reset), retry_after: Duration::from_micros(retry) })
    }

    /// The longest wait any of `windows` imposes now, or `None` when none does.
    pub async fn wait(&self, windows: &[Window<'_>]) -> Result<Option<Duration>, Unreachable> {
        let mut call = self.wait.prepare_invoke();
        for window in windows {
            call.key(format!("{PREFIX}{}", window.key)).arg(window.allowed).arg(micros(window.span));
        }
        let wait: u64 = self.run(&call).await?;
        Ok((wait > 0).then(|| Duration::from_micros(wait)))
    }

    /// Records one failure in `window`, the budget it names kept for the window's later waits.
    pub async fn record(&self, window: Window<'_>) -> Result<(), Unreachable> {
        self.record_unless(window, false).await.map(drop)
    }

    /// Records one start in `window` unless it is full; answers the wait when it is (and nothing was recorded).
    pub async fn take(&self, window: Window<'_>) -> Result<Option<Duration>, Unreachable> {
        self.record_unless(window, true).await
    }

    async fn record_unless(&self, window: Window<'_>, refuse_when_full: bool) -> Result<Option<Duration>, Unreachable> {
        let mut call = self.record.key(format!("{PREFIX}{}", window.key));
        call.arg(window.allowed).arg(micros(window.span)).arg(u8::from(refuse_when_full));
        let wait: u64 = self.run(&call).await?;
        Ok((wait > 0).then(|| Duration::from_micros(wait)))
    }

    async fn run<T: redis::FromRedisValue>(&self, call: &redis::ScriptInvocation<'_>) -> Result<T, Unreachable> {
        let mut connection = self.connection.clone();
        let answer = call.invoke_async(&mut connection).await;
        let reached = answer.as_ref().map_or_else(|error| !is_unreachable(error), |_| true);
        let was = self.up.swap(reached, Ordering::AcqRel);
        match (was, reached) {
            (true, false) => tracing::warn!("the shared limits (LIMITS_URL) are unreachable: falling back"),
            (false, true) => tracing::info!("the shared limits (LIMITS_URL) are reachable again"),
            _ => {}
        }
        answer.map_err(|error| {
            if reached {
                tracing::error!(kind = ?error.kind(), "a shared limit's script failed");
            }
            Unreachable
        })
    }
}

/// Whether `error` says Redis could not be reached (rather than that a script failed on it).
fn is_unreachable(error: &redis::RedisError) -> bool {
    error.is_io_error() || error.is_timeout() || error.is_connection_dropped() || error.is_connection_refusal()
}

fn micros(span: Duration) -> u64 {
    u64::try_from(span.as_micros()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
