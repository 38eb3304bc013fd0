//! Builds and runs the HTTP server over a store on a PostgreSQL pool.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{web, HttpServer};
use anyhow::Context;
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::Store;
use canvass_http::AppState;
use canvass_postgres::{connect_pool_with_timeout, PgStore};
use secrecy::{ExposeSecret, SecretString};

use crate::settings::Settings;

/// A bound, not yet awaited, server.
pub struct Application {
    port: u16,
    server: Server,
    /// The delivery worker, stopped when the server stops.
    worker: Option<crate::delivery::Worker>,
    /// The webhook worker, stopped when the server stops.
    webhook_worker: Option<crate::delivery::Worker>,
}

impl Application {
    /// Connects the pool and binds the listener (port 0 picks a free port).
    pub fn build(settings: &Settings) -> anyhow::Result<Self> {
        let pool = connect_pool_with_timeout(&settings.database_url, settings.pool_size, settings.statement_timeout)
            .context("cannot connect to the database")?;
        let store: Arc<dyn Store> = Arc::new(PgStore::new(pool));
        let listener =
            TcpListener::bind(&settings.bind).with_context(|| format!("cannot listen on {}", settings.bind))?;
        let address = listener.local_addr()?;
        let port = address.port();
        let public_url = settings.public_url.clone().unwrap_or_else(|| format!("http://{address}"));
        let public_url = public_url.trim_end_matches('/').to_owned();
        let mut state = AppState::new(store.clone(), Arc::new(SystemClock), &public_url)
            .with_protection(settings.protection)
            .with_store_connections(settings.pool_size as usize);
        let configured = |secret: &Option<SecretString>| {
            secret.as_ref().map(|s| s.expose_secret().to_owned()).filter(|s| !s.is_empty())
        };
        state.sms_inbound_secret = configured(&settings.sms_inbound_secret);
        state.inbound_secret = configured(&settings.inbound_secret);
        state.webhook_allow_private = settings.webhook_allow_private;
        state.metrics_token = configured(&settings.metrics_token);
        let metrics = state.metrics.clone();
        let state = web::Data::new(state);
        // TCP_NODELAY: a streamed list leaves in several writes, and with Nagle's algorithm on (actix's default
        // leaves the system's) its last piece waited for the client's delayed ACK, 40 ms per short list.
        let mut server = HttpServer::new(move || canvass_http::app(state.clone())).tcp_nodelay(true);
        if let Some(workers) = settings.workers {
            server = server.workers(workers);
        }
        let server = server.listen(listener)?.run();
        let (mut worker, mut webhook_worker) = (None, None);
        if let Some(delivery) = &settings.delivery {
            let channels = crate::delivery::channels(delivery)?;
            // The worker's own pool: a round never waits for, or holds, a connection that requests need.
            let worker_pool = connect_pool_with_timeout(
                &settings.database_url,
                crate::delivery::POOL_SIZE,
                settings.statement_timeout,
            )
            .context("cannot connect to the database")?;
            // The webhook worker's own connection: a round uses one at a time, and none while it is on the network.
            let webhook_pool = connect_pool_with_timeout(&settings.database_url, 1, settings.statement_timeout)
                .context("cannot connect to the database")?;
            webhook_worker = Some(crate::webhooks::spawn(
                PgStore::new(webhook_pool),
                settings.webhook_allow_private,
                delivery.poll,
            )?);
            worker = Some(crate::delivery::spawn(crate::delivery::WorkerParts {
                store: PgStore::new(worker_pool),
                channels,
                public_url: public_url.clone(),
                settings: delivery.clone(),
                metrics: Some(metrics.clone()),
            })?);
        }
        if !settings.retention_interval.is_zero() {
            crate::retention::spawn_timer(store, settings.retention_interval, metrics);
        }
        Ok(Self { port, server, worker, webhook_worker })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server as SIGTERM does.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until the server is stopped (SIGINT, SIGTERM or [`Self::handle`]), then stops the delivery worker
    /// and waits until it has recorded the round it was sending.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let served = self.server.await;
        if let Some(worker) = self.worker {
            actix_web::rt::task::spawn_blocking(move || worker.stop()).await.map_err(std::io::Error::other)?;
        }
        if let Some(worker) = self.webhook_worker {
            actix_web::rt::task::spawn_blocking(move || worker.stop()).await.map_err(std::io::Error::other)?;
        }
        served
    }
}
