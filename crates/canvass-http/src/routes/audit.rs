//! `/accounts/audit-events`: the account's audit log, newest first, a page at a time.

use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::audit::{AuditCursor, DEFAULT_PAGE_SIZE};
use canvass_domain::use_cases::audit;

use crate::blocking;
use crate::dto::audit::{AuditPageResponse, AuditQuery};
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// The account's audit log: every change, export, report and erasure, every key and user change, and the refusals
/// (4xx) of those, newest first; `nextCursor` reads on.
#[utoipa::path(tag = "Accounts", params(AuditQuery),
    responses((status = 200, body = AuditPageResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Admin.name()))))]
#[get("/accounts/audit-events")]
pub async fn events(
    state: web::Data<AppState>,
    caller: Authenticated,
    query: QueryOf<AuditQuery>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let query = query.0;
    let cursor = match query.cursor.as_deref() {
        None => None,
        Some(text) => Some(
            AuditCursor::parse(text)
                .ok_or_else(|| Problem::invalid_field("cursor", "must be the nextCursor of a page of this log"))?,
        ),
    };
    let (filter, size) = (query.filter(), query.page_size.unwrap_or(DEFAULT_PAGE_SIZE));
    let page = blocking::run(&state, move |uow, _| audit::page(uow, account, filter, cursor, size)).await?;
    Ok(HttpResponse::Ok().json(AuditPageResponse::from(page)))
}
