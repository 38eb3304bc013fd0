//! `/surveys/{surveyId}/report` and `/surveys/{surveyId}/items/{questionItemId}/chart`: a survey's results as a
//! report a person reads (HTML or PDF) and one item's chart (SVG or PNG), drawn by `canvass-report` on the
//! blocking pool once the store's reads are done.

use actix_web::http::header;
use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{QuestionItemId, SurveyId};
use canvass_domain::use_cases::reports;
use canvass_report::{html, pdf, png, svg, Chart};

use crate::blocking;
use crate::dto::insight::{results_request, BreakdownQuery, ResultsFilterQuery};
use crate::dto::report::{ChartFile, ChartFormat, ChartFormatQuery, ReportFile, ReportFormat, ReportFormatQuery};
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// The survey's report over the answer sets that pass the filters, with the breakdown: its name, the period and
/// filters, each sendout's funnel, and per item a chart (bars with counts and shares; the NPS of a Rating; a
/// histogram for a Numeric item; top words and a few texts for an OpenText item; a bar per row of a Matrix) with
/// its numbers as a table beside it.
#[utoipa::path(tag = "Insight",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ReportFormatQuery, ResultsFilterQuery,
        BreakdownQuery),
    responses(
        (status = 200, description = "The report: one HTML document (inline SVG, no script) or an A4 PDF",
            content((ReportFile = "text/html"), (ReportFile = "application/pdf"))),
        (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name())), ("x-canvass-audit" = json!("survey.report"))))]
#[get("/surveys/{surveyId}/report")]
pub async fn report(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    format: QueryOf<ReportFormatQuery>,
    filter: QueryOf<ResultsFilterQuery>,
    breakdown: QueryOf<BreakdownQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let request = results_request(filter.0, breakdown.0).map_err(Problem::invalid)?;
    let format = format.0.format.unwrap_or_default();
    let report =
        blocking::run(&state, move |uow, clock| reports::survey_report(uow, clock, account, survey, &request)).await?;
    let (content_type, extension, body) = blocking::in_span(move || match format {
        ReportFormat::Html => {
            let document = html::report(&report).map_err(|error| Problem::internal(&error))?;
            Ok(("text/html; charset=utf-8", "html", document.into_bytes()))
        }
        ReportFormat::Pdf => {
            let bytes = pdf::report(&report).map_err(|error| Problem::internal(&error))?;
            Ok(("application/pdf", "pdf", bytes))
        }
    })
    .await?;
    let disposition = format!("inline; filename=\"survey-{survey}-report.{extension}\"");
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CONTENT_DISPOSITION, disposition))
        .body(body))
}

/// One item's chart over the answer sets that pass the filters, as in the report: an SVG (720 units wide) or a
/// PNG (1440 pixels wide), marked as one image titled with the item's text and key figures.
#[utoipa::path(tag = "Insight",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("questionItemId" = i64, Path, description = "An item of that survey"), ChartFormatQuery, ResultsFilterQuery),
    responses(
        (status = 200, description = "The chart", content((ChartFile = "image/svg+xml"), (ChartFile = "image/png"))),
        (status = 400, body = Problem,
            description = "A bad filter or format; `questionItemId` names an Info or Date item, which has no chart"),
        (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name()))))]
#[get("/surveys/{surveyId}/items/{questionItemId}/chart")]
pub async fn chart(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, QuestionItemId)>,
    format: QueryOf<ChartFormatQuery>,
    filter: QueryOf<ResultsFilterQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, item)) = (caller.account(), path.0);
    let request = results_request(filter.0, BreakdownQuery::default()).map_err(Problem::invalid)?;
    let format = format.0.format.unwrap_or_default();
    let found = blocking::run(&state, move |uow, _| reports::item_chart(uow, account, survey, item, &request)).await?;
    let (content_type, body) = blocking::in_span(move || {
        let chart = Chart::of(&found.item, found.histogram.as_ref());
        let drawn = svg::svg(&chart, true).map_err(|error| Problem::internal(&error))?;
        let drawn = drawn.ok_or_else(|| Problem::internal(&"an item with no plot passed the use case"))?;
        match format {
            ChartFormat::Svg => Ok(("image/svg+xml", drawn.into_bytes())),
            ChartFormat::Png => Ok(("image/png", png::png(&drawn).map_err(|error| Problem::internal(&error))?)),
        }
    })
    .await?;
    Ok(HttpResponse::Ok().content_type(content_type).body(body))
}
