//! What every handler shares: the store, the clock, the key cache, the limits with their counters and the metrics.

use std::sync::Arc;

use canvass_domain::account::Caller;
use canvass_domain::clock::Clock;
use canvass_domain::ports::Store;
use canvass_domain::AccountId;
use moka::sync::Cache;

use crate::blocking::StoreLane;
use crate::export::slots::ExportSlots;
use crate::export::temp_bytes::TempBytes;
use crate::limits::Limits;
use crate::protection::Protection;
use crate::routes::metrics::backlog::BacklogCache;
use canvass_metrics::Metrics;

/// Shared application state.
#[derive(Clone)]
pub struct AppState {
    /// Where units of work come from (the PostgreSQL adapter in the server, anything implementing the port in
    /// tests).
    pub store: Arc<dyn Store>,
    /// The clock use cases read.
    pub clock: Arc<dyn Clock>,
    /// Recently checked keys: SHA-256 of the presented key to its caller (`None`: refused).
    pub keys: Cache<[u8; 32], Option<Caller>>,
    /// Base of respondents' survey links (`{public_url}/r/<token>`), without a trailing slash.
    pub public_url: String,
    /// The shared secret the SMS provider sends with replies to `/sms/inbound`; none turns the endpoint off.
    pub sms_inbound_secret: Option<String>,
    /// The shared secret the relay's bounce mailbox sends to `/inbound/dsn`; none turns the endpoint off.
    pub inbound_secret: Option<String>,
    /// Whether webhook URLs may name private, loopback and link-local addresses (`WEBHOOK_ALLOW_PRIVATE`).
    pub webhook_allow_private: bool,
    /// The origin of `public_url` (`https://host[:port]`): the only one respondent forms may be posted from.
    pub public_origin: String,
    /// The limits in force.
    pub protection: Protection,
    /// Requests counted per API key, unknown link tokens and login identifiers and open links' starts counted per
    /// client: by this process, or by every process of the service through `LIMITS_URL`.
    pub limits: Arc<Limits>,
    /// The threads that run requests' units of work, as many at once as the store has connections, fairly between
    /// accounts (`blocking/lane.rs`).
    pub store_lane: Arc<StoreLane>,
    /// The Prometheus metrics `/metrics` serves; the server's worker loops count into them too.
    pub metrics: Arc<Metrics>,
    /// The bearer token `/metrics` requires (`METRICS_TOKEN`); none serves it without one.
    pub metrics_token: Option<String>,
    /// The outbox backlog `/metrics` last read, served to the scrapes of the next few seconds.
    pub backlog: Arc<BacklogCache>,
    /// The exports under way, per account.
    pub exports: Arc<ExportSlots>,
    /// What the XLSX exports under way hold in temporary files.
    pub export_temp: Arc<TempBytes>,
    /// Encrypts and authenticates the cookie by which an open link knows a returning browser (`COOKIE_KEY`; every
    /// server of a service needs the same). A new state draws its own, good for this process alone.
    pub cookie_key: actix_web::cookie::Key,
}

impl AppState {
    /// State over a store and a clock, with an empty key cache; links are built from `public_url`.
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, public_url: &str) -> Self {
        let public_url = public_url.trim_end_matches('/').to_owned();
        let public_origin =
            url::Url::parse(&public_url).map(|url| url.origin().ascii_serialization()).unwrap_or_default();
        let protection = Protection::default();
        let metrics = Arc::new(Metrics::new());
        Self {
            store,
            clock,
            keys: key_cache(&protection),
            public_url,
            sms_inbound_secret: None,
            inbound_secret: None,
            webhook_allow_private: false,
            public_origin,
            limits: Arc::new(Limits::local(&protection)),
            backlog: Arc::new(BacklogCache::new(protection.backlog_reading_ttl)),
            exports: Arc::new(ExportSlots::new(protection.exports_per_account)),
            export_temp: export_temp(&protection, &metrics),
            protection,
            store_lane: Arc::new(StoreLane::default()),
            metrics,
            metrics_token: None,
            cookie_key: actix_web::cookie::Key::generate(),
        }
    }

    /// The same state running `connections` units of work at once (the store's pool size).
    pub fn with_store_connections(self, connections: usize) -> Self {
        Self { store_lane: Arc::new(StoreLane::new(connections)), ..self }
    }

    /// The same state counting its limits in `shared`, for every process of the service (`LIMITS_URL`).
    pub fn with_shared_limits(self, shared: Arc<canvass_limits::SharedLimits>) -> Self {
        Self { limits: Arc::new(Limits::local(&self.protection).shared(shared)), ..self }
    }

    /// The same state under other limits, with fresh counters, an empty key cache and no backlog reading.
    pub fn with_protection(self, protection: Protection) -> Self {
        Self {
            keys: key_cache(&protection),
            limits: Arc::new(Limits::local(&protection)),
            backlog: Arc::new(BacklogCache::new(protection.backlog_reading_ttl)),
            exports: Arc::new(ExportSlots::new(protection.exports_per_account)),
            export_temp: export_temp(&protection, &self.metrics),
            protection,
            ..self
        }
    }
}

/// The caps of the XLSX exports' temporary files, counted into `metrics`.
fn export_temp(protection: &Protection, metrics: &Arc<Metrics>) -> Arc<TempBytes> {
    let (per_account, total) = (protection.export_temp_bytes_per_account, protection.export_temp_bytes);
    Arc::new(TempBytes::new(per_account, total, metrics.clone()))
}

/// An empty key cache that trusts an entry for `protection.key_cache_ttl`.
impl AppState {
    /// Drops from the key cache every cached caller of `account` that `matches`: a revoked key, the keys of a user
    /// deactivated or given another role, so that this server refuses or re-reads them from the next request on.
    pub fn forget_keys(&self, account: AccountId, matches: impl Fn(&Caller) -> bool + Send + Sync + 'static) {
        let dropped = self.keys.invalidate_entries_if(move |_, cached| {
            cached.as_ref().is_some_and(|caller| caller.account_id == account && matches(caller))
        });
        if let Err(error) = dropped {
            tracing::error!(error.message = %error, "the key cache could not drop keys");
        }
    }
}

fn key_cache(protection: &Protection) -> Cache<[u8; 32], Option<Caller>> {
    Cache::builder()
        .max_capacity(100_000)
        .time_to_live(protection.key_cache_ttl)
        .support_invalidation_closures()
        .build()
}
