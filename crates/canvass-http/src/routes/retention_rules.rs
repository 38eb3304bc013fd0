//! `/data-retention/rules...` (API version 1.5 only): set, list, change and delete retention rules. The paths below
//! are relative to `/api/v1.5/data-retention/rules`, the scope `api_scope` serves them in.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::governance::{RetentionAction, RuleInput, RulePatch, RuleScope};
use canvass_domain::ids::{SendoutId, SurveyId};
use canvass_domain::use_cases::retention_rules;
use canvass_domain::{AccountId, DomainError};

use crate::blocking;
use crate::dto::governance::{RuleBody, RulePatchBody, RuleResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// The action named in a path, matched case-insensitively; numbers and unknown names are a 400 listing the
/// supported values.
fn action_of(name: &str) -> Result<RetentionAction, Problem> {
    RetentionAction::parse(name).ok_or_else(|| {
        Problem::invalid_field("action", format!("`{name}` is not a retention action"))
            .with_supported_values(RetentionAction::names())
    })
}

async fn set(
    state: &AppState,
    req: &HttpRequest,
    account: AccountId,
    scope: RuleScope,
    body: RuleBody,
) -> Result<HttpResponse, Problem> {
    let input = RuleInput {
        action: body.action.into(),
        retention_days: body.retention_days,
        status: body.status.map(Into::into),
    };
    blocking::respond(
        state,
        req,
        move |uow, clock| retention_rules::set(uow, clock, account, scope, input),
        |rule| HttpResponse::Ok().json(RuleResponse::from(rule)),
    )
    .await
}

async fn list(state: &AppState, account: AccountId, scope: Option<RuleScope>) -> Result<HttpResponse, Problem> {
    let rules = blocking::run(state, move |uow, _| retention_rules::list(uow, account, scope)).await?;
    Ok(HttpResponse::Ok().json(rules.into_iter().map(RuleResponse::from).collect::<Vec<_>>()))
}

async fn update(
    state: &AppState,
    account: AccountId,
    scope: RuleScope,
    action: &str,
    body: RulePatchBody,
) -> Result<HttpResponse, Problem> {
    let action = action_of(action)?;
    let patch = RulePatch::new(body.retention_days, body.status.map(Into::into));
    let rule = blocking::run(state, move |uow, clock| {
        let patch = patch.map_err(|e| DomainError::Invalid(vec![e]))?;
        retention_rules::update(uow, clock, account, scope, action, patch)
    })
    .await?;
    Ok(HttpResponse::Ok().json(RuleResponse::from(rule)))
}

async fn remove(state: &AppState, account: AccountId, scope: RuleScope, action: &str) -> Result<HttpResponse, Problem> {
    let action = action_of(action)?;
    blocking::run(state, move |uow, _| retention_rules::delete(uow, account, scope, action)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Sets the account-scoped rule of its action (overwrites it in place).
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RuleBody,
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.create"))))]
#[post("/account")]
pub async fn set_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<RuleBody>,
) -> Result<HttpResponse, Problem> {
    set(&state, &req, caller.account(), RuleScope::Account, body.0).await
}

/// Sets a survey-scoped rule.
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RuleBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.create"))))]
#[post("/surveys/{surveyId}")]
pub async fn set_survey(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<RuleBody>,
) -> Result<HttpResponse, Problem> {
    set(&state, &req, caller.account(), RuleScope::Survey(path.0), body.0).await
}

/// Sets a sendout-scoped rule; the sendout must belong to the survey.
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RuleBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.create"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}")]
pub async fn set_sendout(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<RuleBody>,
) -> Result<HttpResponse, Problem> {
    let (survey, sendout) = path.0;
    set(&state, &req, caller.account(), RuleScope::Sendout(survey, sendout), body.0).await
}

/// Lists every rule of the account.
#[utoipa::path(tag = "Retention rules (v1.5)",
    responses((status = 200, body = Vec<RuleResponse>)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("")]
pub async fn list_all(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    list(&state, caller.account(), None).await
}

