//! `/accounts/erasure`: erasing one person across the account on request, with a receipt to show for it.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::ErasureReceiptId;
use canvass_domain::use_cases::erasure;

use crate::blocking;
use crate::dto::erasure::{ErasureBody, ErasureResponse, ReceiptResponse};
use crate::dto::person::{PersonQuery, PersonResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
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
    let (who, body) = (caller.0, body.0);
    blocking::respond(
        &state,
        &req,
        move |uow, clock| erasure::erase_with_receipt(uow, clock, &who, &body.contact_details, body.include_answers),
        |kept| HttpResponse::Ok().json(ErasureResponse::from(kept)),
    )
    .await
}

/// An erasure's receipt: when, by whom and what was erased; never whom.
#[utoipa::path(tag = "Accounts",
    params(("receiptId" = i64, Path, description = "The `receiptId` an erasure answered")),
    responses((status = 200, body = ReceiptResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/accounts/erasures/{receiptId}")]
pub async fn receipt(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ErasureReceiptId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let kept = blocking::run(&state, move |uow, _| erasure::receipt(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(ReceiptResponse::from(kept)))
}

/// Everything the account holds on one person, as one document (a subject access request): the directory's
/// contacts, the respondents made of it in every sendout with their background data, answer sets and timelines,
/// copies of those answer sets, blocklist entries, permanent failures and the messages not yet sent. A contact
/// the account does not hold answers empty lists.
#[utoipa::path(tag = "Accounts", params(PersonQuery),
    responses((status = 200, body = PersonResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/accounts/persons")]
pub async fn person(
    state: web::Data<AppState>,
    caller: Authenticated,
    query: QueryOf<PersonQuery>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let asked = query.0.contact_details;
    let key = canvass_domain::distribution::contact_key(&asked);
    let held = blocking::run(&state, move |uow, _| erasure::held_on_person(uow, account, &asked)).await?;
    Ok(HttpResponse::Ok().json(PersonResponse::new(key, held, &state.public_url)))
}
