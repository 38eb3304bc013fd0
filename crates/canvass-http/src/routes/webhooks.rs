//! `/webhooks`: the account's signed webhooks, their test events and their deliveries.

use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use canvass_domain::account::Permission;
use canvass_domain::ids::WebhookId;
use canvass_domain::use_cases::webhooks::{self, WebhookInput};

use crate::blocking;
use crate::dto::webhook::{CreateWebhookBody, CreatedWebhookResponse, DeliveryResponse, WebhookResponse};
use crate::extract::body::Body;
use crate::extract::path::Ids;
use crate::middleware::auth::Authenticated;
use crate::problem::Problem;
use crate::state::AppState;

/// Creates a webhook; the answer carries its signing secret, shown this once.
#[utoipa::path(tag = "Webhooks", request_body = CreateWebhookBody,
    responses((status = 201, body = CreatedWebhookResponse), (status = 400, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("webhook.create"))))]
#[post("/webhooks")]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    body: Body<CreateWebhookBody>,
) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let body = body.0;
    let input = WebhookInput {
        url: body.url,
        events: body.events.into_iter().map(Into::into).collect(),
        description: body.description,
    };
    let allow_private = state.webhook_allow_private;
    blocking::respond(
        &state,
        &req,
        move |uow, clock| webhooks::create(uow, clock, account, input, allow_private),
        |created| HttpResponse::Created().json(CreatedWebhookResponse::from(created)),
    )
    .await
}

/// The account's webhooks, in creation order (without their secrets).
#[utoipa::path(tag = "Webhooks",
    responses((status = 200, body = Vec<WebhookResponse>)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/webhooks")]
pub async fn list(state: web::Data<AppState>, caller: Authenticated) -> Result<HttpResponse, Problem> {
    let account = caller.account();
    let found = blocking::run(&state, move |uow, _| webhooks::list(uow, account)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(WebhookResponse::from).collect::<Vec<_>>()))
}

/// One webhook of the account (without its secret).
#[utoipa::path(tag = "Webhooks",
    params(("webhookId" = i64, Path, description = "A webhook of the account")),
    responses((status = 200, body = WebhookResponse), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/webhooks/{webhookId}")]
pub async fn get(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<WebhookId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let webhook = blocking::run(&state, move |uow, _| webhooks::get(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(WebhookResponse::from(webhook)))
}

/// Deletes a webhook and its deliveries, pending ones included.
#[utoipa::path(tag = "Webhooks",
    params(("webhookId" = i64, Path, description = "A webhook of the account")),
    responses((status = 204, description = "Deleted"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("webhook.delete"))))]
#[delete("/webhooks/{webhookId}")]
pub async fn remove(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<WebhookId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    blocking::run(&state, move |uow, _| webhooks::delete(uow, account, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Queues a `webhook.test` event for this webhook, whatever its events; it is delivered and signed like any other.
#[utoipa::path(tag = "Webhooks",
    params(("webhookId" = i64, Path, description = "A webhook of the account")),
    responses((status = 202, description = "The test event is queued for delivery"), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name())), ("x-canvass-audit" = json!("webhook.test"))))]
#[post("/webhooks/{webhookId}/test")]
pub async fn test(
    state: web::Data<AppState>,
    req: HttpRequest,
    caller: Authenticated,
    path: Ids<WebhookId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    blocking::respond(
        &state,
        &req,
        move |uow, clock| webhooks::test(uow, clock, account, id),
        |()| HttpResponse::Accepted().finish(),
    )
    .await
}

/// The webhook's newest deliveries (at most 100), newest first, with their attempts.
#[utoipa::path(tag = "Webhooks",
    params(("webhookId" = i64, Path, description = "A webhook of the account")),
    responses((status = 200, body = Vec<DeliveryResponse>), (status = 404, body = Problem)),
    extensions(("x-canvass-permission" = json!(Permission::Governance.name()))))]
#[get("/webhooks/{webhookId}/deliveries")]
pub async fn deliveries(
    state: web::Data<AppState>,
    caller: Authenticated,
    path: Ids<WebhookId>,
) -> Result<HttpResponse, Problem> {
    let (account, id) = (caller.account(), path.0);
    let found = blocking::run(&state, move |uow, _| webhooks::deliveries(uow, account, id)).await?;
    Ok(HttpResponse::Ok().json(found.into_iter().map(DeliveryResponse::from).collect::<Vec<_>>()))
}
