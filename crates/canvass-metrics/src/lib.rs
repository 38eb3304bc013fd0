//! Prometheus metrics: one [`Metrics`] registry per application (not a process-wide recorder, so servers started
//! side by side in one process count apart), shared through `Arc` by the HTTP server's request middleware, the
//! delivery and webhook workers and the retention timer, and rendered in the text format by the server's and the worker's
//! `GET /metrics`. A crate of its own so that no worker depends on the HTTP adapter.
//!
//! Label values come only from fixed sets: route templates (never raw paths), known methods, status codes,
//! channels and outcomes, so the number of series stays bounded whatever clients send.

use std::time::Duration;

use canvass_domain::account::same_secret;
use canvass_domain::ports::Connections;
use canvass_domain::use_cases::delivery::{ChannelCounts, DeliveryReport};
use canvass_domain::use_cases::monitoring::Backlog;
use canvass_domain::use_cases::webhooks::WebhookReport;
use prometheus::core::Collector;
use prometheus::{
    Gauge, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

/// The media type of the Prometheus text format.
pub const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Whether a scrape may read the metrics: always when no token is configured, else only with an `Authorization`
/// header of `Bearer <token>` (the scheme in any case), compared in constant time.
pub fn scrape_authorized(authorization: Option<&str>, token: Option<&str>) -> bool {
    let Some(token) = token else { return true };
    let presented = authorization
        .and_then(|value| value.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, presented)| presented.trim());
    presented.is_some_and(|presented| same_secret(token, presented))
}

/// The outcomes the delivery counter knows, in the order of [`ChannelCounts`]' fields.
pub const DELIVERY_OUTCOMES: [&str; 5] = ["sent", "bounced", "retried", "failed", "cancelled"];
/// The channels the delivery counter knows.
pub const CHANNELS: [&str; 2] = ["email", "sms"];
/// The outcomes of webhook delivery attempts, named as the message counter's: `delivered` (a 2xx), `retried` (a
/// failed attempt, tried again later) and `failed` (a failed last attempt: the delivery is given up).
pub const WEBHOOK_OUTCOMES: [&str; 3] = ["delivered", "retried", "failed"];

