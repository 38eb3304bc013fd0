//! Builds and runs the HTTP server over a store on a PostgreSQL pool.

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{web, HttpServer};
use anyhow::Context;
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::Store;
use canvass_http::AppState;
use canvass_postgres::PgStore;
use secrecy::{ExposeSecret, SecretString};

use crate::jobs::workers::{spawn_workers, WorkerSetup, Workers};
use crate::settings::Settings;

/// A bound, not yet awaited, server.
pub struct Application {
    port: u16,
    server: Server,
    /// The delivery and webhook workers, stopped when the server stops.
    workers: Option<Workers>,
}

impl Application {
    /// Connects the pool and binds the listener (port 0 picks a free port).
    pub fn build(settings: &Settings) -> anyhow::Result<Self> {
        let store = PgStore::pooled(&settings.database_url, settings.pool_size, settings.statement_timeout)
            .context("cannot connect to the database")?;
        let store: Arc<dyn Store> = Arc::new(store);
        let listener =
            TcpListener::bind(&settings.bind).with_context(|| format!("cannot listen on {}", settings.bind))?;
        let address = listener.local_addr()?;
        let port = address.port();
        let public_url = settings.public_url.clone().unwrap_or_else(|| format!("http://{address}"));
        let public_url = public_url.trim_end_matches('/').to_owned();
        let mut state = AppState::new(store.clone(), Arc::new(SystemClock), &public_url)
            .with_protection(settings.protection.clone())
            .with_store_connections(settings.pool_size as usize);
        let configured = |secret: &Option<SecretString>| {
            secret.as_ref().map(|s| s.expose_secret().to_owned()).filter(|s| !s.is_empty())
        };
        state.sms_inbound_secret = configured(&settings.sms_inbound_secret);
        state.inbound_secret = configured(&settings.inbound_secret);
        state.webhook_allow_private = settings.webhook_allow_private;
        state.metrics_token = configured(&settings.metrics_token);
        if let Some(key) = &settings.cookie_key {
            state.cookie_key = key.0.clone();
        }
        if let Some(url) = &settings.limits_url {
            state = state.with_shared_limits(Arc::new(canvass_limits::SharedLimits::open(url)?));
        }
        let metrics = state.metrics.clone();
        let state = web::Data::new(state);
        // TCP_NODELAY: a streamed list leaves in several writes, and with Nagle's algorithm on (actix's default
        // leaves the system's) its last piece waited for the client's delayed ACK, 40 ms per short list.
        // Keep-alive: an idle connection stays open KEEP_ALIVE (75 s by default) for the client's next request.
        // Each connection keeps a second descriptor of its socket, so that a streamed body can close a connection
        // whose client stopped reading, and see that its client left (canvass_http::streamed::Peer).
        let mut server = HttpServer::new(move || canvass_http::app(state.clone()))
            .tcp_nodelay(true)
            .keep_alive(settings.keep_alive)
            .on_connect(canvass_http::streamed::keep_socket);
        if let Some(workers) = settings.workers {
            server = server.workers(workers);
        }
        let server = server.listen(listener)?.run();
        let workers = match &settings.delivery {
            Some(delivery) => {
                let setup = WorkerSetup::connect(
                    &settings.database_url,
                    settings.statement_timeout,
                    delivery.clone(),
                    public_url,
                    settings.webhook_allow_private,
                )?;
                Some(spawn_workers(setup, Some(metrics.clone()))?)
            }
            None => None,
        };
        if !settings.retention_interval.is_zero() {
            let audit_days = settings.audit_retention_days;
            crate::jobs::retention::spawn_timer(store, settings.retention_interval, audit_days, metrics);
        }
        Ok(Self { port, server, workers })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server as SIGTERM does.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until the server is stopped (SIGINT, SIGTERM or [`Self::handle`]), then stops the delivery and
    /// webhook workers and waits until they have recorded the rounds they were sending.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let served = self.server.await;
        if let Some(workers) = self.workers {
            actix_web::rt::task::spawn_blocking(move || workers.stop()).await.map_err(std::io::Error::other)?;
        }
        served
    }
}
