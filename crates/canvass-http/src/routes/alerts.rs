//! `/surveys/{surveyId}/alerts`: a survey's alerts, which email people when a completed answer set meets their
//! conditions.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::alert::AlertInput;
use canvass_domain::ids::{AlertId, SurveyId};
use canvass_domain::use_cases::alerts;

use crate::blocking;
use crate::dto::alert::{AlertBody, AlertResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Adds an alert: each answer set completed from now on that meets its conditions sends each recipient an email
/// naming the survey, the sendout and the set (with `includeAnswers`, its answers), through the account's
/// delivery. A broken field is a 400 naming its path (`recipients[2]`, `when.all[1].operator`).
#[utoipa::path(tag = "Alerts", request_body = AlertBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 201, body = AlertResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersWrite.name())), ("x-canvass-audit" = json!("alert.create"))))]
#[post("/surveys/{surveyId}/alerts")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<AlertBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let input = AlertInput::try_from(body.0)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| alerts::create(uow, clock, account, survey, input),
        |alert| HttpResponse::Created().json(AlertResponse::from(alert)),
    )
    .await
}

/// The survey's alerts, in creation order.
#[utoipa::path(tag = "Alerts",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = Vec<AlertResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/alerts")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| alerts::list(uow, account, survey)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(AlertResponse::from).collect::<Vec<_>>()))
}

/// One alert of the survey.
#[utoipa::path(tag = "Alerts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("alertId" = i64, Path, description = "An alert of that survey")),
    responses((status = 200, body = AlertResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/alerts/{alertId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, AlertId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let alert = blocking::run(&state, move |uow, _| alerts::get(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(AlertResponse::from(alert)))
}

/// Deletes an alert; its emails not yet sent are not sent.
#[utoipa::path(tag = "Alerts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("alertId" = i64, Path, description = "An alert of that survey")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersWrite.name())), ("x-canvass-audit" = json!("alert.delete"))))]
#[delete("/surveys/{surveyId}/alerts/{alertId}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, AlertId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| alerts::delete(uow, account, survey, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
