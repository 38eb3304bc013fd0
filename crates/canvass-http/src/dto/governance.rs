//! Bodies of the data governance endpoints: survey frequency, retention rules and retention policies.

use super::mirror::mirrored;
use super::schemas::DateText;
use canvass_domain::governance::{
    AccountPolicy, AccountPolicyInput, FrequencyField, FrequencySetting, Patch, PolicyField, RetentionAction,
    RetentionRule, RuleStatus, SurveyPolicy, SurveyPolicyInput,
};
use canvass_domain::ids::{LabelId, SendoutId, SurveyId};
use canvass_domain::timestamp::parse_day;
use canvass_domain::{AccountId, FieldError};
use serde::{Deserialize, Deserializer, Serialize};
use time::{Date, OffsetDateTime};
use utoipa::ToSchema;

/// Reads a field that may be absent (keep), `null` (clear) or a value (set).
fn patch<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Patch<T>, D::Error> {
    Ok(match Option::<T>::deserialize(deserializer)? {
        None => Patch::Clear,
        Some(value) => Patch::Set(value),
    })
}

/// The limits of a frequency setting.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrequencyLimitsBody {
    /// Days within which the limit applies, 1 to 32767.
    #[schema(minimum = 1, maximum = 32767)]
    pub number_of_days: i64,
    /// Most surveys within those days, 1 to 32767.
    #[schema(minimum = 1, maximum = 32767)]
    pub max_number_of_surveys: i64,
}

/// Where a field of the frequency limits stands in [`FrequencyBody`]: under `settings`. Another name passes
/// unchanged.
pub fn frequency_field(field: &str) -> String {
    match field.parse::<FrequencyField>() {
        Ok(FrequencyField::NumberOfDays) => "settings.numberOfDays".into(),
        Ok(FrequencyField::MaxSurveys) => "settings.maxNumberOfSurveys".into(),
        Err(_) => field.into(),
    }
}

/// Where a field of a retention policy stands in [`AccountPolicyBody`] and [`SurveyPolicyBody`]: a survey's dates
/// under `surveyPolicy`, its days under `respondentPolicy`. Another name passes unchanged.
pub fn policy_field(field: &str) -> String {
    match field.parse::<PolicyField>() {
        Ok(PolicyField::PartialDeleteAfterDays) => "partialDeleteAfterDays".into(),
        Ok(PolicyField::CompleteDeleteAfterDays) => "completeDeleteAfterDays".into(),
        Ok(PolicyField::PartialDeleteDate) => "surveyPolicy.partialDeleteDate".into(),
        Ok(PolicyField::CompleteDeleteDate) => "surveyPolicy.completeDeleteDate".into(),
        Ok(PolicyField::RespondentPartialDeleteAfterDays) => "respondentPolicy.partialDeleteAfterDays".into(),
        Ok(PolicyField::RespondentCompleteDeleteAfterDays) => "respondentPolicy.completeDeleteAfterDays".into(),
        Err(_) => field.into(),
    }
}

/// Creates or replaces a frequency setting.
#[derive(Debug, Deserialize, ToSchema)]
pub struct FrequencyBody {
    /// Whether the setting is enforced.
    pub enabled: bool,
    /// The limits.
    pub settings: FrequencyLimitsBody,
}

/// A frequency setting.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrequencyResponse {
    /// The account.
    pub customer_id: i64,
    /// The survey, for survey-scoped settings only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub survey_id: Option<i64>,
    /// Whether it is enforced.
    pub enabled: bool,
    /// The limits.
    pub settings: FrequencyLimitsBody,
}

impl FrequencyResponse {
    /// The setting of `account`.
    pub fn new(account: AccountId, setting: FrequencySetting) -> Self {
        Self {
            customer_id: account.get(),
            survey_id: setting.survey_id.map(SurveyId::get),
            enabled: setting.enabled,
            settings: FrequencyLimitsBody {
                number_of_days: setting.limits.number_of_days().into(),
                max_number_of_surveys: setting.limits.max_surveys().into(),
            },
        }
    }
}

mirrored! {
    /// The action of a retention rule.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum RetentionActionBody <=> RetentionAction {
        /// Removes the respondent's distribution and contact data; answers stay.
        RemoveRespondentDataWithoutAnswers,
    }
}

mirrored! {
    /// The status of a retention rule.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
    pub enum RuleStatusBody <=> RuleStatus {
        /// It applies.
        Active,
        /// It is skipped.
        Paused,
    }
}

