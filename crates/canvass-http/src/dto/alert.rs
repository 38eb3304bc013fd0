//! Bodies of the alert endpoints: `{name, when, recipients, includeAnswers}` in, the same with `alertId` and
//! `createdAt` out. Neither derives `Debug`: the recipients are people's addresses.

use canvass_domain::alert::{Alert, AlertInput};
use canvass_domain::survey::Conditions;
use canvass_domain::DomainError;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::logic_schemas::ConditionsSchema;

/// A new alert.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertBody {
    /// What it is called.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The completed sets it tells of: conditions on the survey's items and background labels.
    #[schema(value_type = ConditionsSchema)]
    pub when: serde_json::Value,
    /// Whom it tells: email addresses, no two the same.
    #[schema(min_items = 1, max_items = 20, value_type = Vec<super::schemas::EmailAddress>)]
    pub recipients: Vec<String>,
    /// Whether its emails carry the set's answers.
    #[serde(default)]
    pub include_answers: bool,
}

impl TryFrom<AlertBody> for AlertInput {
    type Error = DomainError;

    /// The alert, or what is wrong with its `when`.
    fn try_from(body: AlertBody) -> Result<Self, DomainError> {
        let when = Conditions::from_json(&body.when, "when").map_err(DomainError::Invalid)?;
        Ok(Self { name: body.name, when, recipients: body.recipients, include_answers: body.include_answers })
    }
}

/// An alert.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AlertResponse {
    /// The alert's id.
    pub alert_id: i64,
    /// What it is called.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The completed sets it tells of.
    #[schema(value_type = ConditionsSchema)]
    pub when: serde_json::Value,
    /// Whom it tells.
    #[schema(min_items = 1, max_items = 20, value_type = Vec<super::schemas::EmailAddress>)]
    pub recipients: Vec<String>,
    /// Whether its emails carry the set's answers.
    pub include_answers: bool,
    /// When it was made; it tells of sets completed from then on.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<Alert> for AlertResponse {
    fn from(alert: Alert) -> Self {
        Self {
            alert_id: alert.id.get(),
            when: alert.input.when.to_json(),
            name: alert.input.name,
            recipients: alert.input.recipients,
            include_answers: alert.input.include_answers,
            created_at: alert.created_at,
        }
    }
}