/// Every metric the service exports, in a registry of its own.
pub struct Metrics {
    registry: Registry,
    http_requests: IntCounterVec,
    http_duration: HistogramVec,
    outbox_pending: IntGauge,
    outbox_oldest_due_age: Gauge,
    outbox_held: IntGauge,
    relay_up: IntGauge,
    limits_backend_up: IntGauge,
    delivery_pace: Gauge,
    delivery_messages: IntCounterVec,
    webhook_deliveries: IntCounterVec,
    retention_removed: IntCounter,
    retention_runs: IntCounterVec,
    pool_connections: IntGaugeVec,
    streamed_chunks: IntCounter,
    streamed_closed: IntCounter,
    export_temp_bytes: IntGauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// What a scrape reads besides the counters: the outbox backlog (`None` when the database could not be asked)
/// and the pool's connections (`None` for a store without a pool).
#[derive(Debug, Clone, Copy, Default)]
pub struct Scrape {
    /// The backlog of every account.
    pub backlog: Option<Backlog>,
    /// The request pool's connections.
    pub connections: Option<Connections>,
}

impl Metrics {
    /// A fresh registry with every family registered, and the series of the fixed label sets (channels and
    /// outcomes, run outcomes, connection states) present at zero, so that `rate()` and alerts see them from the
    /// first scrape.
    // The names, label names and buckets are constants that `every_family_is_exported` checks: building them
    // cannot fail.
    #[expect(clippy::expect_used)]
    pub fn new() -> Self {
        let registry = Registry::new();
        let opts = |name: &str, help: &str| Opts::new(name, help);
        let metrics = Self {
            http_requests: IntCounterVec::new(
                opts("canvass_http_requests_total", "HTTP requests answered, by method, route template and status."),
                &["method", "route", "status"],
            )
            .expect("a valid counter"),
            http_duration: HistogramVec::new(
                HistogramOpts::new(
                    "canvass_http_request_duration_seconds",
                    "Time from a request's arrival until its answer's head is ready, by route template.",
                ),
                &["route"],
            )
            .expect("a valid histogram"),
            outbox_pending: IntGauge::with_opts(opts(
                "canvass_outbox_pending",
                "Messages of every account waiting to be sent (those of active sendouts), read at scrape time.",
            ))
            .expect("a valid gauge"),
            outbox_oldest_due_age: Gauge::with_opts(opts(
                "canvass_outbox_oldest_due_age_seconds",
                "How long the longest-waiting due message has been due; 0 when none is due.",
            ))
            .expect("a valid gauge"),
            outbox_held: IntGauge::with_opts(opts(
                "canvass_outbox_held",
                "Waiting messages held by relay or sender trouble (no attempt counted), read at scrape time.",
            ))
            .expect("a valid gauge"),
            relay_up: IntGauge::with_opts(opts(
                "canvass_relay_up",
                "1 when the delivery worker's last try to open a session with the mail relay succeeded (or none \
                 was tried yet), else 0.",
            ))
            .expect("a valid gauge"),
            limits_backend_up: IntGauge::with_opts(opts(
                "canvass_limits_backend_up",
                "1 when the shared limits (LIMITS_URL, Redis) answered this process's last request to them, or are \
                 not configured; 0 while they are unreachable (keys counted per process, unknown links answered 503).",
            ))
            .expect("a valid gauge"),
            delivery_pace: Gauge::with_opts(opts(
                "canvass_delivery_pace_per_second",
                "The messages a second the shared pace allows now (DELIVERY_RATE under a throttle's ceiling); \
                 +Inf (written inf, which Prometheus reads) when nothing limits it.",
            ))
            .expect("a valid gauge"),
            delivery_messages: IntCounterVec::new(
                opts(
                    "canvass_delivery_messages_total",
                    "Messages the delivery worker settled, by channel and outcome.",
                ),
                &["channel", "outcome"],
            )
            .expect("a valid counter"),
            webhook_deliveries: IntCounterVec::new(
                opts(
                    "canvass_webhook_deliveries_total",
                    "Webhook delivery attempts the webhook worker recorded, by outcome (delivered, retried, failed: \
                     the last attempt failed and the delivery is given up).",
                ),
                &["outcome"],
            )
            .expect("a valid counter"),
            retention_removed: IntCounter::with_opts(opts(
                "canvass_retention_respondents_removed_total",
                "Respondents the server's retention runs removed.",
            ))
            .expect("a valid counter"),
            retention_runs: IntCounterVec::new(
                opts("canvass_retention_runs_total", "The server's retention runs, by outcome (ok or failed)."),
                &["outcome"],
            )
            .expect("a valid counter"),
            pool_connections: IntGaugeVec::new(
                opts("canvass_db_pool_connections", "The request pool's database connections, idle or in use."),
                &["state"],
            )
            .expect("a valid gauge"),
            streamed_chunks: IntCounter::with_opts(opts(
                "canvass_streamed_chunks_total",
                "Chunks the streamed lists and exports read after their first, as their readers read on.",
            ))
            .expect("a valid counter"),
            streamed_closed: IntCounter::with_opts(opts(
                "canvass_streamed_idle_closed_total",
                "Streamed bodies closed because their reader read nothing for the stream idle timeout (60 s by default).",
            ))
            .expect("a valid counter"),
            export_temp_bytes: IntGauge::with_opts(opts(
                "canvass_export_temp_bytes",
                "Bytes the XLSX exports under way hold in temporary files (as counted against their caps).",
            ))
            .expect("a valid gauge"),
            registry,
        };
        let collectors: [Box<dyn Collector>; 16] = [
            Box::new(metrics.http_requests.clone()),
            Box::new(metrics.http_duration.clone()),
            Box::new(metrics.outbox_pending.clone()),
            Box::new(metrics.outbox_oldest_due_age.clone()),
            Box::new(metrics.outbox_held.clone()),
            Box::new(metrics.relay_up.clone()),
            Box::new(metrics.limits_backend_up.clone()),
            Box::new(metrics.delivery_pace.clone()),
            Box::new(metrics.delivery_messages.clone()),
            Box::new(metrics.webhook_deliveries.clone()),
            Box::new(metrics.retention_removed.clone()),
            Box::new(metrics.retention_runs.clone()),
            Box::new(metrics.pool_connections.clone()),
            Box::new(metrics.streamed_chunks.clone()),
            Box::new(metrics.streamed_closed.clone()),
            Box::new(metrics.export_temp_bytes.clone()),
        ];
        for collector in collectors {
            metrics.registry.register(collector).expect("distinct names");
        }
        for channel in CHANNELS {
            for outcome in DELIVERY_OUTCOMES {
                metrics.delivery_messages.with_label_values(&[channel, outcome]).reset();
            }
        }
        for outcome in WEBHOOK_OUTCOMES {
            metrics.webhook_deliveries.with_label_values(&[outcome]).reset();
        }
        for outcome in ["ok", "failed"] {
            metrics.retention_runs.with_label_values(&[outcome]).reset();
        }
        for state in ["idle", "in_use"] {
            metrics.pool_connections.with_label_values(&[state]).set(0);
        }
        metrics.relay_up.set(1);
        metrics.limits_backend_up.set(1);
        metrics.delivery_pace.set(f64::INFINITY);
        metrics
    }

    /// Sets whether the shared limits answered the last request to them (true without `LIMITS_URL`).
    pub fn set_limits_backend_up(&self, up: bool) {
        self.limits_backend_up.set(i64::from(up));
    }

