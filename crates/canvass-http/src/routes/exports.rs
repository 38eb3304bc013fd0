//! `GET /surveys/{surveyId}/answers/export`: every answer set that passes the filters, as a CSV, XLSX or JSON Lines
//! file streamed chunk by chunk.

use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::answer::export::ExportTable;
use canvass_domain::chunks::ChunkRequest;
use canvass_domain::ids::{AnswerSetId, SurveyId};
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::exports::{self, ExportStart, EXPORT_CHUNK_SIZE};
use futures_util::StreamExt;

use crate::blocking;
use crate::dto::export::{ExportFile, ExportFormat, ExportQuery};
use crate::dto::insight::ResultsFilterQuery;
use crate::export::csv::CsvWriter;
use crate::export::jsonl::JsonLines;
use crate::export::xlsx::{self, XlsxWriter};
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;
use crate::streamed::{Peer, Streamed};

/// Exports the survey's answer sets that pass the filters, in id order: one CSV row, XLSX row or JSON line each.
///
/// CSV and XLSX hold `answerSetId, respondentId, sendoutId, completed, createdAt, updatedAt`, then one column per
/// answering item in tree order (headed by its text, or `q<questionItemId>` with `header=ids`), holding the option's
/// label (its value with `values=codes`; chosen options joined by `; `), the number or the text; a text that starts
/// with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`. A JSON line is `{answerSetId,
/// respondentId, sendoutId, completed, createdAt, updatedAt, answers: {"<questionItemId>": value}}`, values as in
/// the answer list. With `backgroundData=true`, CSV and XLSX end with one column per distinct background data
/// label name of the exported sets' sendouts (headed by the name, `bg.<name>` with `header=ids`; a Number label's
/// numbers as numbers), and each JSON line has `backgroundData: {"<label name>": value}`. The survey and the filters are checked before the file starts; a failure after that cuts the
/// body short. An account runs at most 4 exports at once (a fifth answers 429 with `Retry-After`); an export
/// whose client reads nothing for the stream idle timeout (60 s) has its connection closed, and an XLSX export stops
/// (its body cut short) when its temporary files would hold more than 512 MiB for the account or 2 GiB in all.
#[utoipa::path(tag = "Answers",
    params(("surveyId" = i64, Path, description = "A survey of the account"), ExportQuery, ResultsFilterQuery),
    responses(
        (status = 200, description = "The file, as an attachment named survey-<surveyId>-answers.<csv|xlsx|jsonl>",
            headers(("Content-Disposition" = String, description = "attachment; filename=\"survey-<surveyId>-answers.<ext>\"")),
            content((ExportFile = "text/csv"), (ExportFile = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
                (ExportFile = "application/jsonl"))),
        (status = 400, body = Problem, description = "A bad parameter (`supportedValues` lists an enum's names), a sendout of another survey, or XLSX of a survey with more items than a sheet has columns"),
        (status = 404, body = Problem, description = "No such survey in the account"),
        (status = 429, body = Problem, description = "The account runs 4 exports already (`too-many-exports`)",
            headers(("Retry-After" = u64, description = "Seconds to wait before another export (10)")))),
    extensions(("x-canvass-permission" = json!(Permission::AnswersRead.name())), ("x-canvass-audit" = json!("answers.export"))))]
#[get("/surveys/{surveyId}/answers/export")]
pub async fn export(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
    query: QueryOf<ExportQuery>,
    filter: QueryOf<ResultsFilterQuery>,
    peer: Peer,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let id = survey.get();
    let query = query.0;
    let selection = query.selection(filter.0).map_err(Problem::invalid)?;
    let background_data = selection.background_data;
    let slot = state.exports.take(account).ok_or_else(|| {
        let most = state.protection.exports_per_account;
        Problem::new(ProblemKind::TooManyExports, format!("this account runs {most} exports already; retry later"))
    })?;
    let budget = state.protection.chunk_bytes;
    let first = selection.clone();
    let ExportStart { tree, labels, translated, chunk } = blocking::run(&state, move |uow, _| {
        exports::start_export(uow, account, survey, &first, EXPORT_CHUNK_SIZE, budget)
    })
    .await?;
    let read = move |uow: &mut dyn UnitOfWork, request: &ChunkRequest<AnswerSetId>| {
        exports::export_chunk(uow, account, survey, &selection, request, budget)
    };
    let format = query.format.unwrap_or_default();
    let table = ExportTable::new(&tree, query.headings(), query.choice_values())
        .with_language(translated)
        .with_background(labels);
    if format == ExportFormat::Xlsx && table.width() > xlsx::MAX_COLUMNS {
        let message =
            format!("an XLSX sheet holds at most {} columns; this export needs {}", xlsx::MAX_COLUMNS, table.width());
        return Err(Problem::invalid_field("format", message));
    }
    // The body holds the account's slot until it ends or is dropped.
    let holding = move |piece| {
        let _slot = &slot;
        piece
    };
    let body = match format {
        ExportFormat::Csv => {
            let writer = CsvWriter::new(table, query.bom.unwrap_or(false));
            respond(id, format).streaming(Streamed::new(NAME, chunk, read, writer).body(state, peer).map(holding))
        }
        ExportFormat::Xlsx => {
            let writer = XlsxWriter::new(table, state.export_temp.hold(account));
            respond(id, format).streaming(Streamed::new(NAME, chunk, read, writer).body(state, peer).map(holding))
        }
        ExportFormat::Jsonl => {
            let body = Streamed::new(NAME, chunk, read, JsonLines { background_data }).body(state, peer);
            respond(id, format).streaming(body.map(holding))
        }
    };
    Ok(body)
}

/// The name of an export's body in logs.
const NAME: &str = "answer export";

/// A 200 of the format's media type, as an attachment named after the survey.
fn respond(survey: i64, format: ExportFormat) -> actix_web::HttpResponseBuilder {
    let disposition = ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![DispositionParam::Filename(format!("survey-{survey}-answers.{}", format.extension()))],
    };
    let mut response = HttpResponse::Ok();
    response.content_type(format.content_type()).insert_header(disposition);
    response
}
