//! `/surveys/{surveyId}/sendouts/{sendoutId}/respondents...`: adding and listing respondents.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::chunks::ChunkRequest;
use canvass_domain::ids::{RespondentId, SendoutId, SurveyId};
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::respondents;

use crate::blocking;
use crate::dto::respondent::{under_batch_list, BatchBody, BatchResponse, RespondentBody, RespondentResponse};
use crate::dto::sight::Sighted;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;
use crate::streamed::{List, Peer};

/// Lists the sendout's respondents with their statuses and links.
#[utoipa::path(tag = "Respondents",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = Vec<RespondentResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/respondents")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    peer: Peer,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, sendout)) = (caller.account(), path.0);
    let read = move |uow: &mut dyn UnitOfWork, request: &ChunkRequest<RespondentId>| {
        respondents::list_chunk(uow, account, survey, sendout, request)
    };
    let public_url = state.public_url.clone();
    let who = caller.0;
    let write = move |respondent| RespondentResponse::new(respondent, &public_url).seen_by(&who);
    List::new("respondents", read, write).respond(state, peer).await
}

/// Adds one respondent (Pending until the next activation); blocklisted or duplicate contacts answer 409.
#[utoipa::path(tag = "Respondents", request_body = RespondentBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 201, body = RespondentResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, description = "type ends in /blocklisted or /duplicate", body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("respondent.create"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/respondents")]
pub async fn add(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<RespondentBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, sendout)) = (caller.account(), path.0);
    let input = body.0.into();
    let public_url = state.public_url.clone();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| respondents::add(uow, clock, account, survey, sendout, input),
        move |added| HttpResponse::Created().json(RespondentResponse::new(added, &public_url)),
    )
    .await
}

/// Adds 1 to 1000 respondents in one transaction. Malformed items refuse the whole batch (400 naming each
/// index); blocklisted and duplicate contacts are refused item by item.
#[utoipa::path(tag = "Respondents", request_body = BatchBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = BatchResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("respondent.createBatch"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/respondents/batch")]
pub async fn add_batch(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<BatchBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, sendout)) = (caller.account(), path.0);
    let items = body.0.items();
    let public_url = state.public_url.clone();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| {
            respondents::add_read_batch(uow, clock, account, survey, sendout, items).map_err(under_batch_list)
        },
        move |outcome| HttpResponse::Ok().json(BatchResponse::new(outcome, &public_url)),
    )
    .await
}
