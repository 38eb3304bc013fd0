//! Timelines: `GET .../respondents/{respondentId}/events` (a respondent's events) and `GET
//! /contacts/{contactId}/events` (those of every respondent made from the contact).

use actix_web::{get, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::{ContactId, RespondentId, SendoutId, SurveyId};
use canvass_domain::use_cases::timelines;

use crate::blocking;
use crate::dto::sight::Sighted;
use crate::dto::timeline::{ContactEventResponse, EventResponse};
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// What happened to a respondent, oldest first: added, released or held back, its messages' outcomes with the
/// relay's words, its pages viewed and saved, completed, opted out.
#[utoipa::path(tag = "Respondents",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey"),
        ("respondentId" = i64, Path, description = "A respondent of that sendout")),
    responses((status = 200, body = Vec<EventResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/respondents/{respondentId}/events")]
pub async fn of_respondent(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId, RespondentId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, sendout, respondent)) = (caller.account(), path.0);
    let events =
        blocking::run(&state, move |uow, _| timelines::of_respondent(uow, account, survey, sendout, respondent))
            .await?;
    let seen = |event| EventResponse::from(event).seen_by(&caller.0);
    Ok(HttpResponse::Ok().json(events.into_iter().map(seen).collect::<Vec<_>>()))
}

/// The timelines of every respondent made from the contact, joined in time order (its latest 5,000 events), each
/// event naming its sendout and respondent.
#[utoipa::path(tag = "Contacts", params(("contactId" = i64, Path, description = "A contact of the account")),
    responses((status = 200, body = Vec<ContactEventResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/contacts/{contactId}/events")]
pub async fn of_contact(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<ContactId>,
) -> Result<HttpResponse, Problem> {
    let (account, contact) = (caller.account(), path.0);
    let events = blocking::run(&state, move |uow, _| timelines::of_contact(uow, account, contact)).await?;
    let seen = |event| ContactEventResponse::from(event).seen_by(&caller.0);
    Ok(HttpResponse::Ok().json(events.into_iter().map(seen).collect::<Vec<_>>()))
}
