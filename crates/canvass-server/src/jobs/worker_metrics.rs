//! `GET /metrics` of `canvass worker` alone, on `METRICS_BIND`: the worker's own registry (its delivery outcomes,
//! the relay's state, the shared pace) and the outbox backlog read through a one-connection pool of its own, in
//! the same text format and behind the same `METRICS_TOKEN` as the server's.

use std::sync::Arc;

use actix_web::http::header::AUTHORIZATION;
use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::monitoring;
use canvass_metrics::{scrape_authorized, Metrics, Scrape, TEXT_FORMAT};
use canvass_postgres::PgStore;
use secrecy::{ExposeSecret, SecretString};

/// What the endpoint reads.
struct Source {
    metrics: Arc<Metrics>,
    store: PgStore,
    token: Option<SecretString>,
}

async fn scrape(req: HttpRequest, source: web::Data<Source>) -> HttpResponse {
    let authorization = req.headers().get(AUTHORIZATION).and_then(|value| value.to_str().ok());
    if !scrape_authorized(authorization, source.token.as_ref().map(|token| token.expose_secret())) {
        return HttpResponse::Unauthorized()
            .insert_header(("WWW-Authenticate", "Bearer"))
            .body("send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>\n");
    }
    let reader = source.clone();
    let backlog = web::block(move || {
        reader
            .store
            .with_uow(|uow| monitoring::outbox_backlog(uow, &SystemClock))
            .map_err(|error| canvass_domain::Chain(&error).to_string())
    })
    .await;
    let backlog = match backlog {
        Ok(Ok(backlog)) => Some(backlog),
        _ => {
            tracing::warn!("worker metrics served without the outbox backlog");
            None
        }
    };
    match source.metrics.render(Scrape { backlog, connections: None }) {
        Ok(text) => HttpResponse::Ok().content_type(TEXT_FORMAT).body(text),
        Err(error) => {
            tracing::error!(error.message = %error, "cannot render the metrics");
            HttpResponse::InternalServerError().finish()
        }
    }
}

/// Serves `GET /metrics` on `bind` until the returned server is stopped.
pub fn serve(
    bind: &str,
    metrics: Arc<Metrics>,
    store: PgStore,
    token: Option<SecretString>,
) -> std::io::Result<actix_web::dev::Server> {
    let source = web::Data::new(Source { metrics, store, token });
    let server = HttpServer::new(move || App::new().app_data(source.clone()).route("/metrics", web::get().to(scrape)))
        .workers(1)
        .bind(bind)?
        .run();
    tracing::info!(metrics.bind = bind, "worker metrics served at /metrics");
    Ok(server)
}
