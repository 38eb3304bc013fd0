//! `POST /surveys/{surveyId}/sendouts/{sendoutId}/preview`: a respondent's invitation as it would be sent.

use actix_web::{post, web, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::delivery::LinkBase;
use canvass_domain::ids::{RespondentId, SendoutId, SurveyId};
use canvass_domain::use_cases::sendouts;

use crate::blocking;
use crate::dto::preview::{PreviewBody, PreviewResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// The subject and text a respondent is sent, as it gets them: in the language it is shown, its contact's names
/// and attributes and its background data filled into the placeholders (defaults where values are missing), its
/// own links. Nothing is sent or changed.
#[utoipa::path(tag = "Sendouts", request_body = PreviewBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = PreviewResponse), (status = 400, body = Problem),
        (status = 404, body = Problem, description = "No such survey, sendout, or respondent of the sendout"),
        (status = 409, body = Problem, description = "A LOGIN or LINK sendout, which sends no invitation"),
        (status = 415, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/preview")]
pub async fn preview(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<PreviewBody>,
) -> Result<HttpResponse, Problem> {
    let (account, ids) = (caller.account(), path.0);
    let respondent = RespondentId::new(body.0.respondent_id);
    let base = LinkBase::new(&state.public_url);
    let (subject, text) =
        blocking::run(&state, move |uow, _| sendouts::preview(uow, &base, account, ids, respondent)).await?;
    Ok(HttpResponse::Ok().json(PreviewResponse { subject, text }))
}