/// Sets the rule of a scope.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleBody {
    /// What the rule removes.
    pub action: RetentionActionBody,
    /// Days, 1 to 3650, counted from when the respondent entered the distribution.
    #[schema(minimum = 1, maximum = 3650)]
    pub retention_days: i64,
    /// Active (default) or Paused.
    #[serde(default)]
    pub status: Option<RuleStatusBody>,
}

/// Changes a rule: at least one field.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RulePatchBody {
    /// New days, 1 to 3650.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 3650)]
    pub retention_days: Option<i64>,
    /// New status.
    #[serde(default)]
    pub status: Option<RuleStatusBody>,
}

/// A retention rule.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RuleResponse {
    /// Account, Survey or Sendout.
    pub scope: &'static str,
    /// For survey- and sendout-scoped rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub survey_id: Option<i64>,
    /// For sendout-scoped rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sendout_id: Option<i64>,
    /// What it removes.
    pub action: RetentionActionBody,
    /// Days the data is kept.
    pub retention_days: i32,
    /// Active or Paused.
    pub status: RuleStatusBody,
}

impl From<RetentionRule> for RuleResponse {
    fn from(rule: RetentionRule) -> Self {
        Self {
            scope: rule.scope().name(),
            survey_id: rule.scope().survey_id().map(SurveyId::get),
            sendout_id: rule.scope().sendout_id().map(SendoutId::get),
            action: rule.action().into(),
            retention_days: rule.retention_days(),
            status: rule.status().into(),
        }
    }
}

/// The account's retention policy; on POST, absent fields stay, `null` clears.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountPolicyBody {
    /// Days after a survey's end for the partial delete; positive or null.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 2147483647)]
    pub partial_delete_after_days: Patch<i64>,
    /// Days after a survey's end for the complete delete; positive or null.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 2147483647)]
    pub complete_delete_after_days: Patch<i64>,
    /// Whether the partial delete removes open-text answers.
    #[serde(default)]
    pub include_open_text_in_partial_delete: Option<bool>,
}

impl From<AccountPolicyBody> for AccountPolicyInput {
    fn from(body: AccountPolicyBody) -> Self {
        Self {
            partial_delete_after_days: body.partial_delete_after_days,
            complete_delete_after_days: body.complete_delete_after_days,
            include_open_text_in_partial_delete: body.include_open_text_in_partial_delete,
        }
    }
}

/// The account's retention policy.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountPolicyResponse {
    /// Days after a survey's end for the partial delete.
    pub partial_delete_after_days: Option<i32>,
    /// Days after a survey's end for the complete delete.
    pub complete_delete_after_days: Option<i32>,
    /// Whether the partial delete removes open-text answers.
    pub include_open_text_in_partial_delete: bool,
}

impl From<AccountPolicy> for AccountPolicyResponse {
    fn from(p: AccountPolicy) -> Self {
        Self {
            partial_delete_after_days: p.partial_delete_after_days,
            complete_delete_after_days: p.complete_delete_after_days,
            include_open_text_in_partial_delete: p.include_open_text_in_partial_delete,
        }
    }
}

/// Survey-level dates of a survey policy.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyDatesBody {
    /// YYYY-MM-DD after the survey's end; null clears.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<DateText>)]
    pub partial_delete_date: Patch<String>,
    /// YYYY-MM-DD after the survey's end; null clears.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<DateText>)]
    pub complete_delete_date: Patch<String>,
}

/// Respondent-level days of a survey policy.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RespondentDaysBody {
    /// Days after the survey's end for the partial respondent delete; positive or null.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 2147483647)]
    pub partial_delete_after_days: Patch<i64>,
    /// Days after the survey's end for the complete respondent delete; positive or null.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 2147483647)]
    pub complete_delete_after_days: Patch<i64>,
}

/// Changes a survey's retention policy: absent fields stay, `null` clears.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyPolicyBody {
    /// Survey-level dates.
    #[serde(default)]
    pub survey_policy: SurveyDatesBody,
    /// Respondent-level days.
    #[serde(default)]
    pub respondent_policy: RespondentDaysBody,
    /// Excludes the survey from every retention policy.
    #[serde(default)]
    pub exclude_from_retention_policies: Option<bool>,
    /// Labels whose cells the partial delete keeps.
    #[serde(default)]
    pub excluded_bg_data_label_ids: Option<Vec<i64>>,
}

fn date_patch(patch: Patch<String>, field: &str, errors: &mut Vec<FieldError>) -> Patch<Date> {
    match patch {
        Patch::Keep => Patch::Keep,
        Patch::Clear => Patch::Clear,
        Patch::Set(text) => match parse_day(&text) {
            Some(date) => Patch::Set(date),
            None => {
                errors.push(FieldError::new(field, "must be a YYYY-MM-DD date, an RFC 3339 date-time or null"));
                Patch::Keep
            }
        },
    }
}

