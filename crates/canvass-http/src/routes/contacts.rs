//! `/contacts`: the account's directory of contacts, kept across sendouts: created (one that exists by email
//! address or phone number is a 409 naming it), read, searched a page at a time, changed by a PATCH that merges,
//! deleted.

use actix_web::{delete, get, patch, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::directory::ContactInput;
use canvass_domain::ids::{ContactId, ContactListId};
use canvass_domain::paging::PageRequest;
use canvass_domain::use_cases::{contact_import, contacts};

use crate::blocking;
use crate::csv_upload;
use crate::dto::contact::{
    ContactResponse, ContactsPageResponse, ContactsQuery, CreateContactBody, ImportResponse, PatchContactBody,
};
use crate::dto::sight::Sighted;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Adds a contact to the directory.
#[utoipa::path(tag = "Contacts", request_body = CreateContactBody,
    responses((status = 201, body = ContactResponse),
        (status = 400, body = Problem, description = "Neither email nor phone, one that is not an email address or \
            an E.164 number, a name too long, an attribute of another name form or too long, more than 50"),
        (status = 409, body = Problem, description = "A contact has this email address or phone number \
            (`duplicate`): `contactId` names it"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contact.create"))))]
#[post("/contacts")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateContactBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let input = ContactInput::from(body.0);
    let create = move |uow: &mut dyn canvass_domain::ports::UnitOfWork, clock: &dyn canvass_domain::clock::Clock| {
        contacts::create(uow, clock, account, input)
    };
    blocking::respond(&state, &req, create, |contact| HttpResponse::Created().json(ContactResponse::from(contact)))
        .await
}

/// Imports a CSV file of up to 100,000 contacts (UTF-8, an optional byte order mark; a header row naming `email`
/// or `phone`; the columns `email`, `phone`, `firstName`, `lastName`, `language`, any other an attribute), read
/// as it arrives. Each row, in file order, updates the contact its email address names, else the one its phone
/// number names (an empty cell leaves that field as it is), or creates one; a row naming two contacts or breaking
/// a rule is rejected with its line. A malformed file changes nothing.
#[utoipa::path(tag = "Contacts",
    request_body(content = String, content_type = "text/csv",
        description = "A header row, then one contact a row; up to 100,000 rows and 64 MiB"),
    responses((status = 200, body = ImportResponse),
        (status = 400, body = Problem, description = "A malformed file: no header row naming `email` or `phone`,             a column named twice or no attribute name, a row with another number of cells, bytes that are not             UTF-8, more than 100,000 rows. The field names the line (`line 7`); nothing is stored"),
        (status = 408, body = Problem, description = "No part of the body arrived for the body read timeout"),
        (status = 409, body = Problem, description = "Another request changed one of the contacts meanwhile; retry"),
        (status = 413, body = Problem, description = "A body of more than 64 MiB"),
        (status = 415, body = Problem, description = "A body that is not `text/csv`")),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contact.import"))))]
#[post("/contacts/import")]
pub async fn import(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    payload: web::Payload,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let file = csv_upload::receive(&req, payload, state.protection.body_read_timeout).await?;
    let outcome =
        blocking::run(&state, move |uow, clock| contact_import::import(uow, clock, account, file.lines())).await?;
    Ok(HttpResponse::Ok().json(ImportResponse::from(outcome)))
}

/// One page of the directory's contacts, in creation order, those matching `search` and those of `listId` when
/// they are given.
#[utoipa::path(tag = "Contacts", params(ContactsQuery),
    responses((status = 200, body = ContactsPageResponse), (status = 400, body = Problem),
        (status = 404, body = Problem, description = "The account has no such list")),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/contacts")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    query: QueryOf<ContactsQuery>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let query = query.0;
    let page =
        PageRequest::new(query.page_number.unwrap_or(1), query.page_size.unwrap_or(100), "pageNumber", "pageSize")
            .map_err(Problem::invalid)?;
    let (search, list) = (query.search, query.list_id.map(ContactListId::new));
    let found =
        blocking::run(&state, move |uow, _| contacts::page(uow, account, search.as_deref(), list, page)).await?;
    Ok(HttpResponse::Ok().json(ContactsPageResponse::from(found).seen_by(&caller.0)))
}

/// One contact of the directory.
#[utoipa::path(tag = "Contacts", params(("contactId" = i64, Path, description = "A contact of the account")),
    responses((status = 200, body = ContactResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/contacts/{contactId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ContactId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let contact = blocking::run(&state, move |uow, _| contacts::get(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(ContactResponse::from(contact).seen_by(&caller.0)))
}

/// Changes a contact: an absent field stays, null clears it, `attributes` merges (a name set to null goes).
#[utoipa::path(tag = "Contacts", request_body = PatchContactBody,
    params(("contactId" = i64, Path, description = "A contact of the account")),
    responses((status = 200, body = ContactResponse),
        (status = 400, body = Problem, description = "The contact as changed breaks a rule of a new contact"),
        (status = 404, body = Problem),
        (status = 409, body = Problem, description = "Another contact has this email address or phone number \
            (`duplicate`): `contactId` names it"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contact.change"))))]
#[patch("/contacts/{contactId}")]
pub async fn patch(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ContactId>,
    body: Body<PatchContactBody>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let change = body.0.into();
    let contact = blocking::run(&state, move |uow, clock| contacts::patch(uow, clock, account, id, change)).await?;
    Ok(HttpResponse::Ok().json(ContactResponse::from(contact)))
}

/// Deletes a contact; the respondents made from it keep their own copy of its details.
#[utoipa::path(tag = "Contacts", params(("contactId" = i64, Path, description = "A contact of the account")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contact.delete"))))]
#[delete("/contacts/{contactId}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ContactId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| contacts::delete(uow, account, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
