//! Bodies of the respondent endpoints.

use std::collections::BTreeMap;

use canvass_domain::distribution::{Respondent, RespondentInput, RespondentStatus};
use canvass_domain::use_cases::respondents::{BatchOutcome, Rejection};
use canvass_domain::{DomainError, FieldError};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::schemas::BackgroundValues;
use super::sendout::LanguageBody;

use super::mirror::mirrored;
use crate::extract::body::from_value_at;

/// A respondent to add (also an element of a batch: RespondentRequest).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RespondentBody {
    /// Email address (EMAIL), E.164 phone number (SMS, TWOWAY) or login identifier (LOGIN).
    #[schema(min_length = 1, max_length = 320)]
    pub contact_details: String,
    /// True: the service sends the link; false: the caller distributes it.
    pub send_mail: bool,
    /// Background data: label id (function 0) to a non-empty value.
    #[serde(default)]
    #[schema(value_type = BackgroundValues)]
    pub background_data: BTreeMap<i64, String>,
    /// The language it sees the survey in, before its sendout's; absent or null for its sendout's.
    #[serde(default)]
    pub language: Option<LanguageBody>,
}

impl From<RespondentBody> for RespondentInput {
    fn from(body: RespondentBody) -> Self {
        Self {
            contact_details: body.contact_details,
            send_mail: body.send_mail,
            background_data: super::cells_to_domain(body.background_data),
            language: body.language.map(Into::into),
        }
    }
}

/// The name of the batch's list on the wire, which the domain's batch-relative field paths go under.
pub const BATCH_LIST: &str = "surveyRespondents";

/// Adds respondents in one batch.
// The items are read one by one (`items`), so that a 400 names every malformed one; the schema states what each
// must be.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchBody {
    /// 1 to 1000 respondents.
    #[schema(value_type = Vec<RespondentBody>, min_items = 1, max_items = 1000)]
    pub survey_respondents: Vec<serde_json::Value>,
}

impl BatchBody {
    /// Each item read on its own: a respondent, or the errors of the fields that could not be read, with paths
    /// relative to the batch (`[3].sendMail`), as the domain writes them.
    pub fn items(self) -> Vec<Result<RespondentInput, Vec<FieldError>>> {
        let read = |(index, item)| {
            from_value_at::<RespondentBody>(item, &format!("[{index}]")).map(Into::into).map_err(|error| vec![error])
        };
        self.survey_respondents.into_iter().enumerate().map(read).collect()
    }
}

/// Puts the batch's wire name in front of the batch-relative paths of a validation error.
pub fn under_batch_list(error: DomainError) -> DomainError {
    super::error_on_the_wire(error, |field| format!("{BATCH_LIST}{field}"))
}

mirrored! {
    /// Where a respondent is in distribution.
    #[derive(Debug, Clone, Copy, Serialize, ToSchema)]
    pub enum RespondentStatusBody <= RespondentStatus {
        /// Added, waiting for an activation.
        Pending,
        /// Released; the service sends at the send date.
        Scheduled,
        /// Released with sendMail false.
        Released,
        /// Handed to the relay.
        Sent,
        /// The address failed permanently.
        Bounced,
        /// Sending failed after every retry.
        Failed,
        /// Held back by the survey frequency limit.
        FrequencyLimitReached,
        /// Opted out or blocked after being added.
        Blocklisted,
        /// The sendout expired before sending.
        Expired,
    }
}

/// A respondent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RespondentResponse {
    /// The respondent's id.
    pub respondent_id: i64,
    /// Its sendout.
    pub sendout_id: i64,
    /// Contact details (empty once erased); null for an anonymous visitor of a LINK sendout's open link.
    #[schema(required = true)]
    pub contact_details: Option<String>,
    /// Whether the service sends the link.
    pub send_mail: bool,
    /// Label id to value.
    #[schema(value_type = BackgroundValues)]
    pub background_data: BTreeMap<i64, String>,
    /// Where it is in distribution.
    pub status: RespondentStatusBody,
    /// The respondent's personal survey link.
    pub survey_link: String,
    /// When it was added.
    #[serde(with = "time::serde::rfc3339")]
    pub added_at: OffsetDateTime,
    /// When its invitation was sent.
    #[serde(with = "time::serde::rfc3339::option")]
    pub sent_at: Option<OffsetDateTime>,
    /// Hand-overs of its invitation that reached the recipient stage, the successful one included (holds and pace
    /// waits count none).
    #[schema(minimum = 0)]
    pub delivery_attempts: i32,
    /// The relay's last refusal of its invitation (never a password), or null.
    pub last_delivery_error: Option<String>,
    /// When its invitation is tried next, while it waits to be sent; else null.
    #[serde(with = "time::serde::rfc3339::option")]
    pub next_attempt_at: Option<OffsetDateTime>,
    /// The language it sees the survey in, before its sendout's (given when it was added, or picked on its page);
    /// null for its sendout's.
    #[schema(required = true)]
    pub language: Option<LanguageBody>,
    /// The directory's contact it was made from (`respondents/from-list`); null when it came from none or the
    /// contact was deleted since.
    #[schema(required = true)]
    pub contact_id: Option<i64>,
}

impl RespondentResponse {
    /// The respondent, with its link under `public_url`.
    pub fn new(r: Respondent, public_url: &str) -> Self {
        Self {
            respondent_id: r.id.get(),
            sendout_id: r.sendout_id.get(),
            contact_details: (!r.visitor).then_some(r.contact_details),
            send_mail: r.send_mail,
            background_data: super::cells_of_domain(r.background_data),
            status: r.status.into(),
            survey_link: format!("{public_url}/r/{}", r.token),
            added_at: r.added_at,
            sent_at: r.sent_at,
            delivery_attempts: r.delivery.attempts,
            last_delivery_error: r.delivery.last_error,
            next_attempt_at: r.delivery.next_attempt_at,
            language: r.language.map(Into::into),
            contact_id: r.contact_id.map(|id| id.get()),
        }
    }
}

/// A batch item that was refused.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RejectionResponse {
    /// 0-based position in surveyRespondents.
    pub index: usize,
    /// The contact as given.
    pub contact_details: String,
    /// `blocklisted` or `duplicate`.
    pub reason: &'static str,
}

impl From<Rejection> for RejectionResponse {
    fn from(r: Rejection) -> Self {
        Self { index: r.index, contact_details: r.contact_details, reason: r.reason.as_str() }
    }
}

/// What a batch did.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchResponse {
    /// Respondents added.
    pub added: Vec<RespondentResponse>,
    /// Items refused.
    pub rejected: Vec<RejectionResponse>,
}

impl BatchResponse {
    /// The outcome, with links under `public_url`.
    pub fn new(outcome: BatchOutcome, public_url: &str) -> Self {
        Self {
            added: outcome.added.into_iter().map(|r| RespondentResponse::new(r, public_url)).collect(),
            rejected: outcome.rejected.into_iter().map(Into::into).collect(),
        }
    }
}