impl SurveyPolicyBody {
    /// The domain's input, or the fields whose dates cannot be read.
    pub fn into_domain(self) -> Result<SurveyPolicyInput, Vec<FieldError>> {
        let mut errors = Vec::new();
        let partial = date_patch(self.survey_policy.partial_delete_date, "surveyPolicy.partialDeleteDate", &mut errors);
        let complete =
            date_patch(self.survey_policy.complete_delete_date, "surveyPolicy.completeDeleteDate", &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(SurveyPolicyInput {
            partial_delete_date: partial,
            complete_delete_date: complete,
            respondent_partial_delete_after_days: self.respondent_policy.partial_delete_after_days,
            respondent_complete_delete_after_days: self.respondent_policy.complete_delete_after_days,
            exclude_from_retention_policies: self.exclude_from_retention_policies,
            excluded_bg_data_label_ids: self
                .excluded_bg_data_label_ids
                .map(|ids| ids.into_iter().map(LabelId::new).collect()),
        })
    }
}

/// Survey-level dates of a stored survey policy.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyDatesResponse {
    /// YYYY-MM-DD.
    pub partial_delete_date: Option<String>,
    /// YYYY-MM-DD.
    pub complete_delete_date: Option<String>,
}

/// Respondent-level days of a stored survey policy.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RespondentDaysResponse {
    /// Days after the survey's end for the partial respondent delete.
    pub partial_delete_after_days: Option<i32>,
    /// Days after the survey's end for the complete respondent delete.
    pub complete_delete_after_days: Option<i32>,
}

/// A survey's retention policy.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SurveyPolicyResponse {
    /// Survey-level dates.
    pub survey_policy: SurveyDatesResponse,
    /// Respondent-level days.
    pub respondent_policy: RespondentDaysResponse,
    /// Excludes the survey from every retention policy.
    pub exclude_from_retention_policies: bool,
    /// Labels whose cells the partial delete keeps.
    pub excluded_bg_data_label_ids: Vec<i64>,
}

impl From<SurveyPolicy> for SurveyPolicyResponse {
    fn from(p: SurveyPolicy) -> Self {
        Self {
            survey_policy: SurveyDatesResponse {
                partial_delete_date: p.partial_delete_date.map(|d| d.to_string()),
                complete_delete_date: p.complete_delete_date.map(|d| d.to_string()),
            },
            respondent_policy: RespondentDaysResponse {
                partial_delete_after_days: p.respondent_partial_delete_after_days,
                complete_delete_after_days: p.respondent_complete_delete_after_days,
            },
            exclude_from_retention_policies: p.exclude_from_retention_policies,
            excluded_bg_data_label_ids: p.excluded_bg_data_label_ids.into_iter().map(LabelId::get).collect(),
        }
    }
}

/// A retention run as the account sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetentionRunResponse {
    /// The run's id.
    pub run_id: i64,
    /// When it started.
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    /// When it finished.
    #[serde(with = "time::serde::rfc3339")]
    pub finished_at: OffsetDateTime,
    /// What started it: the server's `timer`, or the `command` line.
    #[schema(value_type = String, pattern = "^(timer|command)$")]
    pub trigger: &'static str,
    /// Respondents removed by RemoveRespondentDataWithoutAnswers rules in the account.
    pub respondents_removed: u64,
    /// Respondents erased by a partial delete.
    pub respondents_erased: u64,
    /// Open-text answers removed by a partial delete.
    pub open_text_answers_removed: u64,
    /// Answer sets removed by a complete delete.
    pub answer_sets_removed: u64,
    /// Respondents removed by a complete delete.
    pub survey_respondents_removed: u64,
    /// Whether the run failed for the account (what it removed before the failure stays removed).
    pub failed: bool,
}

impl From<canvass_domain::governance::RetentionRun> for RetentionRunResponse {
    fn from(run: canvass_domain::governance::RetentionRun) -> Self {
        let figures = run.figures;
        Self {
            run_id: run.id,
            started_at: run.started_at,
            finished_at: run.finished_at,
            trigger: run.trigger.name(),
            respondents_removed: figures.respondents_removed,
            respondents_erased: figures.respondents_erased,
            open_text_answers_removed: figures.open_text_answers_removed,
            answer_sets_removed: figures.answer_sets_removed,
            survey_respondents_removed: figures.survey_respondents_removed,
            failed: figures.failed,
        }
    }
}
