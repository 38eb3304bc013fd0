//! Bodies of the erasure endpoints: an erasure and its receipt.

use canvass_domain::governance::ErasureReceipt;
use time::OffsetDateTime;

use super::audit::ActorResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whom to erase, and whether their answers go too.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureBody {
    /// The person's contact (email addresses compare case-insensitively).
    #[schema(min_length = 1, max_length = 320, pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]+$")]
    pub contact_details: String,
    /// Whether the person's answer sets are deleted too; by default they stay, without a respondent.
    #[serde(default)]
    pub include_answers: bool,
}

/// What was erased, and the receipt that proves it; a repeat answers zeros (and a receipt of its own).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureResponse {
    /// Respondents removed, across every sendout of the account.
    #[schema(minimum = 0)]
    pub respondents_erased: u64,
    /// Answer sets deleted (0 unless `includeAnswers`).
    #[schema(minimum = 0)]
    pub answer_sets_deleted: u64,
    /// The erasure's receipt: `GET /accounts/erasures/{receiptId}`.
    pub receipt_id: i64,
}

impl From<ErasureReceipt> for ErasureResponse {
    fn from(receipt: ErasureReceipt) -> Self {
        Self {
            respondents_erased: receipt.erasure.respondents_erased,
            answer_sets_deleted: receipt.erasure.answer_sets_deleted,
            receipt_id: receipt.id.get(),
        }
    }
}

/// An erasure's receipt: when, by whom and what was erased; never whom.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptResponse {
    /// The receipt's id.
    pub receipt_id: i64,
    /// When the erasure ran.
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Who asked for it.
    pub actor: ActorResponse,
    /// Whether the person's answer sets were asked to go too.
    pub include_answers: bool,
    /// Respondents erased.
    #[schema(minimum = 0)]
    pub respondents_erased: u64,
    /// Answer sets deleted.
    #[schema(minimum = 0)]
    pub answer_sets_deleted: u64,
}

impl From<ErasureReceipt> for ReceiptResponse {
    fn from(receipt: ErasureReceipt) -> Self {
        let erasure = receipt.erasure;
        Self {
            receipt_id: receipt.id.get(),
            at: erasure.at,
            actor: ActorResponse { user_id: erasure.actor.user_id.get(), key_prefix: erasure.actor.key.to_string() },
            include_answers: erasure.include_answers,
            respondents_erased: erasure.respondents_erased,
            answer_sets_deleted: erasure.answer_sets_deleted,
        }
    }
}
