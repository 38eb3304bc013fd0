//! Retention policies of the account and of a survey, and the partial and complete delete deadlines they set.

use time::{Date, Duration, OffsetDateTime, Time};

use crate::error::FieldError;
use crate::ids::LabelId;

/// How a request changes one field: leave it, clear it (`null`) or set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Patch<T> {
    /// The field was absent: keep the stored value.
    #[default]
    Keep,
    /// The field was `null`: clear it.
    Clear,
    /// The field was given.
    Set(T),
}

impl<T: Copy> Patch<T> {
    /// The value after applying the patch to `current`.
    pub fn apply(self, current: Option<T>) -> Option<T> {
        match self {
            Self::Keep => current,
            Self::Clear => None,
            Self::Set(value) => Some(value),
        }
    }
}

/// A field of a retention policy change, named as the domain names it (its field in [`AccountPolicyInput`] or
/// [`SurveyPolicyInput`]); where it stands in a request is the web layer's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum PolicyField {
    /// The account's days to the partial delete.
    PartialDeleteAfterDays,
    /// The account's days to the complete delete.
    CompleteDeleteAfterDays,
    /// A survey's date of the partial delete.
    PartialDeleteDate,
    /// A survey's date of the complete delete.
    CompleteDeleteDate,
    /// A survey's days from a respondent's entry to the partial delete.
    RespondentPartialDeleteAfterDays,
    /// A survey's days from a respondent's entry to the complete delete.
    RespondentCompleteDeleteAfterDays,
}

impl PolicyField {
    /// The name a [`FieldError`] of this field carries.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

fn positive_days(patch: Patch<i64>, field: PolicyField, errors: &mut Vec<FieldError>) -> Patch<i32> {
    match patch {
        Patch::Keep => Patch::Keep,
        Patch::Clear => Patch::Clear,
        Patch::Set(days) => match i32::try_from(days) {
            Ok(days) if days > 0 => Patch::Set(days),
            _ => {
                errors.push(FieldError::new(field.name(), "must be a positive number of days, or null"));
                Patch::Keep
            }
        },
    }
}

/// The account's retention policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccountPolicy {
    /// Days after a survey's end when the partial delete happens.
    pub partial_delete_after_days: Option<i32>,
    /// Days after a survey's end when the complete delete happens.
    pub complete_delete_after_days: Option<i32>,
    /// Whether the partial delete removes open-text answers too.
    pub include_open_text_in_partial_delete: bool,
}

/// A change to the account policy as a client sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccountPolicyInput {
    /// partialDeleteAfterDays.
    pub partial_delete_after_days: Patch<i64>,
    /// completeDeleteAfterDays.
    pub complete_delete_after_days: Patch<i64>,
    /// includeOpenTextInPartialDelete.
    pub include_open_text_in_partial_delete: Option<bool>,
}

impl AccountPolicyInput {
    /// The stored policy after this change; days must be positive.
    ///
    /// ```
    /// use canvass_domain::governance::{AccountPolicy, AccountPolicyInput, Patch};
    ///
    /// let stored = AccountPolicy { partial_delete_after_days: Some(30), complete_delete_after_days: Some(90),
    ///     include_open_text_in_partial_delete: true };
    /// let change = AccountPolicyInput { partial_delete_after_days: Patch::Clear, ..Default::default() };
    /// let after = change.apply(stored).unwrap();
    /// assert_eq!((after.partial_delete_after_days, after.complete_delete_after_days), (None, Some(90)));
    /// let zero = AccountPolicyInput { complete_delete_after_days: Patch::Set(0), ..Default::default() };
    /// assert_eq!(zero.apply(stored).unwrap_err()[0].field, "complete_delete_after_days");
    /// ```
    pub fn apply(self, current: AccountPolicy) -> Result<AccountPolicy, Vec<FieldError>> {
        let mut errors = Vec::new();
        let partial = positive_days(self.partial_delete_after_days, PolicyField::PartialDeleteAfterDays, &mut errors);
        let complete =
            positive_days(self.complete_delete_after_days, PolicyField::CompleteDeleteAfterDays, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(AccountPolicy {
            partial_delete_after_days: partial.apply(current.partial_delete_after_days),
            complete_delete_after_days: complete.apply(current.complete_delete_after_days),
            include_open_text_in_partial_delete: self
                .include_open_text_in_partial_delete
                .unwrap_or(current.include_open_text_in_partial_delete),
        })
    }
}

/// A survey's retention policy.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SurveyPolicy {
    /// The date after which the survey's partial delete happens.
    pub partial_delete_date: Option<Date>,
    /// The date after which the survey's complete delete happens.
    pub complete_delete_date: Option<Date>,
    /// Days after the survey's end for the partial respondent delete.
    pub respondent_partial_delete_after_days: Option<i32>,
    /// Days after the survey's end for the complete respondent delete.
    pub respondent_complete_delete_after_days: Option<i32>,
    /// Excludes the survey from every retention policy.
    pub exclude_from_retention_policies: bool,
    /// Background data labels kept by the partial delete.
    pub excluded_bg_data_label_ids: Vec<LabelId>,
}

