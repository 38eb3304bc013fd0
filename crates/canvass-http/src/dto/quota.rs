//! Bodies of the quota endpoints: `{name, when, limit, action}` in, the same with `quotaId` and the live `count` out.

use canvass_domain::survey::{Conditions, Quota, QuotaAction, QuotaInput, QuotaPatch};
use canvass_domain::DomainError;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::logic_schemas::ConditionsSchema;
use super::mirror::mirrored;

mirrored! {
    /// What a full quota does.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
    pub enum QuotaActionBody <=> QuotaAction {
        /// A set that meets the conditions ends (thank-you; kept not completed, `quotaFull: true`).
        #[serde(rename = "endSurvey")]
        EndSurvey,
        /// The survey's pages close to respondents with no answer set yet.
        #[serde(rename = "closeSurvey")]
        CloseSurvey,
    }
}

/// A new quota.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuotaBody {
    /// What it is called.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The completed sets it counts: conditions on the survey's items and background labels.
    #[schema(value_type = ConditionsSchema)]
    pub when: serde_json::Value,
    /// How many sets it counts at most.
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub limit: i64,
    /// What it does when full.
    pub action: QuotaActionBody,
}

impl TryFrom<QuotaBody> for QuotaInput {
    type Error = DomainError;

    /// The quota, or what is wrong with its `when`.
    fn try_from(body: QuotaBody) -> Result<Self, DomainError> {
        let when = Conditions::from_json(&body.when, "when").map_err(DomainError::Invalid)?;
        Ok(Self { name: body.name, when, limit: body.limit, action: body.action.into() })
    }
}

/// A change of a quota: each field given replaces the quota's; its count stays.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuotaPatchBody {
    /// A new name.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 200)]
    pub name: Option<String>,
    /// New conditions.
    #[serde(default)]
    #[schema(value_type = Option<ConditionsSchema>)]
    pub when: Option<serde_json::Value>,
    /// A new limit; one at or below the count makes the quota full at once.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub limit: Option<i64>,
    /// A new action.
    #[serde(default)]
    pub action: Option<QuotaActionBody>,
}

impl TryFrom<QuotaPatchBody> for QuotaPatch {
    type Error = DomainError;

    /// The patch, or what is wrong with its `when`.
    fn try_from(body: QuotaPatchBody) -> Result<Self, DomainError> {
        let when = body.when.map(|when| Conditions::from_json(&when, "when")).transpose();
        Ok(Self {
            name: body.name,
            when: when.map_err(DomainError::Invalid)?,
            limit: body.limit,
            action: body.action.map(Into::into),
        })
    }
}

/// A quota with its live count.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuotaResponse {
    /// The quota's id.
    pub quota_id: i64,
    /// What it is called.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// The completed sets it counts.
    #[schema(value_type = ConditionsSchema)]
    pub when: serde_json::Value,
    /// How many sets it counts at most.
    #[schema(minimum = 1, maximum = 1_000_000_000)]
    pub limit: i64,
    /// What it does when full.
    pub action: QuotaActionBody,
    /// The completed sets it has counted: it stops counting at `limit` (a limit lowered below it leaves it).
    #[schema(minimum = 0)]
    pub count: i64,
}

impl From<Quota> for QuotaResponse {
    fn from(quota: Quota) -> Self {
        Self {
            quota_id: quota.id.get(),
            when: quota.input.when.to_json(),
            name: quota.input.name,
            limit: quota.input.limit,
            action: quota.input.action.into(),
            count: quota.count,
        }
    }
}
