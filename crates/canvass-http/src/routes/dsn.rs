//! `POST /inbound/dsn`: late bounces. The relay's bounce mailbox hands over a delivery status notification
//! (RFC 3464) with a shared secret; each recipient that failed for good is recorded as a permanent failure.

use actix_web::{post, web, HttpRequest, HttpResponse};
use canvass_domain::use_cases::bounces::{self, ReportOutcome};
use serde::Serialize;
use utoipa::ToSchema;

use crate::blocking;
use crate::problem::Problem;
use crate::state::AppState;

/// The header that carries the shared secret.
pub const SECRET_HEADER: &str = "x-canvass-inbound-secret";

/// What a notification changed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DsnResponse {
    /// Recipients recorded as permanent failures (their respondents are Bounced).
    pub permanent_failures: usize,
    /// Recipients that changed nothing: delayed, a 4.x.x status, or a message the service did not send.
    pub ignored: usize,
}

impl From<ReportOutcome> for DsnResponse {
    fn from(outcome: ReportOutcome) -> Self {
        Self { permanent_failures: outcome.permanent_failures, ignored: outcome.ignored }
    }
}

/// Records a delivery status notification: the whole message as the relay's mailer wrote it.
#[utoipa::path(tag = "Delivery",
    request_body(content = String, content_type = "message/rfc822",
        description = "One delivery status notification (multipart/report; report-type=delivery-status), whole"),
    params(("X-Canvass-Inbound-Secret" = String, Header, description = "The shared secret configured as INBOUND_SECRET")),
    responses(
        (status = 200, body = DsnResponse, description = "Recorded; a report of no message of the service changes nothing"),
        (status = 400, body = Problem, content_type = "application/problem+json", description = "Not a delivery status notification"),
        (status = 401, body = Problem, content_type = "application/problem+json", description = "Wrong or missing secret"),
        (status = 404, body = Problem, content_type = "application/problem+json", description = "INBOUND_SECRET is not set"),
        (status = 413, body = Problem, content_type = "application/problem+json", description = "Over 1 MiB")))]
#[post("/inbound/dsn")]
pub async fn inbound_dsn(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, Problem> {
    super::shared_secret::check(&req, SECRET_HEADER, state.inbound_secret.as_deref(), "INBOUND_SECRET")?;
    let report = canvass_mail::dsn::parse_report(&body)
        .map_err(|e| Problem::invalid_field("body", format!("not a delivery status notification: {e}")))?;
    let outcome = blocking::run(&state, move |uow, clock| bounces::record_report(uow, clock, &report)).await?;
    Ok(HttpResponse::Ok().json(DsnResponse::from(outcome)))
}