/// Lists the account-scoped rules.
#[utoipa::path(tag = "Retention rules (v1.5)",
    responses((status = 200, body = Vec<RuleResponse>)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/account")]
pub async fn list_account(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    list(&state, caller.account(), Some(RuleScope::Account)).await
}

/// Lists the rules of a survey scope.
#[utoipa::path(tag = "Retention rules (v1.5)",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = Vec<RuleResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/surveys/{surveyId}")]
pub async fn list_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    list(&state, caller.account(), Some(RuleScope::Survey(path.0))).await
}

/// Lists the rules of a sendout scope.
#[utoipa::path(tag = "Retention rules (v1.5)",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = Vec<RuleResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}")]
pub async fn list_sendout(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (survey, sendout) = path.0;
    list(&state, caller.account(), Some(RuleScope::Sendout(survey, sendout))).await
}

/// Changes the account-scoped rule of an action (days and/or status).
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RulePatchBody,
    params(("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.change"))))]
#[patch("/account/actions/{action}")]
pub async fn update_account(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<String>,
    body: Body<RulePatchBody>,
) -> Result<HttpResponse, Problem> {
    update(&state, caller.account(), RuleScope::Account, &path.0, body.0).await
}

/// Changes a survey-scoped rule.
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RulePatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.change"))))]
#[patch("/surveys/{surveyId}/actions/{action}")]
pub async fn update_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, String)>,
    body: Body<RulePatchBody>,
) -> Result<HttpResponse, Problem> {
    let (survey, action) = path.0;
    update(&state, caller.account(), RuleScope::Survey(survey), &action, body.0).await
}

/// Changes a sendout-scoped rule.
#[utoipa::path(tag = "Retention rules (v1.5)", request_body = RulePatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("sendoutId" = i64, Path, description = "A sendout of that survey"),
        ("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 200, body = RuleResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.change"))))]
#[patch("/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}")]
pub async fn update_sendout(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId, String)>,
    body: Body<RulePatchBody>,
) -> Result<HttpResponse, Problem> {
    let (survey, sendout, action) = path.0;
    update(&state, caller.account(), RuleScope::Sendout(survey, sendout), &action, body.0).await
}

/// Deletes the account-scoped rule of an action.
#[utoipa::path(tag = "Retention rules (v1.5)",
    params(("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 204, description = "Deleted"), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.delete"))))]
#[delete("/account/actions/{action}")]
pub async fn delete_account(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<String>,
) -> Result<HttpResponse, Problem> {
    remove(&state, caller.account(), RuleScope::Account, &path.0).await
}

/// Deletes a survey-scoped rule.
#[utoipa::path(tag = "Retention rules (v1.5)",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 204, description = "Deleted"), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.delete"))))]
#[delete("/surveys/{surveyId}/actions/{action}")]
pub async fn delete_survey(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, String)>,
) -> Result<HttpResponse, Problem> {
    let (survey, action) = path.0;
    remove(&state, caller.account(), RuleScope::Survey(survey), &action).await
}

/// Deletes a sendout-scoped rule.
#[utoipa::path(tag = "Retention rules (v1.5)",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ("sendoutId" = i64, Path, description = "A sendout of that survey"),
        ("action" = String, Path, description = "A RetentionRuleAction name, any case", max_length = 64, pattern = "^[Rr][Ee][Mm][Oo][Vv][Ee][Rr][Ee][Ss][Pp][Oo][Nn][Dd][Ee][Nn][Tt][Dd][Aa][Tt][Aa][Ww][Ii][Tt][Hh][Oo][Uu][Tt][Aa][Nn][Ss][Ww][Ee][Rr][Ss]$")),
    responses((status = 204, description = "Deleted"), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("retentionRule.delete"))))]
#[delete("/surveys/{surveyId}/sendouts/{sendoutId}/actions/{action}")]
pub async fn delete_sendout(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId, String)>,
) -> Result<HttpResponse, Problem> {
    let (survey, sendout, action) = path.0;
    remove(&state, caller.account(), RuleScope::Sendout(survey, sendout), &action).await
}
