//! `/data-retention/account` and `/data-retention/surveys/{surveyId}`: retention policies.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::SurveyId;
use canvass_domain::use_cases::retention_policies;

use crate::blocking;
use crate::dto::error_on_the_wire;
use crate::dto::governance::{
    policy_field, AccountPolicyBody, AccountPolicyResponse, SurveyPolicyBody, SurveyPolicyResponse,
};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Reads the account's retention policy (all null and false before any POST).
#[utoipa::path(tag = "Data retention",
    responses((status = 200, body = AccountPolicyResponse), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/data-retention/account")]
pub async fn get_account(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let policy = blocking::run(&state, move |uow, _| retention_policies::account(uow, account)).await?;
    Ok(HttpResponse::Ok().json(AccountPolicyResponse::from(policy)))
}

/// Sets the account's retention policy: given fields are set, `null` clears, absent fields stay.
#[utoipa::path(tag = "Data retention", request_body = AccountPolicyBody,
    responses((status = 200, body = AccountPolicyResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionPolicy.change"))))]
#[post("/data-retention/account")]
pub async fn set_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<AccountPolicyBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let input = body.0.into();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| {
            retention_policies::set_account(uow, clock, account, input)
                .map_err(|error| error_on_the_wire(error, policy_field))
        },
        |policy| HttpResponse::Ok().json(AccountPolicyResponse::from(policy)),
    )
    .await
}

/// Reads a survey's retention policy.
#[utoipa::path(tag = "Data retention",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = SurveyPolicyResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/data-retention/surveys/{surveyId}")]
pub async fn get_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let policy = blocking::run(&state, move |uow, _| retention_policies::survey(uow, account, survey)).await?;
    Ok(HttpResponse::Ok().json(SurveyPolicyResponse::from(policy)))
}

/// Sets a survey's retention policy: dates after the survey's end, positive days, labels of the account.
#[utoipa::path(tag = "Data retention", request_body = SurveyPolicyBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = SurveyPolicyResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionPolicy.change"))))]
#[post("/data-retention/surveys/{surveyId}")]
pub async fn set_survey(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<SurveyPolicyBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let input = body.0.into_domain().map_err(Problem::invalid)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| {
            retention_policies::set_survey(uow, clock, account, survey, input)
                .map_err(|error| error_on_the_wire(error, policy_field))
        },
        |policy| HttpResponse::Ok().json(SurveyPolicyResponse::from(policy)),
    )
    .await
}