/// A change to a survey policy as a client sends it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SurveyPolicyInput {
    /// surveyPolicy.partialDeleteDate.
    pub partial_delete_date: Patch<Date>,
    /// surveyPolicy.completeDeleteDate.
    pub complete_delete_date: Patch<Date>,
    /// respondentPolicy.partialDeleteAfterDays.
    pub respondent_partial_delete_after_days: Patch<i64>,
    /// respondentPolicy.completeDeleteAfterDays.
    pub respondent_complete_delete_after_days: Patch<i64>,
    /// excludeFromRetentionPolicies.
    pub exclude_from_retention_policies: Option<bool>,
    /// excludedBgDataLabelIds, already reduced to labels of function 0 (unknown ones are refused before).
    pub excluded_bg_data_label_ids: Option<Vec<LabelId>>,
}

impl SurveyPolicyInput {
    /// The stored policy after this change; dates must be after the survey's end date, days positive.
    pub fn apply(self, current: SurveyPolicy, survey_end: OffsetDateTime) -> Result<SurveyPolicy, Vec<FieldError>> {
        let mut errors = Vec::new();
        let end_date = survey_end.date();
        for (patch, field) in [
            (self.partial_delete_date, PolicyField::PartialDeleteDate),
            (self.complete_delete_date, PolicyField::CompleteDeleteDate),
        ] {
            if let Patch::Set(date) = patch {
                if date <= end_date {
                    errors
                        .push(FieldError::new(field.name(), format!("must be after the survey's end date {end_date}")));
                }
            }
        }
        let partial = positive_days(
            self.respondent_partial_delete_after_days,
            PolicyField::RespondentPartialDeleteAfterDays,
            &mut errors,
        );
        let complete = positive_days(
            self.respondent_complete_delete_after_days,
            PolicyField::RespondentCompleteDeleteAfterDays,
            &mut errors,
        );
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(SurveyPolicy {
            partial_delete_date: self.partial_delete_date.apply(current.partial_delete_date),
            complete_delete_date: self.complete_delete_date.apply(current.complete_delete_date),
            respondent_partial_delete_after_days: partial.apply(current.respondent_partial_delete_after_days),
            respondent_complete_delete_after_days: complete.apply(current.respondent_complete_delete_after_days),
            exclude_from_retention_policies: self
                .exclude_from_retention_policies
                .unwrap_or(current.exclude_from_retention_policies),
            excluded_bg_data_label_ids: self.excluded_bg_data_label_ids.unwrap_or(current.excluded_bg_data_label_ids),
        })
    }
}

/// When a survey's data is partially and completely deleted, and what the partial delete keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Deadlines {
    /// From this instant the partial delete applies.
    pub partial: Option<OffsetDateTime>,
    /// From this instant the complete delete applies.
    pub complete: Option<OffsetDateTime>,
    /// Whether the partial delete removes open-text answers.
    pub include_open_text: bool,
    /// Labels whose cells the partial delete keeps.
    pub kept_labels: Vec<LabelId>,
}

/// The first instant after a date-only deadline ("after which" the delete happens): the next day, 00:00 UTC;
/// none (never) after the last representable day.
fn after(date: Date) -> Option<OffsetDateTime> {
    Some(date.next_day()?.with_time(Time::MIDNIGHT).assume_utc())
}

