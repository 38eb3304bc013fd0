//! `/surveys/{surveyId}/questions` and `/logic`: the question tree, its logic rules, deleting items.

use actix_web::{delete, get, put, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{QuestionItemId, SurveyId};
use canvass_domain::survey::rules_from_json;
use canvass_domain::use_cases::surveys;
use canvass_domain::DomainError;

use crate::blocking;
use crate::dto::logic_schemas::LogicRuleBodySchema;
use crate::dto::survey::QuestionTreeResponse;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Reads the question tree: pages, items and logic rules.
#[utoipa::path(tag = "Questions",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = QuestionTreeResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysRead.name()))))]
#[get("/surveys/{surveyId}/questions")]
pub async fn question_tree(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| surveys::question_tree(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(QuestionTreeResponse::from(found)))
}

/// Replaces the survey's logic rules and answers the new question tree; moves the survey's `updatedAt` and
/// `treeVersion` (a refused change moves nothing). Rules come in two forms, tried in order when their page is
/// saved: `{questionItemId, equals, goToPageId}`, and `{when: <conditions>, action: "jump", goToPageId}` or
/// `{when, action: "endSurvey"}`. A broken field is a 400 naming its path (`[2].when.all[1].operator`).
#[utoipa::path(tag = "Questions", request_body = Vec<LogicRuleBodySchema>,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = QuestionTreeResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("logic.change"))))]
#[put("/surveys/{surveyId}/logic")]
pub async fn set_logic(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<serde_json::Value>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let rules = rules_from_json(&body.0).map_err(DomainError::Invalid)?;
    let tree = blocking::run(&state, move |uow, clock| surveys::set_logic(uow, clock, account, id, rules)).await?;
    Ok(HttpResponse::Ok().json(QuestionTreeResponse::from(tree)))
}

/// Deletes a question item and its answers; logic rules that named it stay and read `broken: true`. Moves the
/// survey's `updatedAt` and `treeVersion`.
#[utoipa::path(tag = "Questions",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("questionItemId" = i64, Path, description = "An item of that survey")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("questionItem.delete"))))]
#[delete("/surveys/{surveyId}/questions/{questionItemId}")]
pub async fn delete_item(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuestionItemId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (id, item)) = (caller.account(), path.0);
    blocking::run(&state, move |uow, clock| surveys::delete_question_item(uow, clock, account, id, item)).await?;
    Ok(HttpResponse::NoContent().finish())
}
