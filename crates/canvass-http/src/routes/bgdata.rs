//! `/bgdata/bgdocuments...`: background data documents, their labels and rows.

use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{BgDocumentId, LabelId, RespondentId};
use canvass_domain::use_cases::bgdata;

use crate::blocking;
use crate::dto::bgdata::{BgDocumentResponse, CellDataBody, NewRowBody, RowLabelsBody, RowResponse};
use crate::dto::cells_to_domain;
use crate::dto::sendout::LabelResponse;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Lists the account's background data documents, one per sendout.
#[utoipa::path(tag = "Background data",
    responses((status = 200, body = Vec<BgDocumentResponse>), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/bgdata/bgdocuments")]
pub async fn list(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let documents = blocking::run(&state, move |uow, _| bgdata::list(uow, account)).await?;
    Ok(HttpResponse::Ok().json(documents.into_iter().map(BgDocumentResponse::from).collect::<Vec<_>>()))
}

/// Reads one document.
#[utoipa::path(tag = "Background data",
    params(("bgDocumentId" = i64, Path, description = "A document of the account")),
    responses((status = 200, body = BgDocumentResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/bgdata/bgdocuments/{bgDocumentId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<BgDocumentId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let document = blocking::run(&state, move |uow, _| bgdata::get(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(BgDocumentResponse::from(document)))
}

/// Lists the document's labels (its sendout's labels).
#[utoipa::path(tag = "Background data",
    params(("bgDocumentId" = i64, Path, description = "A document of the account")),
    responses((status = 200, body = Vec<LabelResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/bgdata/bgdocuments/{bgDocumentId}/labels")]
pub async fn document_labels(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<BgDocumentId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| bgdata::labels(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(LabelResponse::from).collect::<Vec<_>>()))
}

/// Reads the requested cells of a row; labels without a value are left out.
#[utoipa::path(tag = "Background data", request_body = RowLabelsBody,
    params(("bgDocumentId" = i64, Path, description = "A document of the account"),
        ("respondentId" = i64, Path, description = "A respondent of the document's sendout")),
    responses((status = 200, body = RowResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[post("/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}")]
pub async fn read_row(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(BgDocumentId, RespondentId)>,
    body: Body<RowLabelsBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (id, respondent)) = (caller.account(), path.0);
    let labels: Vec<LabelId> = body.0.labels.into_iter().map(LabelId::new).collect();
    blocking::respond(
        &state,
        &req,
        move |uow, _| bgdata::read_row(uow, account, id, respondent, &labels),
        |row| HttpResponse::Ok().json(RowResponse::from(row)),
    )
    .await
}

/// Edits the given cells of a row, or adds them; answers the whole row.
#[utoipa::path(tag = "Background data", request_body = CellDataBody,
    params(("bgDocumentId" = i64, Path, description = "A document of the account"),
        ("respondentId" = i64, Path, description = "A respondent of the document's sendout")),
    responses((status = 200, body = RowResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("backgroundData.change"))))]
#[put("/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}")]
pub async fn edit_row(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(BgDocumentId, RespondentId)>,
    body: Body<CellDataBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (id, respondent)) = (caller.account(), path.0);
    let cells = cells_to_domain(body.0.cell_data);
    let row = blocking::run(&state, move |uow, _| bgdata::edit_row(uow, account, id, respondent, cells)).await?;
    Ok(HttpResponse::Ok().json(RowResponse::from(row)))
}

/// Adds a row: a new respondent of the document's sendout, Pending until the next activation.
#[utoipa::path(tag = "Background data", request_body = NewRowBody,
    params(("bgDocumentId" = i64, Path, description = "A document of the account")),
    responses((status = 201, body = RowResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("backgroundData.create"))))]
#[post("/bgdata/bgdocuments/{bgDocumentId}/rows")]
pub async fn add_row(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<BgDocumentId>,
    body: Body<NewRowBody>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let body = body.0;
    let language = body.language.map(Into::into);
    blocking::respond(
        &state,
        &req,
        move |uow, clock| {
            bgdata::add_row(uow, clock, account, id, body.contact_details, cells_to_domain(body.cell_data), language)
        },
        |row| HttpResponse::Created().json(RowResponse::from(row)),
    )
    .await
}

/// Deletes the given cells of a row; answers what is left of it.
#[utoipa::path(tag = "Background data", request_body = RowLabelsBody,
    params(("bgDocumentId" = i64, Path, description = "A document of the account"),
        ("respondentId" = i64, Path, description = "A respondent of the document's sendout")),
    responses((status = 200, body = RowResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("backgroundData.delete"))))]
#[delete("/bgdata/bgdocuments/{bgDocumentId}/rows/{respondentId}")]
pub async fn delete_cells(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(BgDocumentId, RespondentId)>,
    body: Body<RowLabelsBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (id, respondent)) = (caller.account(), path.0);
    let labels: Vec<LabelId> = body.0.labels.into_iter().map(LabelId::new).collect();
    let row = blocking::run(&state, move |uow, _| bgdata::delete_cells(uow, account, id, respondent, &labels)).await?;
    Ok(HttpResponse::Ok().json(RowResponse::from(row)))
}
