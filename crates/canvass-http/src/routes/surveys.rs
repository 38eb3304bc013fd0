//! `/surveys`: list, read, create and copy surveys.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::SurveyId;
use canvass_domain::use_cases::surveys;

use crate::blocking;
use crate::dto::survey::{CopyQuery, CreateSurveyBody, SurveyResponse};
use crate::extract::path::Ids;
use crate::extract::{body::Body, query::QueryOf};
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Lists the account's surveys in creation order.
#[utoipa::path(tag = "Surveys",
    responses((status = 200, body = Vec<SurveyResponse>), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys")]
pub async fn list(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let found = blocking::run(&state, move |uow, _| surveys::list(uow, account)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(SurveyResponse::from).collect::<Vec<_>>()))
}

/// Reads one survey.
#[utoipa::path(tag = "Surveys",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = SurveyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let survey = blocking::run(&state, move |uow, _| surveys::get(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(SurveyResponse::from(survey)))
}

/// Creates a survey with its pages and question items.
#[utoipa::path(tag = "Surveys", request_body = CreateSurveyBody,
    responses((status = 201, body = SurveyResponse), (status = 400, body = Problem), (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("survey.create"))))]
#[post("/surveys")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateSurveyBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let input = body.0.into_domain().map_err(Problem::invalid)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| surveys::create(uow, clock, account, input),
        |survey| HttpResponse::Created().json(SurveyResponse::from(survey)),
    )
    .await
}

/// Copies a survey: its question tree always, its logic, answer sets and sendouts as asked.
#[utoipa::path(tag = "Surveys",
    params(("surveyId" = i64, Path, description = "The survey to copy"), CopyQuery),
    responses((status = 200, body = SurveyResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, description = "copylogic with broken logic", body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("survey.copy"))))]
#[get("/surveys/{surveyId}/copy")]
pub async fn copy(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    query: QueryOf<CopyQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let request = query.0.into_domain().map_err(Problem::invalid)?;
    let survey = blocking::run(&state, move |uow, clock| surveys::copy(uow, clock, account, id, request)).await?;
    Ok(HttpResponse::Ok().json(SurveyResponse::from(survey)))
}
