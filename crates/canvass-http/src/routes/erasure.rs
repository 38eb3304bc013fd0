//! `/accounts/erasure`: erasing one person across the account on request.

use actix_web::{post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::use_cases::erasure;

use crate::blocking;
use crate::dto::erasure::{ErasureBody, ErasureResponse};
use crate::extract::body::Body;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Erases every respondent of the account with this contact, in every sendout: contact details, background
/// data, survey links and unsent messages, and the permanent failures recorded for the address. Answer sets stay
/// without a respondent unless `includeAnswers` is true. The blocklist keeps its entry. A repeat answers zeros.
#[utoipa::path(tag = "Accounts", request_body = ErasureBody,
    responses((status = 200, body = ErasureResponse), (status = 400, body = Problem), (status = 401, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("person.erase"))))]
#[post("/accounts/erasure")]
pub async fn erase(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<ErasureBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let body = body.0;
    blocking::respond(
        &state,
        &req,
        move |uow, _| erasure::erase_person(uow, account, &body.contact_details, body.include_answers),
        |erased| HttpResponse::Ok().json(ErasureResponse::from(erased)),
    )
    .await
}
