//! Bodies of the erasure endpoint.

use canvass_domain::ports::Erased;
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

/// What was erased; a repeat answers zeros.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErasureResponse {
    /// Respondents removed, across every sendout of the account.
    #[schema(minimum = 0)]
    pub respondents_erased: u64,
    /// Answer sets deleted (0 unless `includeAnswers`).
    #[schema(minimum = 0)]
    pub answer_sets_deleted: u64,
}

impl From<Erased> for ErasureResponse {
    fn from(erased: Erased) -> Self {
        Self { respondents_erased: erased.respondents, answer_sets_deleted: erased.answer_sets }
    }
}
