//! The settings the parsed options make: the one place where a flag becomes a field of [`Settings`].

use std::time::Duration;

use crate::cli::{ServeArgs, WorkerArgs};
use crate::jobs::delivery::DeliverySettings;
use crate::Settings;

impl WorkerArgs {
    /// How the delivery worker sends, as these options say (`serve` and `worker`).
    pub(crate) fn delivery_settings(&self) -> DeliverySettings {
        DeliverySettings {
            smtp_url: self.smtp_url.clone(),
            smtp_ca_file: self.smtp_ca_file.clone(),
            bounce_address: self.bounce_address.clone(),
            alert_sender: self.alert_sender.clone(),
            concurrency: usize::from(self.delivery_concurrency),
            sms_url: self.sms_url.clone(),
            outbox_dir: self.outbox_dir.clone(),
            poll: Duration::from_secs(1),
            lease: Duration::from_secs(self.lease_seconds.max(1)),
            rate: self.delivery_rate,
            daily_limit: self.delivery_daily_limit,
            max_age: self.delivery_max_age,
            max_backoff: self.delivery_max_backoff,
        }
    }
}

impl ServeArgs {
    /// The server's settings: these options, with the database and statement timeout every command shares.
    pub(crate) fn into_settings(self, database_url: String, statement_timeout: Duration) -> Settings {
        Settings {
            database_url,
            bind: self.bind,
            pool_size: self.pool_size.unwrap_or_else(super::default_pool_size),
            workers: self.workers,
            public_url: self.delivery.public_url.clone(),
            retention_interval: self.retention_interval,
            audit_retention_days: self.audit_retention_days,
            sms_inbound_secret: self.sms_inbound_secret,
            inbound_secret: self.inbound_secret,
            webhook_allow_private: self.delivery.webhook_allow_private,
            delivery: Some(self.delivery.delivery_settings()),
            statement_timeout,
            protection: canvass_http::Protection {
                rate_limit_per_key: self.rate_limit_per_key,
                body_read_timeout: self.body_read_timeout,
                trusted_proxies: if self.trust_forwarded_for {
                    self.trusted_proxies.and(&canvass_http::TrustedProxies::loopback())
                } else {
                    self.trusted_proxies
                },
                open_link_starts: canvass_http::FailureWindow {
                    allowed: self.open_link_starts_per_minute,
                    window: Duration::from_secs(60),
                },
                ..canvass_http::Protection::default()
            },
            limits_url: None,
            cookie_key: self.cookie_key,
            metrics_token: self.delivery.metrics_token,
            keep_alive: self.keep_alive,
        }
    }
}
