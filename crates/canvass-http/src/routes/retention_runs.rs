//! `/data-retention/runs`: every retention run that ran, newest first, with what it removed in the caller's
//! account.

use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::use_cases::retention;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::blocking;
use crate::dto::governance::RetentionRunResponse;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// How many runs to read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RunsQuery {
    /// The newest this many runs, 1 to 1000 (100 unless given).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

/// The retention runs (the server's timer and `canvass retention run` alike), newest first, each with the figures
/// of the caller's account: zeros where the run removed nothing there.
#[utoipa::path(tag = "Data retention", params(RunsQuery),
    responses((status = 200, body = Vec<RetentionRunResponse>), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/data-retention/runs")]
pub async fn runs(
    state: web::Data<AppState>,
    caller: Authenticated,
    query: QueryOf<RunsQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, limit) = (caller.account(), query.0.limit.unwrap_or(100));
    let runs = blocking::run(&state, move |uow, _| retention::runs(uow, account, limit)).await?;
    Ok(HttpResponse::Ok().json(runs.into_iter().map(RetentionRunResponse::from).collect::<Vec<_>>()))
}
