//! `/surveys/{surveyId}/sendouts...`: sendouts, their activation, labels and reminders.

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::clock::Clock;
use canvass_domain::distribution::Sendout;
use canvass_domain::ids::{SendoutId, SurveyId};
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::sendouts::{self, PublicAddress};
use canvass_domain::DomainError;

use crate::blocking;
use crate::dto::qr::{draw, QrFile, QrQuery};
use crate::dto::sendout::{
    CreateLabelBody, CreateReminderBody, CreateSendoutBody, LabelResponse, ReminderResponse, SendoutResponse,
};
use crate::dto::sight::Sighted;
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::extract::query::QueryOf;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Lists the survey's sendouts.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 200, body = Vec<SendoutResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts")]
pub async fn list(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<SurveyId>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| sendouts::list(uow, account, survey)).await?;
    let seen = |s| SendoutResponse::new(s, &state.public_url).seen_by(&caller.0);
    Ok(HttpResponse::Ok().json(found.into_iter().map(seen).collect::<Vec<_>>()))
}

/// Reads one sendout of the survey.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = SendoutResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let sendout = blocking::run(&state, move |uow, _| sendouts::get(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(SendoutResponse::new(sendout, &state.public_url).seen_by(&caller.0)))
}

/// Creates a Draft sendout (and its background data document), checked by the rules of its type.
#[utoipa::path(tag = "Sendouts", request_body = CreateSendoutBody,
    params(("surveyId" = i64, Path, description = "A survey of the account")),
    responses((status = 201, body = SendoutResponse),
        (status = 400, body = Problem, description = "A broken body rule, naming its field; an unknown `type` or `language` lists the values taken in `supportedValues`"),
        (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("sendout.create"))))]
#[post("/surveys/{surveyId}/sendouts")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<SurveyId>,
    body: Body<CreateSendoutBody>,
) -> Result<HttpResponse, Problem> {
    let (account, survey) = (caller.account(), path.0);
    let input = body.0.into_domain();
    let public_url = state.public_url.clone();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| sendouts::create(uow, clock, account, survey, input),
        move |sendout| HttpResponse::Created().json(SendoutResponse::new(sendout, &public_url)),
    )
    .await
}

/// Activates the sendout: Draft or Inactive becomes Active; every pending respondent is released.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = SendoutResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("sendout.activate"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/activate")]
pub async fn activate(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    changed(&state, &req, move |uow, clock| sendouts::activate(uow, clock, account, survey, id)).await
}

/// Deactivates an active sendout; a Draft sendout answers 409.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = SendoutResponse), (status = 404, body = Problem), (status = 409, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("sendout.deactivate"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/deactivate")]
pub async fn deactivate(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    changed(&state, &req, move |uow, clock| sendouts::deactivate(uow, clock, account, survey, id)).await
}

/// Gives a LINK sendout's open link a new handle: the old link opens nothing from then on (the 404 page).
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = SendoutResponse, description = "The sendout with its new `openLink`"),
        (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`no-public-link`: the sendout is not LINK")),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("openLink.rotate"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/open-link/rotate")]
pub async fn rotate_open_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    changed(&state, &req, move |uow, _| sendouts::rotate_open_link(uow, account, survey, id)).await
}

/// Runs a change of one sendout and answers 200 with the sendout as it is after it.
async fn changed<W>(state: &AppState, req: &HttpRequest, work: W) -> Result<HttpResponse, Problem>
where
    W: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<Sendout, DomainError> + Send + 'static,
{
    let public_url = state.public_url.clone();
    let render = move |sendout| HttpResponse::Ok().json(SendoutResponse::new(sendout, &public_url));
    blocking::respond(state, req, work, render).await
}

/// The sendout's public address as a QR code: a LINK sendout's open link, a LOGIN sendout's login page.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey"), QrQuery),
    responses(
        (status = 200, description = "The QR code, which reads as exactly the sendout's public URL",
            content((QrFile = "image/svg+xml"), (QrFile = "image/png"))),
        (status = 400, body = Problem, description = "A bad `format` (`supportedValues` lists them) or `size`"),
        (status = 404, body = Problem),
        (status = 409, body = Problem, description = "`no-public-link`: an EMAIL, SMS or TWOWAY sendout")),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/qr")]
pub async fn qr(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    query: QueryOf<QrQuery>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let (format, size) = query.0.checked().map_err(|error| Problem::invalid(vec![error]))?;
    let address = blocking::run(&state, move |uow, _| sendouts::public_address(uow, account, survey, id)).await?;
    let url = match address {
        PublicAddress::OpenLink(handle) => format!("{}/s/{handle}", state.public_url),
        PublicAddress::LoginPage(sendout) => format!("{}/login/{sendout}", state.public_url),
    };
    let image =
        draw(&url, format, size).ok_or_else(|| Problem::internal(&"the public URL is too long for a QR code"))?;
    Ok(HttpResponse::Ok().content_type(image.content_type).body(image.bytes))
}

/// Lists the sendout's background data labels.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = Vec<LabelResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/labels")]
pub async fn list_labels(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let labels = blocking::run(&state, move |uow, _| sendouts::list_labels(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(labels.into_iter().map(LabelResponse::from).collect::<Vec<_>>()))
}

/// Creates a background data label (function 0); its name is unique within the sendout (409).
#[utoipa::path(tag = "Sendouts", request_body = CreateLabelBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 201, body = LabelResponse), (status = 400, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("label.create"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/labels")]
pub async fn create_label(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<CreateLabelBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let body = body.0;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| sendouts::create_label(uow, clock, account, survey, id, &body.name, body.label_type.into()),
        |label| HttpResponse::Created().json(LabelResponse::from(label)),
    )
    .await
}

/// Lists the sendout's reminders.
#[utoipa::path(tag = "Sendouts",
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 200, body = Vec<ReminderResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionRead.name()))))]
#[get("/surveys/{surveyId}/sendouts/{sendoutId}/reminders")]
pub async fn list_reminders(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let reminders = blocking::run(&state, move |uow, _| sendouts::list_reminders(uow, account, survey, id)).await?;
    Ok(HttpResponse::Ok().json(reminders.into_iter().map(ReminderResponse::from).collect::<Vec<_>>()))
}

/// Creates a reminder for the respondents its SendoutLogic names.
#[utoipa::path(tag = "Sendouts", request_body = CreateReminderBody,
    params(("surveyId" = i64, Path, description = "A survey of the account"),
        ("sendoutId" = i64, Path, description = "A sendout of that survey")),
    responses((status = 201, body = ReminderResponse), (status = 400, body = Problem), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::DistributionWrite.name())), ("x-canvass-audit" = json!("reminder.create"))))]
#[post("/surveys/{surveyId}/sendouts/{sendoutId}/reminders")]
pub async fn create_reminder(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<(SurveyId, SendoutId)>,
    body: Body<CreateReminderBody>,
) -> Result<HttpResponse, Problem> {
    let (account, (survey, id)) = (caller.account(), path.0);
    let input = body.0.into_domain();
    blocking::respond(
        &state,
        &req,
        move |uow, clock| sendouts::create_reminder(uow, clock, account, survey, id, input),
        |reminder| HttpResponse::Created().json(ReminderResponse::from(reminder)),
    )
    .await
}
