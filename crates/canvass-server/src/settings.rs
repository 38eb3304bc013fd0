//! What the server needs to start, read from the command line and the environment; nothing reads global state.
//! `from_args` is the one place where a parsed option becomes a field of [`Settings`].

mod from_args;

/// Settings of a running server.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The PostgreSQL database.
    pub database_url: String,
    /// Address to listen on; port 0 picks a free port.
    pub bind: String,
    /// Database connections in the pool.
    pub pool_size: u32,
    /// HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// Base of respondents' links; default `http://<bound address>`.
    pub public_url: Option<String>,
    /// How often the retention job runs; zero turns it off.
    pub retention_interval: std::time::Duration,
    /// Days the audit log keeps an event.
    pub audit_retention_days: u32,
    /// The shared secret of `/sms/inbound`; none turns the endpoint off.
    pub sms_inbound_secret: Option<secrecy::SecretString>,
    /// The shared secret of `/inbound/dsn`; none turns the endpoint off.
    pub inbound_secret: Option<secrecy::SecretString>,
    /// Whether webhook URLs may name private, loopback and link-local addresses (`WEBHOOK_ALLOW_PRIVATE`): for a
    /// receiver on the same host or network, and for tests.
    pub webhook_allow_private: bool,
    /// The delivery worker's settings; `None` runs no worker (and no webhook worker) in this process.
    pub delivery: Option<crate::jobs::delivery::DeliverySettings>,
    /// The longest one SQL statement may run (`STATEMENT_TIMEOUT`); a request whose statement is cancelled
    /// answers 503.
    pub statement_timeout: std::time::Duration,
    /// Rate limits, failed-guess windows and the body read timeout.
    pub protection: canvass_http::Protection,
    /// Where the limits every process of the service shares are kept (`LIMITS_URL`); none keeps them per process.
    pub limits_url: Option<canvass_limits::LimitsUrl>,
    /// The bearer token `/metrics` requires (`METRICS_TOKEN`); none serves the metrics without one.
    pub metrics_token: Option<secrecy::SecretString>,
    /// The key of the open links' cookies (`COOKIE_KEY`); none draws one for this process.
    pub cookie_key: Option<canvass_http::CookieKey>,
    /// How long an idle client connection stays open for its next request (`KEEP_ALIVE`, default
    /// [`DEFAULT_KEEP_ALIVE`]).
    pub keep_alive: std::time::Duration,
}

/// The keep-alive when none is given: 75 s, nginx's `keepalive_timeout`. A client that sends a request on a
/// connection at the moment the server closes it reads a broken response; with actix's own 5 s that was common for
/// clients that pause for seconds between requests (they keep idle connections for up to 90 s: Go's
/// `IdleConnTimeout`). Behind a proxy, keep this longer than the proxy's idle timeout towards its upstream.
pub const DEFAULT_KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(75);

/// The pool size when none is given: two connections per core, at least 4. More requests at the database at once
/// than the cores can serve only make each wait longer: on two cores, 16 connections served no more requests a
/// second than 4 and made the slowest hundredth wait fifty times as long (docs/benchmarks.md).
pub fn default_pool_size() -> u32 {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    (2 * cores).clamp(4, 64) as u32
}
