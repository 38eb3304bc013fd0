//! `/health/live` and `/health/ready`: for load balancers and orchestrators; no key needed.

use actix_web::{get, web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use crate::blocking;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// A health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(tag = "Health", security(()), responses((status = 200, body = Health)))]
#[get("/health/live")]
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// The database is reachable and every migration is applied.
#[utoipa::path(tag = "Health", security(()), responses((status = 200, body = Health), (status = 503, body = Problem)))]
#[get("/health/ready")]
pub async fn ready(state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let store = state.store.clone();
    let readiness = blocking::in_span(move || store.readiness().map_err(Problem::from)).await?;
    match readiness.pending_migrations {
        0 => Ok(HttpResponse::Ok().json(Health { status: "ok" })),
        count => Err(Problem::new(
            ProblemKind::Unavailable,
            format!("{count} migrations are not applied; run `canvass migrate`"),
        )),
    }
}
