//! `POST /sms/inbound`: replies of TWOWAY respondents, delivered by the SMS provider with a shared secret.

use actix_web::{post, web, HttpRequest, HttpResponse};
use canvass_domain::use_cases::twoway::{self, Reply, ReplyOutcome};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::blocking;
use crate::extract::body::read_json;
use crate::problem::Problem;
use crate::state::AppState;

/// The header that carries the shared secret.
pub const SECRET_HEADER: &str = "x-canvass-sms-secret";

/// A text message a respondent sent.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboundBody {
    /// The sender's number (E.164).
    #[schema(min_length = 1, max_length = 32)]
    pub from: String,
    /// The number the message was sent to: only conversations sent from it, of the account that owns it, are
    /// considered. Without it the reply is ignored.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub to: Option<String>,
    /// The message text.
    #[schema(max_length = 1600)]
    pub text: String,
    /// The provider's id of the message; a repeated delivery with the same id changes nothing.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub message_id: Option<String>,
}

impl InboundBody {
    /// Refuses an empty sender and fields longer than their limits (docs/decisions.md), naming each.
    fn check_lengths(&self) -> Result<(), Vec<canvass_domain::FieldError>> {
        use canvass_domain::limits::{push_length, MESSAGE_ID, PHONE, SMS_TEXT};
        let mut errors = Vec::new();
        if self.from.is_empty() {
            errors.push(canvass_domain::FieldError::new("from", "must not be empty"));
        }
        push_length(&mut errors, "from", &self.from, PHONE);
        push_length(&mut errors, "to", self.to.as_deref().unwrap_or_default(), PHONE);
        push_length(&mut errors, "text", &self.text, SMS_TEXT);
        push_length(&mut errors, "messageId", self.message_id.as_deref().unwrap_or_default(), MESSAGE_ID);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// What the reply led to.
#[derive(Debug, Serialize, ToSchema)]
pub struct InboundResponse {
    /// `recorded`, `askedAgain` or `ignored`.
    pub outcome: &'static str,
    /// Whether the survey is complete now.
    pub completed: bool,
}

/// Records a TWOWAY respondent's reply and queues the next question (or the thank-you).
#[utoipa::path(tag = "SMS", security(()), request_body = InboundBody,
    params(("X-Canvass-Sms-Secret" = String, Header, description = "The shared secret configured as SMS_INBOUND_SECRET")),
    responses((status = 200, body = InboundResponse), (status = 400, body = Problem), (status = 401, body = Problem),
        (status = 404, description = "inbound SMS is not configured", body = Problem)))]
#[post("/sms/inbound")]
pub async fn inbound(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Problem> {
    // The secret is checked before the body is read or parsed.
    super::shared_secret::check(&req, SECRET_HEADER, state.sms_inbound_secret.as_deref(), "SMS_INBOUND_SECRET")?;
    let body: InboundBody = read_json(&req, payload.into_inner()).await?;
    body.check_lengths().map_err(Problem::invalid)?;
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
