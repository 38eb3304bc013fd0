//! `canvass worker`: the delivery and webhook workers without the API, serving only their metrics if asked, until
//! SIGTERM or SIGINT.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use canvass_metrics::Metrics;
use secrecy::SecretString;

use super::args::WorkerCommandArgs;
use crate::jobs::workers::{spawn_workers, WorkerSetup};

/// The base of survey links when `--public-url` is not given: where `canvass serve` listens by default.
const DEFAULT_PUBLIC_URL: &str = "http://127.0.0.1:8080";

/// Runs the workers until SIGTERM or SIGINT, then lets the rounds in flight finish.
pub(super) fn worker(database_url: &str, statement_timeout: Duration, args: WorkerCommandArgs) -> anyhow::Result<()> {
    super::admin::require_migrated(database_url)?;
    let WorkerCommandArgs { delivery: args, metrics_bind } = args;
    let public_url = args.public_url.clone().unwrap_or_else(|| DEFAULT_PUBLIC_URL.into());
    let public_url = public_url.trim_end_matches('/').to_owned();
    let setup = WorkerSetup::connect(
        database_url,
        statement_timeout,
        args.delivery_settings(),
        public_url,
        args.webhook_allow_private,
    )?;
    actix_web::rt::System::new().block_on(async {
        // Alone, the worker serves /metrics on METRICS_BIND when it is set, with a connection of its own; the
        // address is bound before anything is sent, so a taken one stops the start.
        let (metrics, served) = match &metrics_bind {
            Some(bind) => {
                let metrics = Arc::new(Metrics::new());
                let token = args.metrics_token.clone();
                let server = serve_metrics(database_url, statement_timeout, bind, Arc::clone(&metrics), token)?;
                (Some(metrics), Some(server))
            }
            None => (None, None),
        };
        let handle = served.as_ref().map(actix_web::dev::Server::handle);
        if let Some(server) = served {
            actix_web::rt::spawn(server);
        }
        let workers = spawn_workers(setup, metrics)?;
        tracing::info!("delivery worker started");
        let waited = stop_signal().await.context("cannot wait for SIGTERM or SIGINT");
        if let Some(handle) = handle {
            handle.stop(true).await;
        }
        tracing::info!("stopping: the round in flight is finished first");
        workers.stop();
        waited
    })
}

/// Binds the worker's own GET /metrics on `bind`, over a connection of its own, behind `--metrics-token` if set.
fn serve_metrics(
    database_url: &str,
    statement_timeout: Duration,
    bind: &str,
    metrics: Arc<Metrics>,
    token: Option<SecretString>,
) -> anyhow::Result<actix_web::dev::Server> {
    let store = canvass_postgres::PgStore::pooled(database_url, 1, statement_timeout)
        .context("cannot connect to the database")?;
    crate::jobs::worker_metrics::serve(bind, metrics, store, token)
        .with_context(|| format!("cannot serve the worker's metrics on METRICS_BIND {bind}"))
}

/// Waits for SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        let (mut terminate, mut interrupt) = (signal(SignalKind::terminate())?, signal(SignalKind::interrupt())?);
        std::future::poll_fn(|cx| match (terminate.poll_recv(cx), interrupt.poll_recv(cx)) {
            (std::task::Poll::Pending, std::task::Poll::Pending) => std::task::Poll::Pending,
            _ => std::task::Poll::Ready(()),
        })
        .await;
        Ok(())
    }
    #[cfg(not(unix))]
    {
        actix_web::rt::signal::ctrl_c().await
    }
}
