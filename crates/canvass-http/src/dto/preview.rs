//! Bodies of a sendout's invitation preview: the respondent asked about, and its subject and text as it gets them.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The respondent whose invitation to show.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewBody {
    /// A respondent of the sendout.
    pub respondent_id: i64,
}

/// The invitation as the respondent gets it: its language, its placeholders filled in.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewResponse {
    /// The subject (EMAIL); null for a text message.
    #[schema(required = true)]
    pub subject: Option<String>,
    /// The text, links and personal values filled in (the `text/plain` part of an email).
    pub text: String,
}
