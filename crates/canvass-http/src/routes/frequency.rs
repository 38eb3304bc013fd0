//! `/surveys/frequency` and `/surveys/{surveyId}/frequency`: survey frequency settings.

use actix_web::{get, patch, put, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::governance::FrequencyLimits;
use canvass_domain::ids::SurveyId;
use canvass_domain::use_cases::frequency;
use canvass_domain::AccountId;

use crate::blocking;
use crate::dto::governance::{frequency_field, FrequencyBody, FrequencyResponse};
use crate::dto::on_the_wire;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

async fn read(state: &AppState, account: AccountId, survey: Option<SurveyId>) -> Result<HttpResponse, Problem> {
    let setting = blocking::run(state, move |uow, _| frequency::get(uow, account, survey)).await?;
    Ok(HttpResponse::Ok().json(FrequencyResponse::new(account, setting)))
}

async fn write(
    state: &AppState,
    account: AccountId,
    survey: Option<SurveyId>,
    body: FrequencyBody,
) -> Result<HttpResponse, Problem> {
    let limits = FrequencyLimits::new(body.settings.number_of_days, body.settings.max_number_of_surveys)
        .map_err(|errors| Problem::invalid(on_the_wire(errors, frequency_field)))?;
    let setting =
        blocking::run(state, move |uow, _| frequency::put(uow, account, survey, body.enabled, limits)).await?;
    Ok(HttpResponse::Ok().json(FrequencyResponse::new(account, setting)))
}

async fn toggle(
    state: &AppState,
    account: AccountId,
    survey: Option<SurveyId>,
    enabled: bool,
) -> Result<HttpResponse, Problem> {
    let setting = blocking::run(state, move |uow, _| frequency::set_enabled(uow, account, survey, enabled)).await?;
    Ok(HttpResponse::Ok().json(FrequencyResponse::new(account, setting)))
}

/// Reads the account's frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/surveys/frequency")]
pub async fn get_account(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    read(&state, caller.account(), None).await
}

/// Creates or replaces the account's frequency setting.
#[utoipa::path(tag = "Survey frequency", request_body = FrequencyBody,
    responses((status = 200, body = FrequencyResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.change"))))]
#[put("/surveys/frequency")]
pub async fn put_account(
    state: web::Data<AppState>,
    caller: Authenticated,
    body: Body<FrequencyBody>,
) -> Result<HttpResponse, Problem> {
    write(&state, caller.account(), None, body.0).await
}

/// Enables the account's frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.enable"))))]
#[patch("/surveys/frequency/enable")]
pub async fn enable_account(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    toggle(&state, caller.account(), None, true).await
}

/// Disables the account's frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.disable"))))]
#[patch("/surveys/frequency/disable")]
pub async fn disable_account(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    toggle(&state, caller.account(), None, false).await
}

/// Reads a survey's own frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/surveys/{surveyId}/frequency")]
pub async fn get_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    read(&state, caller.account(), Some(path.0)).await
}

/// Creates or replaces a survey's own frequency setting, which overrides the account's for that survey.
#[utoipa::path(tag = "Survey frequency", request_body = FrequencyBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = FrequencyResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.change"))))]
#[put("/surveys/{surveyId}/frequency")]
pub async fn put_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<FrequencyBody>,
) -> Result<HttpResponse, Problem> {
    write(&state, caller.account(), Some(path.0), body.0).await
}

/// Enables a survey's own frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.enable"))))]
#[patch("/surveys/{surveyId}/frequency/enable")]
pub async fn enable_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    toggle(&state, caller.account(), Some(path.0), true).await
}

/// Disables a survey's own frequency setting; 404 before any PUT.
#[utoipa::path(tag = "Survey frequency",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = FrequencyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("frequency.disable"))))]
#[patch("/surveys/{surveyId}/frequency/disable")]
pub async fn disable_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    toggle(&state, caller.account(), Some(path.0), false).await
}
