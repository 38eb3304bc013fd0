//! The background workers, delivery and webhooks, wired here once for both `canvass serve` and `canvass worker`.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use canvass_postgres::{OutboxListener, PgStore};

use super::delivery::{Channels, DeliverySettings, Worker, WorkerParts};

/// What the workers start with: their transports and database connections of their own. Nothing is sent yet.
pub(crate) struct WorkerSetup {
    channels: Channels,
    delivery_store: PgStore,
    listener: OutboxListener,
    webhook_store: PgStore,
    settings: DeliverySettings,
    public_url: String,
    webhook_allow_private: bool,
}

impl WorkerSetup {
    /// Makes the transports `settings` name and connects the workers' pools; `public_url` is the base of survey
    /// links, without a trailing `/`.
    pub(crate) fn connect(
        database_url: &str,
        statement_timeout: Duration,
        settings: DeliverySettings,
        public_url: String,
        webhook_allow_private: bool,
    ) -> anyhow::Result<Self> {
        let channels = super::delivery::channels(&settings)?;
        // The delivery worker's own pool: a round never waits for, or holds, a connection that requests need.
        let delivery_store = PgStore::pooled(database_url, super::delivery::POOL_SIZE, statement_timeout)
            .context("cannot connect to the database")?;
        // The webhook worker's own connection: a round uses one at a time, and none while it is on the network.
        let webhook_store =
            PgStore::pooled(database_url, 1, statement_timeout).context("cannot connect to the database")?;
        let listener = OutboxListener::new(database_url);
        Ok(Self { channels, delivery_store, listener, webhook_store, settings, public_url, webhook_allow_private })
    }
}

/// The delivery and webhook workers, each on a thread of its own.
pub(crate) struct Workers {
    delivery: Worker,
    webhooks: Worker,
}

impl Workers {
    /// Stops the delivery worker, then the webhook worker, each after the round it has in flight is recorded.
    pub(crate) fn stop(self) {
        self.delivery.stop();
        self.webhooks.stop();
    }
}

/// Starts the webhook worker and the delivery worker; both count their rounds in `metrics` if given.
pub(crate) fn spawn_workers(
    setup: WorkerSetup,
    metrics: Option<Arc<canvass_metrics::Metrics>>,
) -> anyhow::Result<Workers> {
    let webhooks =
        super::webhooks::spawn(setup.webhook_store, setup.webhook_allow_private, setup.settings.poll, metrics.clone())?;
    let delivery = super::delivery::spawn(WorkerParts {
        store: setup.delivery_store,
        listener: setup.listener,
        channels: setup.channels,
        public_url: setup.public_url,
        settings: setup.settings,
        metrics,
    })?;
    Ok(Workers { delivery, webhooks })
}
