//! `POST /inbound/dsn`: late bounces. The relay's bounce mailbox hands over a delivery status notification
//! (RFC 3464) with a shared secret; each recipient that failed for good is recorded as a permanent failure.

use actix_web::http::header::{HeaderValue, RETRY_AFTER};
use actix_web::{post, web, HttpRequest, HttpResponse};
use canvass_domain::use_cases::bounces::{self, ReportOutcome};
use serde::Serialize;
use utoipa::ToSchema;

use crate::blocking;
use crate::extract::body::read_body;
use crate::problem::{Problem, ProblemKind};
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

/// Seconds a relay is asked to wait before it hands over a report of a message still being sent.
const IN_FLIGHT_RETRY_AFTER: u64 = 60;

/// Records a delivery status notification: the whole message as the relay's mailer wrote it.
#[utoipa::path(tag = "Delivery", security(()),
    request_body(content = String, content_type = "message/rfc822",
        description = "One delivery status notification (multipart/report; report-type=delivery-status), whole"),
    params(("X-Canvass-Inbound-Secret" = String, Header, description = "The shared secret configured as INBOUND_SECRET")),
    responses(
        (status = 200, body = DsnResponse, description = "Recorded; a report of no message of the service changes nothing"),
        (status = 400, body = Problem, content_type = "application/problem+json", description = "Not a delivery status notification"),
        (status = 401, body = Problem, content_type = "application/problem+json", description = "Wrong or missing secret"),
        (status = 404, body = Problem, content_type = "application/problem+json", description = "INBOUND_SECRET is not set"),
        (status = 413, body = Problem, content_type = "application/problem+json", description = "Over 1 MiB"),
        (status = 503, body = Problem, content_type = "application/problem+json",
            description = "The message is still being sent (or the database cannot be reached): hand the report over again after Retry-After seconds",
            headers(("Retry-After" = u64, description = "Seconds to wait")))))]
#[post("/inbound/dsn")]
pub async fn inbound_dsn(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Problem> {
    // The secret is checked before the body is read: an endpoint that is off, or a caller without the secret,
    // gets 404 or 401 whatever it sends.
    super::shared_secret::check(&req, SECRET_HEADER, state.inbound_secret.as_deref(), "INBOUND_SECRET")?;
    let body = read_body(&req, payload.into_inner()).await?;
    let report = canvass_dsn::parse_report(&body).map_err(|e| Problem::invalid_field("body", e.to_string()))?;
    match blocking::run(&state, move |uow, clock| bounces::record_report(uow, clock, &report)).await? {
        ReportOutcome::Recorded { permanent_failures, ignored } => {
            state.metrics.count_late_bounces(permanent_failures);
            Ok(HttpResponse::Ok().json(DsnResponse { permanent_failures, ignored }))
        }
        ReportOutcome::InFlight => {
            let problem = Problem::new(
                ProblemKind::MessageInFlight,
                "the message this report is about is still being sent; hand the report over again later",
            );
            let mut response = actix_web::ResponseError::error_response(&problem);
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(IN_FLIGHT_RETRY_AFTER));
            Ok(response)
        }
    }
}
