//! `/surveys/{surveyId}/sendouts/{sendoutId}/statistics` and `/surveys/{surveyId}/results`: what a sendout's
//! respondents did and what a survey's answer sets say, aggregated by the store.

use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{SendoutId, SurveyId};
use canvass_domain::use_cases::insight;

use crate::blocking;
use crate::dto::insight::{
    results_request, BreakdownQuery, ResultsFilterQuery, SendoutStatisticsResponse, SurveyResultsResponse,
};
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// A sendout's statistics: its respondents by status, how many it reached and how many of those started and
/// completed, those opted out through its links, the rates, the median time to complete, and the same by UTC day
/// from the first activation to today.
#[utoipa::path(tag = "Insight",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = SendoutStatisticsResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/statistics")]
pub async fn statistics(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let statistics =
        blocking::run(&state, move |uow, clock| insight::sendout_statistics(uow, clock, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(SendoutStatisticsResponse::from(statistics)))
}

/// A survey's results over the answer sets that pass the filters of the answer list and `sendoutId`: per question
/// item in tree order, how many answered and, by type, every option's count, the numbers' summary, the ratings'
/// distribution and Net Promoter Score.
#[utoipa::path(tag = "Insight",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ResultsFilterQuery, BreakdownQuery),
    responses((status = 200, body = SurveyResultsResponse), (status = 400, body = Problem),
        (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/results")]
pub async fn results(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    filter: QueryOf<ResultsFilterQuery>,
    breakdown: QueryOf<BreakdownQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let request = results_request(filter.0, breakdown.0).map_err(Problem::invalid)?;
    let results = blocking::run(&state, move |uow, _| insight::survey_results(uow, account, survey, &request)).await?;
    Ok(HttpResponse::Ok().json(SurveyResultsResponse::from(results)))
}
