//! `POST /sms/inbound`: replies of TWOWAY respondents, delivered by the SMS provider with a shared secret.

use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use canvass_domain::use_cases::twoway::{self, Reply, ReplyOutcome};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;

use crate::blocking;
use crate::input::Body;
use crate::problem::Problem;
use crate::state::AppState;

/// The header that carries the shared secret.
pub const SECRET_HEADER: &str = "x-canvass-sms-secret";

/// A text message a respondent sent.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboundBody {
    /// The sender's number (E.164).
    pub from: String,
    /// The number (or sender name) the message was sent to. When given, only conversations sent from it are
    /// considered; without it the reply goes to the open conversation that was last sent a message.
    #[serde(default)]
    pub to: Option<String>,
    /// The message text.
    pub text: String,
    /// The provider's id of the message; a repeated delivery with the same id changes nothing.
    #[serde(default)]
    pub message_id: Option<String>,
}

/// What the reply led to.
#[derive(Debug, Serialize, ToSchema)]
pub struct InboundResponse {
    /// `recorded`, `askedAgain` or `ignored`.
    pub outcome: &'static str,
    /// Whether the survey is complete now.
    pub completed: bool,
}

/// Whether the presented secret equals the configured one (compared as SHA-256 digests, in constant time).
fn secret_matches(configured: &str, presented: &str) -> bool {
    Sha256::digest(configured.as_bytes()).ct_eq(&Sha256::digest(presented.as_bytes())).into()
}

/// Records a TWOWAY respondent's reply and queues the next question (or the thank-you).
#[utoipa::path(tag = "SMS", request_body = InboundBody,
    params(("X-Canvass-Sms-Secret" = String, Header, description = "The shared secret configured as SMS_INBOUND_SECRET")),
    responses((status = 200, body = InboundResponse), (status = 400, body = Problem), (status = 401, body = Problem),
        (status = 404, description = "inbound SMS is not configured", body = Problem)))]
#[post("/sms/inbound")]
pub async fn inbound(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: Body<InboundBody>,
) -> Result<HttpResponse, Problem> {
    let Some(configured) = state.sms_inbound_secret.clone() else {
        return Err(Problem::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "inbound SMS is not configured (SMS_INBOUND_SECRET)",
        ));
    };
    let presented = req.headers().get(SECRET_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !secret_matches(&configured, presented) {
        return Err(Problem::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send the shared secret as X-Canvass-Sms-Secret",
        ));
    }
    let body = body.0;
    let outcome = blocking::run(&state, move |uow, clock| {
        let reply = Reply {
            from: &body.from,
            to: body.to.as_deref(),
            text: &body.text,
            message_id: body.message_id.as_deref(),
        };
        twoway::reply(uow, clock, reply)
    })
    .await?;
    let (outcome, completed) = match outcome {
        ReplyOutcome::Ignored => ("ignored", false),
        ReplyOutcome::AskedAgain => ("askedAgain", false),
        ReplyOutcome::Recorded { completed } => ("recorded", completed),
    };
    Ok(HttpResponse::Ok().json(InboundResponse { outcome, completed }))
}
