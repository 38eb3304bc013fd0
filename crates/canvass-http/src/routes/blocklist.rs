//! `/accounts/blocklist` and `/email-bounces/permanent-failures`.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::chunks::ChunkRequest;
use canvass_domain::distribution::{BlocklistKey, BounceFilter, NewPermanentFailure};
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::UnitOfWork;
use canvass_domain::timestamp::{parse_instant, DayEdge};
use canvass_domain::use_cases::blocklist;
use canvass_domain::{DomainError, FieldError};

use crate::blocking;
use crate::dto::blocklist::{
    BlocklistBody, BlocklistResponse, FailuresBody, FailuresPageResponse, FailuresQuery, RecordedResponse,
};
use crate::dto::client_date::instant;
use crate::dto::sight::Sighted;
use crate::extract::path::Ids;
use crate::extract::{body::Body, query::QueryOf};
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;
use crate::streamed::{List, Peer};

/// Lists the account's blocked and opted-out contacts.
#[utoipa::path(tag = "Blocklist",
    responses((status = 200, body = Vec<BlocklistResponse>), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/accounts/blocklist")]
pub async fn list(state: web::Data<AppState>, caller: Authenticated, peer: Peer) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let read = move |uow: &mut dyn UnitOfWork, request: &ChunkRequest<BlocklistKey>| {
        blocklist::list_chunk(uow, account, request)
    };
    let who = caller.0;
    let write = move |entry| BlocklistResponse::from(entry).seen_by(&who);
    List::new("blocklist entries", read, write).respond(state, peer).await
}

/// Adds a contact; respondents with it that were not sent to yet become Blocklisted. A listed contact: 409.
#[utoipa::path(tag = "Blocklist", request_body = BlocklistBody,
    responses((status = 201, body = BlocklistResponse), (status = 400, body = Problem), (status = 409, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("blocklist.add"))))]
#[post("/accounts/blocklist")]
pub async fn add(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<BlocklistBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let body = body.0;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| blocklist::add(uow, clock, account, &body.contact_details, body.kind.into()),
        |entry| HttpResponse::Created().json(BlocklistResponse::from(entry)),
    )
    .await
}

/// Removes a contact from the blocklist (URL-encode it in the path).
#[utoipa::path(tag = "Blocklist",
    params(("contactDetails" = String, Path, description = "The contact, URL-encoded, as adding takes it: 1 to 320 \
        characters, none a control character, not only spaces", min_length = 1, max_length = 320,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]+$")),
    responses((status = 204, description = "Removed"), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("blocklist.remove"))))]
#[delete("/accounts/blocklist/{contactDetails}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<String>,
) -> Result<HttpResponse, Problem> {
    let (account, contact) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| blocklist::remove(uow, account, &contact)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// One page of the account's permanent email failures, oldest first.
#[utoipa::path(tag = "Email bounces", params(FailuresQuery),
    responses((status = 200, body = FailuresPageResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/email-bounces/permanent-failures")]
pub async fn list_failures(
    state: web::Data<AppState>,
    caller: Authenticated,
    query: QueryOf<FailuresQuery>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let query = query.0;
    let page = PageRequest::new(query.page_number, query.page_size, "pageNumber", "pageSize");
    let page = page.map_err(Problem::invalid)?;
    let from = instant(query.from, DayEdge::Start);
    let filter = BounceFilter::new(query.sending_domain, from).map_err(|error| Problem::invalid(vec![error]))?;
    let found = blocking::run(&state, move |uow, _| blocklist::page_failures(uow, account, &filter, page)).await?;
    let mut page = FailuresPageResponse::from(found);
    page.failures = page.failures.into_iter().map(|failure| failure.seen_by(&caller.0)).collect();
    Ok(HttpResponse::Ok().json(page))
}

/// Records permanent failures reported by the mail relay; repeats of an address and time are ignored, and the
/// account's respondents with those addresses become Bounced.
#[utoipa::path(tag = "Email bounces", request_body = FailuresBody,
    responses((status = 200, body = RecordedResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("permanentFailure.create"))))]
#[post("/email-bounces/permanent-failures")]
pub async fn record_failures(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<FailuresBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let mut errors = Vec::new();
    let mut failures = Vec::new();
    for (index, failure) in body.0.failures.into_iter().enumerate() {
        let path = format!("failures[{index}].");
        let Some(failed_at) = parse_instant(&failure.failed_at, DayEdge::Start) else {
            errors.push(FieldError::new(format!("{path}failedAt"), "must be an RFC 3339 date-time"));
            continue;
        };
        match NewPermanentFailure::check(
            &failure.email_address,
            &failure.sending_domain,
            failed_at,
            &failure.reason,
            &path,
        ) {
            Ok(checked) => failures.push(checked),
            Err(item_errors) => errors.extend(item_errors),
        }
    }
    blocking::respond(
        &state,
        &req,
        move |uow, _| {
            DomainError::check(errors)?;
            blocklist::record_failures(uow, account, failures)
        },
        |recorded| HttpResponse::Ok().json(RecordedResponse { recorded }),
    )
    .await
}
