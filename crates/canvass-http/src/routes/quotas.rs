//! `/surveys/{surveyId}/quotas`: a survey's quotas with their live counts.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{QuotaId, SurveyId};
use canvass_domain::survey::{QuotaInput, QuotaPatch};
use canvass_domain::use_cases::quotas;

use crate::blocking;
use crate::dto::quota::{QuotaBody, QuotaPatchBody, QuotaResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Adds a quota, counting from zero: each answer set that completes and meets its conditions counts, up to its
/// limit. A broken field is a 400 naming its path (`when.all[1].operator`).
#[utoipa::path(tag = "Quotas", request_body = QuotaBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 201, body = QuotaResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("quota.create"))))]
#[post("/surveys/{surveyId}/quotas")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<QuotaBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let input = QuotaInput::try_from(body.0)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| quotas::create(uow, clock, account, survey, input),
        |quota| HttpResponse::Created().json(QuotaResponse::from(quota)),
    )
    .await
}

/// The survey's quotas with their live counts, in creation order.
#[utoipa::path(tag = "Quotas",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = Vec<QuotaResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}/quotas")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| quotas::list(uow, account, survey)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(QuotaResponse::from).collect::<Vec<_>>()))
}

/// One quota of the survey with its live count.
#[utoipa::path(tag = "Quotas",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("quotaId" = i64, Path, description = "A quota of that survey")),
    responses((status = 200, body = QuotaResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}/quotas/{quotaId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuotaId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let quota = blocking::run(&state, move |uow, _| quotas::get(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(QuotaResponse::from(quota)))
}

/// Changes a quota's name, conditions, limit or action; its count stays.
#[utoipa::path(tag = "Quotas", request_body = QuotaPatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("quotaId" = i64, Path, description = "A quota of that survey")),
    responses((status = 200, body = QuotaResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("quota.change"))))]
#[patch("/surveys/{surveyId}/quotas/{quotaId}")]
pub async fn change(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuotaId)>,
    body: Body<QuotaPatchBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let patch = QuotaPatch::try_from(body.0)?;
    let quota = blocking::run(&state, move |uow, _| quotas::patch(uow, account, survey, id, patch)).await?;
    Ok(HttpResponse::Ok().json(QuotaResponse::from(quota)))
}

/// Deletes a quota; the sets it counted stay as they are.
#[utoipa::path(tag = "Quotas",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("quotaId" = i64, Path, description = "A quota of that survey")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("quota.delete"))))]
#[delete("/surveys/{surveyId}/quotas/{quotaId}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuotaId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| quotas::delete(uow, account, survey, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
