//! `GET /metrics`: the Prometheus text format, for the operator's scraper. No API key; when `METRICS_TOKEN` is set
//! it takes `Authorization: Bearer <METRICS_TOKEN>`, else 401. The outbox backlog is read at most every few
//! seconds, off the store's lane (`metrics/backlog.rs`).

pub mod backlog;

use actix_web::http::header::AUTHORIZATION;
use actix_web::{get, web, HttpRequest, HttpResponse};
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::monitoring;
use canvass_metrics::{scrape_authorized, Scrape, TEXT_FORMAT};

use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// The service's metrics in the Prometheus text format: request counts and durations by route template, the
/// outbox backlog of every account, delivery outcomes, webhook delivery attempts, retention runs and the database
/// pool. The backlog is as read at most five seconds before; when the database cannot be asked for it, the outbox
/// gauges are left out and the rest is served.
#[utoipa::path(tag = "Metrics", security(()), responses(
    (status = 200, description = "Every metric family (see docs/operations.md)", body = String,
        content_type = "text/plain; version=0.0.4; charset=utf-8"),
    (status = 401, description = "METRICS_TOKEN is set and the request does not carry it as a bearer token",
        body = Problem, headers(("WWW-Authenticate" = String, description = "`Bearer`"))),
))]
#[get("/metrics")]
pub async fn metrics(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let authorization = req.headers().get(AUTHORIZATION).and_then(|value| value.to_str().ok());
    if !scrape_authorized(authorization, state.metrics_token.as_deref()) {
        return Err(Problem::new(
            ProblemKind::Unauthorized,
            "send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>",
        ));
    }
    // Read before the blocking hop, so the scrape's own connection is not counted in use.
    let connections = state.store.connections();
    let (store, clock) = (state.store.clone(), state.clock.clone());
    let backlog = state
        .backlog
        .get(move || store.with_uow(|uow| monitoring::outbox_backlog(uow, clock.as_ref())).map_err(Problem::from))
        .await;
    state.metrics.set_limits_backend_up(state.limits.backend_up().unwrap_or(true));
    let text = state.metrics.render(Scrape { backlog, connections }).map_err(|error| Problem::internal(&error))?;
    Ok(HttpResponse::Ok().content_type(TEXT_FORMAT).body(text))
}
