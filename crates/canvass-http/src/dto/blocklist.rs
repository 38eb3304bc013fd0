//! Bodies of the blocklist and email bounce endpoints.

use canvass_domain::distribution::{BlocklistEntry, BlocklistType, PermanentFailure};
use canvass_domain::ids::{RespondentId, SendoutId};
use canvass_domain::paging::Page;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::{IntoParams, ToSchema};

use super::schemas::DateText;

use super::client_date::ClientDate;
use super::mirror::mirrored;

mirrored! {
    /// Why a contact is blocked.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum BlocklistTypeBody <=> BlocklistType {
        /// Blocked by the account.
        Blocked,
        /// The respondent opted out.
        OptedOut,
    }
}

/// Adds a contact to the blocklist.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlocklistBody {
    /// The contact (email addresses compare case-insensitively).
    #[schema(min_length = 1, max_length = 320, pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]+$")]
    pub contact_details: String,
    /// Blocked or OptedOut.
    #[serde(rename = "type")]
    pub kind: BlocklistTypeBody,
}

/// A blocklist entry.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlocklistResponse {
    /// The contact; null for a `viewer`.
    #[schema(required = true)]
    pub contact_details: Option<String>,
    /// Blocked or OptedOut.
    #[serde(rename = "type")]
    pub kind: BlocklistTypeBody,
    /// When it was added.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<BlocklistEntry> for BlocklistResponse {
    fn from(e: BlocklistEntry) -> Self {
        Self { contact_details: Some(e.contact_details), kind: e.kind.into(), created_at: e.created_at }
    }
}

/// One failure reported by the mail relay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailureBody {
    /// The address that failed.
    #[schema(format = Email, max_length = 320)]
    pub email_address: String,
    /// The domain the message was sent from.
    #[schema(min_length = 1, max_length = 253, pattern = "^\\s*\\S+\\s*$")]
    pub sending_domain: String,
    /// When it failed (RFC 3339).
    #[schema(value_type = DateText)]
    pub failed_at: String,
    /// The relay's reason.
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub reason: String,
}

/// Failures to record.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FailuresBody {
    /// 1 to 1000 failures.
    #[schema(min_items = 1, max_items = 1000)]
    pub failures: Vec<FailureBody>,
}

/// What recording did.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordedResponse {
    /// Failures that were new; repeats of an address and time are ignored.
    pub recorded: u64,
}

/// A permanent failure.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailureResponse {
    /// The address that failed; null for a `viewer`.
    #[schema(required = true)]
    pub email_address: Option<String>,
    /// The sending domain.
    pub sending_domain: String,
    /// When it failed.
    #[serde(with = "time::serde::rfc3339")]
    pub failed_at: OffsetDateTime,
    /// The relay's reason.
    pub reason: String,
    /// The sendout of the failed message, null when unknown.
    pub sendout_id: Option<i64>,
    /// The respondent of the failed message, null when unknown.
    pub respondent_id: Option<i64>,
}

/// A page of permanent failures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FailuresPageResponse {
    /// The failures of the page.
    pub failures: Vec<FailureResponse>,
    /// The page number.
    pub page_number: i64,
    /// The page size.
    pub page_size: i64,
    /// Pages of this size.
    pub page_count: i64,
    /// Failures that pass the filters.
    pub total_count: i64,
}

impl From<Page<PermanentFailure>> for FailuresPageResponse {
    fn from(page: Page<PermanentFailure>) -> Self {
        Self {
            page_number: page.request.number(),
            page_size: page.request.size(),
            page_count: page.page_count(),
            total_count: page.total_count,
            failures: page.items.into_iter().map(FailureResponse::from).collect(),
        }
    }
}

impl From<PermanentFailure> for FailureResponse {
    fn from(f: PermanentFailure) -> Self {
        Self {
            email_address: Some(f.email_address),
            sending_domain: f.sending_domain,
            failed_at: f.failed_at,
            reason: f.reason,
            sendout_id: f.sendout_id.map(SendoutId::get),
            respondent_id: f.respondent_id.map(RespondentId::get),
        }
    }
}

/// Paging and filters of the failure list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct FailuresQuery {
    /// Page number from 1 (mandatory).
    #[param(minimum = 1)]
    pub page_number: i64,
    /// Page size from 1 to 1000 (mandatory).
    #[param(minimum = 1, maximum = 1000)]
    pub page_size: i64,
    /// Only failures of this sending domain.
    #[param(max_length = 253)]
    pub sending_domain: Option<String>,
    /// Only failures at or after this date.
    #[param(value_type = Option<DateText>)]
    pub from: Option<ClientDate>,
}
