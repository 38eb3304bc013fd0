//! `/health/live` and `/health/ready`: for load balancers and orchestrators; no key needed.

use actix_web::{get, web, HttpResponse};
use canvass_domain::RepoError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::problem::Problem;
use crate::state::AppState;

/// A health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(tag = "Health", responses((status = 200, body = Health)))]
#[get("/health/live")]
pub async fn live() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// The database is reachable and every migration is applied.
#[utoipa::path(tag = "Health", responses((status = 200, body = Health), (status = 503, body = Problem)))]
#[get("/health/ready")]
pub async fn ready(state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    let pool = state.pool.clone();
    let pending = web::block(move || {
        let mut conn = pool.get().map_err(|e| RepoError::Unavailable(e.to_string()))?;
        canvass_postgres::pending_migrations(&mut conn).map_err(|e| {
            conn.discard();
            RepoError::Unavailable(e.to_string())
        })
    })
    .await
    .map_err(|error| Problem::internal(&error))?;
    match pending {
        Ok(0) => Ok(HttpResponse::Ok().json(Health { status: "ok" })),
        Ok(count) => Err(Problem::new(
            actix_web::http::StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            format!("{count} migrations are not applied; run `canvass migrate`"),
        )),
        Err(error) => {
            tracing::warn!(error.message = %error, "readiness check failed");
            Err(Problem::unavailable())
        }
    }
}
