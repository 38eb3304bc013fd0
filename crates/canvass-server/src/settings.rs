//! What the server needs to start, read from the command line and the environment; nothing reads global state.

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
    /// The shared secret of `/sms/inbound`; none turns the endpoint off.
    pub sms_inbound_secret: Option<secrecy::SecretString>,
    /// The shared secret of `/inbound/dsn`; none turns the endpoint off.
    pub inbound_secret: Option<secrecy::SecretString>,
    /// The delivery worker's settings; `None` runs no worker in this process.
    pub delivery: Option<crate::delivery::DeliverySettings>,
    /// The longest one SQL statement may run (`STATEMENT_TIMEOUT`); a request whose statement is cancelled
    /// answers 503.
    pub statement_timeout: std::time::Duration,
    /// Rate limits, failed-guess windows and the body read timeout.
    pub protection: canvass_http::Protection,
}
