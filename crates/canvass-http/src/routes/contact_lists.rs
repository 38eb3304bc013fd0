//! `/contact-lists`: lists of the directory's contacts (created, read with their member counts, deleted; members
//! added and removed), and `respondents/from-list`, which adds a whole list to a sendout.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{ContactId, ContactListId, SendoutId, SurveyId};
use canvass_domain::use_cases::contact_lists;

use crate::blocking;
use crate::dto::contact_list::{
    AddMembersBody, AddedMembersResponse, ContactListResponse, CreateContactListBody, FromListBody, FromListResponse,
};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Creates an empty list.
#[utoipa::path(tag = "Contacts", request_body = CreateContactListBody,
    responses((status = 201, body = ContactListResponse),
        (status = 400, body = Problem, description = "A blank name, or one of more than 200 characters"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contactList.create"))))]
#[post("/contact-lists")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateContactListBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let name = body.0.name;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| contact_lists::create(uow, clock, account, &name),
        |list| HttpResponse::Created().json(ContactListResponse::from(list)),
    )
    .await
}

/// The account's lists, in creation order, each with its member count.
#[utoipa::path(tag = "Contacts", responses((status = 200, body = Vec<ContactListResponse>)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/contact-lists")]
pub async fn all(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let found = blocking::run(&state, move |uow, _| contact_lists::list(uow, account)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(ContactListResponse::from).collect::<Vec<_>>()))
}

/// Deletes a list; its contacts stay in the directory.
#[utoipa::path(tag = "Contacts", params(("listId" = i64, Path, description = "A list of the account")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contactList.delete"))))]
#[delete("/contact-lists/{listId}")]
pub async fn delete(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ContactListId>,
) -> Result<HttpResponse, Problem> {
    let (account, list) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| contact_lists::delete(uow, account, list)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Makes 1 to 10,000 of the account's contacts members of a list; `added` counts those that were no member before.
#[utoipa::path(tag = "Contacts", request_body = AddMembersBody,
    params(("listId" = i64, Path, description = "A list of the account")),
    responses((status = 200, body = AddedMembersResponse),
        (status = 400, body = Problem, description = "No ids, or more than 10,000"),
        (status = 404, body = Problem, description = "No such list, or an id that is no contact of the account \
            (none is added)"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contactList.addMembers"))))]
#[post("/contact-lists/{listId}/members")]
pub async fn add_members(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<ContactListId>,
    body: Body<AddMembersBody>,
) -> Result<HttpResponse, Problem> {
    let (account, list) = (caller.account(), path.0);
    let contacts = body.0.ids();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| contact_lists::add_members(uow, clock, account, list, &contacts),
        |added| HttpResponse::Ok().json(AddedMembersResponse { added }),
    )
    .await
}

/// Removes a contact from a list; the contact stays in the directory.
#[utoipa::path(tag = "Contacts",
    params(("listId" = i64, Path, description = "A list of the account"),
        ("contactId" = i64, Path, description = "A member of that list")),
    responses((status = 204, description = "Removed"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("contactList.removeMember"))))]
#[delete("/contact-lists/{listId}/members/{contactId}")]
pub async fn remove_member(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(ContactListId, ContactId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (list, contact)) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| contact_lists::remove_member(uow, account, list, contact)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Adds every member of a list as a respondent (Pending until the next activation, sent the link), in one call
/// however long the list: members without a detail of the sendout's kind, blocklisted ones and ones the sendout
/// has already are refused one by one. Each respondent keeps the contact's id and language, and as background
/// data the attributes named as a background data label of the sendout.
#[utoipa::path(tag = "Respondents", request_body = FromListBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = FromListResponse), (status = 400, body = Problem),
        (status = 404, body = Problem, description = "No such survey, sendout or list"),
        (status = 409, body = Problem, description = "A LINK sendout, whose respondents are its visitors"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("respondent.createFromList"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/respondents/from-list")]
pub async fn add_to_sendout(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<FromListBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, sendout)) = (caller.account(), path.0);
    let list = ContactListId::new(body.0.list_id);
    blocking::respond(
        &state,
        &req,
        move |uow, clock| contact_lists::add_to_sendout(uow, clock, account, survey, sendout, list),
        |outcome| HttpResponse::Ok().json(FromListResponse::from(outcome)),
    )
    .await
}