fn earliest(a: Option<OffsetDateTime>, b: Option<OffsetDateTime>) -> Option<OffsetDateTime> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The deadlines for a survey that ends at `survey_end`. A survey policy that excludes the survey sets none. Each
/// deadline is the earliest of the survey policy's date and its respondent days after the end; when the survey
/// policy sets neither, the account policy's days after the end apply.
///
/// ```
/// use canvass_domain::governance::{policy_deadlines, AccountPolicy, SurveyPolicy};
/// use time::macros::{date, datetime};
///
/// let end = datetime!(2026-01-31 12:00 UTC);
/// let account = AccountPolicy { partial_delete_after_days: Some(10), complete_delete_after_days: Some(100),
///     include_open_text_in_partial_delete: false };
/// let survey = SurveyPolicy { complete_delete_date: Some(date!(2026-02-05)), ..Default::default() };
/// let deadlines = policy_deadlines(end, Some(&survey), Some(&account));
/// assert_eq!(deadlines.partial, Some(datetime!(2026-02-10 12:00 UTC)), "the account's days");
/// assert_eq!(deadlines.complete, Some(datetime!(2026-02-06 00:00 UTC)), "the day after the survey's date");
/// let excluded = SurveyPolicy { exclude_from_retention_policies: true, ..Default::default() };
/// assert_eq!(policy_deadlines(end, Some(&excluded), Some(&account)).complete, None);
/// ```
pub fn policy_deadlines(
    survey_end: OffsetDateTime,
    survey: Option<&SurveyPolicy>,
    account: Option<&AccountPolicy>,
) -> Deadlines {
    let survey_default = SurveyPolicy::default();
    let survey = survey.unwrap_or(&survey_default);
    if survey.exclude_from_retention_policies {
        return Deadlines::default();
    }
    // A deadline beyond the last representable instant never comes.
    let days_after_end = |days: Option<i32>| survey_end.checked_add(Duration::days(i64::from(days?)));
    let account = account.copied().unwrap_or_default();
    let own_partial = earliest(
        survey.partial_delete_date.and_then(after),
        days_after_end(survey.respondent_partial_delete_after_days),
    );
    let own_complete = earliest(
        survey.complete_delete_date.and_then(after),
        days_after_end(survey.respondent_complete_delete_after_days),
    );
    Deadlines {
        partial: own_partial.or_else(|| days_after_end(account.partial_delete_after_days)),
        complete: own_complete.or_else(|| days_after_end(account.complete_delete_after_days)),
        include_open_text: account.include_open_text_in_partial_delete,
        kept_labels: survey.excluded_bg_data_label_ids.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    const END: OffsetDateTime = datetime!(2026-01-31 12:00 UTC);

    #[test]
    fn survey_dates_must_follow_the_end() {
        let input = SurveyPolicyInput {
            partial_delete_date: Patch::Set(date!(2026 - 01 - 31)),
            complete_delete_date: Patch::Set(date!(2026 - 02 - 01)),
            ..Default::default()
        };
        let errors = input.apply(SurveyPolicy::default(), END).unwrap_err();
        assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["partial_delete_date"]);
    }

    #[test]
    fn null_clears_only_its_field_and_absent_keeps() {
        let stored = SurveyPolicy {
            respondent_partial_delete_after_days: Some(5),
            respondent_complete_delete_after_days: Some(9),
            excluded_bg_data_label_ids: vec![LabelId::new(3)],
            ..Default::default()
        };
        let input = SurveyPolicyInput { respondent_partial_delete_after_days: Patch::Clear, ..Default::default() };
        let after = input.apply(stored, END).unwrap();
        assert_eq!(after.respondent_partial_delete_after_days, None);
        assert_eq!(after.respondent_complete_delete_after_days, Some(9));
        assert_eq!(after.excluded_bg_data_label_ids, vec![LabelId::new(3)]);
    }

    #[test]
    fn the_survey_policy_overrides_the_account_policy() {
        let account = AccountPolicy { partial_delete_after_days: Some(1), ..Default::default() };
        let survey = SurveyPolicy { respondent_partial_delete_after_days: Some(20), ..Default::default() };
        assert_eq!(policy_deadlines(END, Some(&survey), Some(&account)).partial, Some(END + Duration::days(20)));
        assert_eq!(policy_deadlines(END, None, Some(&account)).partial, Some(END + Duration::days(1)));
        assert_eq!(policy_deadlines(END, None, None), Deadlines::default());
    }

    #[test]
    fn deadlines_past_the_last_representable_instant_never_come() {
        let late_end = datetime!(9999-06-01 00:00 UTC);
        let account = AccountPolicy { partial_delete_after_days: Some(i32::MAX), ..Default::default() };
        let survey = SurveyPolicy { complete_delete_date: Some(date!(9999 - 12 - 31)), ..Default::default() };
        let deadlines = policy_deadlines(late_end, Some(&survey), Some(&account));
        assert_eq!((deadlines.partial, deadlines.complete), (None, None));
    }
}
