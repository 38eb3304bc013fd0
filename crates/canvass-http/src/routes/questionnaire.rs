//! `/surveys/{surveyId}/pages` and `PATCH /surveys/{surveyId}/questions/{questionItemId}`: editing a live
//! question tree. Every change moves the survey's `updatedAt` and `treeVersion`; a refused one changes nothing.

use actix_web::{delete, patch, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{PageId, QuestionItemId, SurveyId};
use canvass_domain::survey::ItemPatch;
use canvass_domain::use_cases::questionnaire;
use canvass_domain::DomainError;

use crate::blocking;
use crate::dto::questionnaire::{ItemPatchBody, NewPageBody, PagePatchBody};
use crate::dto::survey::{ItemBody, ItemResponse, PageResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Adds a page, at the end or at `position`.
#[utoipa::path(tag = "Questions", request_body = NewPageBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 201, body = PageResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`concurrent-change`: another change of the tree won; retry")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("page.create"))))]
#[post("/surveys/{surveyId}/pages")]
pub async fn add_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<NewPageBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey, input) = (caller.account(), path.0, body.0.into());
    blocking::respond(
        &state,
        &req,
        move |uow, clock| questionnaire::add_page(uow, clock, account, survey, input),
        |page| HttpResponse::Created().json(PageResponse::from(page)),
    )
    .await
}

/// Retitles a page, moves it, or changes whether its items are shown in an order per respondent.
#[utoipa::path(tag = "Questions", request_body = PagePatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("pageId" = i64, Path, description = "A page of that survey")),
    responses((status = 200, body = PageResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`breaks-references`: the move would leave a `displayWhen` or a \
            piped `{{answer...}}` naming an item that no longer comes before it (listed in `values`); \
            `concurrent-change`: another change of the tree won; retry")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("page.change"))))]
#[patch("/surveys/{surveyId}/pages/{pageId}")]
pub async fn patch_page(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, PageId)>,
    body: Body<PagePatchBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, page), patch) = (caller.account(), path.0, body.0.into());
    let page =
        blocking::run(&state, move |uow, clock| questionnaire::patch_page(uow, clock, account, survey, page, patch))
            .await?;
    Ok(HttpResponse::Ok().json(PageResponse::from(page)))
}

/// Deletes a page that holds no items; rules that jump to it read `broken: true`.
#[utoipa::path(tag = "Questions",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("pageId" = i64, Path, description = "A page of that survey")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`page-not-empty`: the page holds items; \
            `concurrent-change`: another change of the tree won")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("page.delete"))))]
#[delete("/surveys/{surveyId}/pages/{pageId}")]
pub async fn delete_page(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, PageId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, page)) = (caller.account(), path.0);
    blocking::run(&state, move |uow, clock| questionnaire::delete_page(uow, clock, account, survey, page)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Adds an item to a page, at its end or at `position`.
#[utoipa::path(tag = "Questions", request_body = ItemBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("pageId" = i64, Path, description = "A page of that survey")),
    responses((status = 201, body = ItemResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`concurrent-change`: another change of the tree won; retry")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("questionItem.create"))))]
#[post("/surveys/{surveyId}/pages/{pageId}/items")]
pub async fn add_item(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, PageId)>,
    body: Body<ItemBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, page)) = (caller.account(), path.0);
    let position = body.0.position;
    let draft = body.0.into_draft("").map_err(DomainError::Invalid)?;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| questionnaire::add_item(uow, clock, account, survey, page, draft, position),
        |item| HttpResponse::Created().json(ItemResponse::from(item)),
    )
    .await
}

/// Changes an item (any field of it) and moves it (`pageId`, `position`); its answers stay.
#[utoipa::path(tag = "Questions", request_body = ItemPatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("questionItemId" = i64, Path, description = "An item of that survey")),
    responses((status = 200, body = ItemResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`item-has-answers`: a new type of an answered item, or \
            option values that answers hold (listed in `values`); `breaks-references`: the move would leave a \
            `displayWhen` or a piped `{{answer...}}` naming an item that no longer comes before it; \
            `concurrent-change`: another change won")),
    extensions(("x-canvass-permission" = json!(Permission::SurveysWrite.name())), ("x-canvass-audit" = json!("questionItem.change"))))]
#[patch("/surveys/{surveyId}/questions/{questionItemId}")]
pub async fn patch_item(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuestionItemId)>,
    body: Body<ItemPatchBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, item)) = (caller.account(), path.0);
    let patch = ItemPatch::try_from(body.0)?;
    let item =
        blocking::run(&state, move |uow, clock| questionnaire::patch_item(uow, clock, account, survey, item, patch))
            .await?;
    Ok(HttpResponse::Ok().json(ItemResponse::from(item)))
}
