//! `/surveys/{surveyId}/answers...`: record, replace and read answer sets.

use canvass_domain::account::Permission;
use std::sync::Arc;

use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use canvass_domain::answer::{check_shape, Answer};
use canvass_domain::chunks::ChunkRequest;
use canvass_domain::clock::Clock;
use canvass_domain::ids::{AnswerSetId, QuestionItemId, RespondentId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::answers::{self, AnswerSetInput};
use canvass_domain::DomainError;

use crate::blocking;
use crate::dto::answer::{
    AnswerBody, AnswerFilterQuery, AnswerPageQuery, AnswerSetBody, AnswerSetPageResponse, AnswerSetResponse,
};
use crate::extract::path::Ids;
use crate::extract::{body::Body, query::QueryOf};
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;
use crate::streamed::{self, List, Peer};

/// Default page of answersWithData.
const DEFAULT_PAGE: i64 = 1;
/// Default page size of answersWithData.
const DEFAULT_PAGE_SIZE: i64 = 100;

/// Lists the survey's answer sets (without answers), filtered by creation or update time and completion.
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"), AnswerFilterQuery),
    responses((status = 200, body = Vec<AnswerSetResponse>), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/answers")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    query: QueryOf<AnswerFilterQuery>,
    peer: Peer,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let filter = query.0.into_domain().map_err(Problem::invalid)?;
    let read = move |uow: &mut dyn UnitOfWork, request: &ChunkRequest<AnswerSetId>| {
        answers::list_chunk(uow, account, survey, &filter, request)
    };
    List::new("answer sets", read, AnswerSetResponse::without_answers).respond(state, peer).await
}

/// One page of the survey's answer sets with their answers. A page holds `pagesize` sets whatever their size: it is
/// read in chunks of about 2 MiB as the client reads on (so the server never holds a large page whole), and its
/// connection is closed when the client reads nothing for the stream idle timeout (60 s).
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"), AnswerPageQuery, AnswerFilterQuery),
    responses((status = 200, body = AnswerSetPageResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/answersWithData")]
pub async fn page(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    query: QueryOf<AnswerPageQuery>,
    filter: QueryOf<AnswerFilterQuery>,
    peer: Peer,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let query = query.0;
    let paging = PageRequest::new(
        query.page.unwrap_or(DEFAULT_PAGE),
        query.pagesize.unwrap_or(DEFAULT_PAGE_SIZE),
        "page",
        "pagesize",
    );
    let filter = filter.0.into_domain();
    let (paging, filter) = match (paging, filter) {
        (Ok(paging), Ok(filter)) => (paging, filter),
        (paging, filter) => {
            let errors = paging.err().into_iter().flatten().chain(filter.err().into_iter().flatten());
            return Err(Problem::invalid(errors.collect()));
        }
    };
    let budget = state.protection.chunk_bytes;
    let (page, first) = blocking::run(&state, move |uow, _| {
        let page = answers::weigh_page(uow, account, survey, &filter, paging)?;
        let first = answers::page_chunk(uow, account, survey, &page.items, &ChunkRequest::first(1), budget)?;
        Ok((page, first))
    })
    .await?;
    let start = format!(
        r#"{{"pageNumber":{},"pageSize":{},"pageCount":{},"totalCount":{},"answerSets":"#,
        paging.number(),
        paging.size(),
        page.page_count(),
        page.total_count
    );
    let sets = Arc::new(page.items);
    let read = move |uow: &mut dyn UnitOfWork, request: &ChunkRequest<usize>| {
        answers::page_chunk(uow, account, survey, &sets, request, budget)
    };
    let write = AnswerSetResponse::with_answers;
    Ok(streamed::respond_page("answer set page", start.into_bytes(), first, read, write, state, peer))
}

/// One answer set with its answers.
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("answerSetId" = i64, Path, description = "An answer set of that survey")),
    responses((status = 200, body = AnswerSetResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/answers/{answerSetId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, AnswerSetId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let set = blocking::run(&state, move |uow, _| answers::get(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(AnswerSetResponse::with_answers(set)))
}

/// Every answer set of a respondent, with answers; 404 once the respondent's distribution data is removed.
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("respondentId" = i64, Path, description = "A respondent of a sendout of that survey")),
    responses((status = 200, body = Vec<AnswerSetResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/answers/respondent/{respondentId}")]
pub async fn of_respondent(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, RespondentId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, respondent)) = (caller.account(), path.0);
    let sets = blocking::run(&state, move |uow, _| answers::of_respondent(uow, account, survey, respondent)).await?;
    Ok(HttpResponse::Ok().json(sets.into_iter().map(AnswerSetResponse::with_answers).collect::<Vec<_>>()))
}

/// The answer a set gives to one question item; 404 when it gives none.
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("answerSetId" = i64, Path, description = "An answer set of that survey"),
        ("questionItemId" = i64, Path, description = "A question item")),
    responses((status = 200, body = AnswerBody), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/answers/{answerSetId}/questionitem/{questionItemId}")]
pub async fn item_answer(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, AnswerSetId, QuestionItemId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id, item)) = (caller.account(), path.0);
    let answer = blocking::run(&state, move |uow, _| answers::item_answer(uow, account, survey, id, item)).await?;
    Ok(HttpResponse::Ok().json(AnswerBody::from(answer)))
}

/// Records an answer set, checking each answer against its item's type.
#[utoipa::path(tag = "Answers", request_body = AnswerSetBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 201, body = AnswerSetResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersWrite.name())), ("x-canvass-audit" = json!("answerSet.create"))))]
#[post("/surveys/{surveyId}/answers")]
pub async fn record(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<AnswerSetBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let body = body.0;
    let answers = checked_answers(body.answers)?;
    let record = move |uow: &mut dyn UnitOfWork, clock: &dyn Clock| {
        let input = AnswerSetInput {
            respondent_id: body.respondent_id.map(RespondentId::new),
            completed: body.completed,
            answers,
            language: body.language.map(Language::from),
        };
        answers::record(uow, clock, account, survey, input)
    };
    blocking::respond(&state, &req, record, |set| HttpResponse::Created().json(AnswerSetResponse::with_answers(set)))
        .await
}

/// Replaces the answers and the completed flag of an answer set, moving its `updatedAt`.
#[utoipa::path(tag = "Answers", request_body = AnswerSetBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("answerSetId" = i64, Path, description = "An answer set of that survey")),
    responses((status = 200, body = AnswerSetResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersWrite.name())), ("x-canvass-audit" = json!("answerSet.replace"))))]
#[put("/surveys/{surveyId}/answers/{answerSetId}")]
pub async fn replace(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, AnswerSetId)>,
    body: Body<AnswerSetBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let body = body.0;
    let answers = checked_answers(body.answers)?;
    let set = blocking::run(&state, move |uow, clock| {
        let language = body.language.map(Language::from);
        let replacement = answers::Replacement { completed: body.completed, answers, language };
        answers::replace(uow, clock, account, survey, id, replacement)
    })
    .await?;
    Ok(HttpResponse::Ok().json(AnswerSetResponse::with_answers(set)))
}

/// The answers of a body, refused before a connection is taken when they break a rule that needs no survey (an
/// item answered twice, a value chosen twice); a value of the wrong shape was refused where the body was read.
fn checked_answers(bodies: Vec<AnswerBody>) -> Result<Vec<Answer>, Problem> {
    let answers: Vec<Answer> = bodies.into_iter().map(Answer::from).collect();
    DomainError::check(check_shape(&answers))?;
    Ok(answers)
}