    /// Counts one chunk a streamed body read after its first.
    pub fn count_streamed_chunk(&self) {
        self.streamed_chunks.inc();
    }

    /// Counts one streamed body closed because its reader stopped reading.
    pub fn count_idle_close(&self) {
        self.streamed_closed.inc();
    }

    /// Sets the bytes the XLSX exports under way hold in temporary files.
    pub fn set_export_temp_bytes(&self, bytes: u64) {
        self.export_temp_bytes.set(i64::try_from(bytes).unwrap_or(i64::MAX));
    }

    /// Counts one answered request. `route` is a route template or `unmatched`, `method` a standard method's name
    /// or `OTHER`: never raw client input.
    pub fn observe_request(&self, method: &str, route: &str, status: &str, elapsed: Duration) {
        if let Ok(counter) = self.http_requests.get_metric_with_label_values(&[method, route, status]) {
            counter.inc();
        }
        if let Ok(histogram) = self.http_duration.get_metric_with_label_values(&[route]) {
            histogram.observe(elapsed.as_secs_f64());
        }
    }

    /// Counts what the delivery worker's rounds settled, per channel and outcome, and sets the relay's state and
    /// the pace from the last round that saw them.
    pub fn count_delivery(&self, report: &DeliveryReport) {
        if let Some(up) = report.relay_up {
            self.relay_up.set(i64::from(up));
        }
        if let Some(pace) = report.pace_per_second {
            self.delivery_pace.set(pace);
        }
        for (channel, counts) in CHANNELS.into_iter().zip([&report.email, &report.sms]) {
            for (outcome, count) in DELIVERY_OUTCOMES.into_iter().zip(by_outcome(counts)) {
                if count > 0 {
                    if let Ok(counter) = self.delivery_messages.get_metric_with_label_values(&[channel, outcome]) {
                        counter.inc_by(count as u64);
                    }
                }
            }
        }
    }

    /// Counts late bounces as bounced email: the recipients a delivery status notification reported failed for
    /// good that were recorded (each once: a repeated report records, and so counts, nothing).
    pub fn count_late_bounces(&self, recorded: usize) {
        let email = ChannelCounts { bounced: recorded, ..ChannelCounts::default() };
        self.count_delivery(&DeliveryReport { email, ..DeliveryReport::default() });
    }

    /// Counts the attempts of a webhook round, once it is recorded, by outcome.
    pub fn count_webhook_attempts(&self, report: &WebhookReport) {
        for (outcome, count) in WEBHOOK_OUTCOMES.into_iter().zip([report.delivered, report.retried, report.failed]) {
            if count > 0 {
                if let Ok(counter) = self.webhook_deliveries.get_metric_with_label_values(&[outcome]) {
                    counter.inc_by(count as u64);
                }
            }
        }
    }

    /// Counts a retention run of the server: `Ok(removed)` when it finished for every account, `Err(removed)`
    /// when it failed, whole or for some account, after removing `removed` respondents.
    pub fn count_retention_run(&self, outcome: Result<u64, u64>) {
        let (label, removed) = match outcome {
            Ok(removed) => ("ok", removed),
            Err(removed) => ("failed", removed),
        };
        self.retention_removed.inc_by(removed);
        if let Ok(counter) = self.retention_runs.get_metric_with_label_values(&[label]) {
            counter.inc();
        }
    }

    /// The text format of every family, with the scrape-time gauges set from `scrape`. Without a backlog the
    /// outbox gauges are left out of this scrape rather than shown stale.
    pub fn render(&self, scrape: Scrape) -> Result<String, prometheus::Error> {
        if let Some(backlog) = scrape.backlog {
            self.outbox_pending.set(i64::try_from(backlog.pending).unwrap_or(i64::MAX));
            self.outbox_oldest_due_age.set(backlog.oldest_due_age.as_seconds_f64());
            self.outbox_held.set(i64::try_from(backlog.held).unwrap_or(i64::MAX));
        }
        let connections = scrape.connections.unwrap_or(Connections { idle: 0, in_use: 0 });
        for (state, count) in [("idle", connections.idle), ("in_use", connections.in_use)] {
            if let Ok(gauge) = self.pool_connections.get_metric_with_label_values(&[state]) {
                gauge.set(i64::from(count));
            }
        }
        let mut families = self.registry.gather();
        if scrape.backlog.is_none() {
            families.retain(|family| !family.name().starts_with("canvass_outbox_"));
        }
        prometheus::TextEncoder::new().encode_to_string(&families)
    }
}

/// A channel's counts in the order of [`DELIVERY_OUTCOMES`].
fn by_outcome(counts: &ChannelCounts) -> [usize; 5] {
    [counts.sent, counts.bounced, counts.retried, counts.failed, counts.cancelled]
}

#[cfg(test)]
mod tests;
