//! Survey frequency: how many surveys one contact may receive within a number of days.

use crate::error::FieldError;
use crate::ids::SurveyId;

/// A field of the frequency limits, named as the domain names it; where it stands in a request is the web layer's
/// business.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr, strum::EnumIter)]
#[strum(serialize_all = "snake_case")]
pub enum FrequencyField {
    /// The window, in days.
    NumberOfDays,
    /// The most surveys within the window.
    MaxSurveys,
}

/// The limits of a frequency setting: at most `max_surveys` surveys within `number_of_days`, each 1 to 32767.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrequencyLimits {
    number_of_days: i16,
    max_surveys: i16,
}

impl FrequencyLimits {
    /// Checks both limits.
    ///
    /// ```
    /// use canvass_domain::governance::FrequencyLimits;
    ///
    /// assert!(FrequencyLimits::new(30, 2).is_ok());
    /// assert_eq!(FrequencyLimits::new(0, 2).unwrap_err()[0].field, "number_of_days");
    /// assert_eq!(FrequencyLimits::new(30, 40000).unwrap_err()[0].field, "max_surveys");
    /// ```
    pub fn new(number_of_days: i64, max_surveys: i64) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let check = |value: i64, field: FrequencyField, errors: &mut Vec<FieldError>| match i16::try_from(value) {
            Ok(value) if value >= 1 => Some(value),
            _ => {
                errors.push(FieldError::new(<&str>::from(field), "must be between 1 and 32767"));
                None
            }
        };
        let days = check(number_of_days, FrequencyField::NumberOfDays, &mut errors);
        let max = check(max_surveys, FrequencyField::MaxSurveys, &mut errors);
        match (days, max) {
            (Some(number_of_days), Some(max_surveys)) => Ok(Self { number_of_days, max_surveys }),
            _ => Err(errors),
        }
    }

    /// The window, in days.
    pub fn number_of_days(self) -> i16 {
        self.number_of_days
    }

    /// The most surveys a contact may receive within the window.
    pub fn max_surveys(self) -> i16 {
        self.max_surveys
    }
}

/// A frequency setting of the account (`survey_id` none) or of one survey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrequencySetting {
    /// The survey it applies to; none for the account's setting.
    pub survey_id: Option<SurveyId>,
    /// Whether it is enforced.
    pub enabled: bool,
    /// Its limits.
    pub limits: FrequencyLimits,
}

impl FrequencySetting {
    /// Whether a contact that already received `other_surveys` distinct other surveys within the window may not
    /// receive this one.
    ///
    /// ```
    /// use canvass_domain::governance::{FrequencyLimits, FrequencySetting};
    ///
    /// let setting = FrequencySetting { survey_id: None, enabled: true, limits: FrequencyLimits::new(30, 2).unwrap() };
    /// assert!(!setting.holds_back(1));
    /// assert!(setting.holds_back(2));
    /// assert!(!FrequencySetting { enabled: false, ..setting }.holds_back(9));
    /// ```
    pub fn holds_back(&self, other_surveys: i64) -> bool {
        self.enabled && other_surveys >= i64::from(self.limits.max_surveys)
    }
}

/// The setting that applies to a survey: its own when it has one (enabled or not), else the account's.
///
/// ```
/// use canvass_domain::governance::{effective_frequency, FrequencyLimits, FrequencySetting};
/// use canvass_domain::ids::SurveyId;
///
/// let limits = FrequencyLimits::new(30, 2).unwrap();
/// let account = FrequencySetting { survey_id: None, enabled: true, limits };
/// let survey = FrequencySetting { survey_id: Some(SurveyId::new(4)), enabled: false, limits };
/// assert_eq!(effective_frequency(Some(survey), Some(account)), Some(survey));
/// assert_eq!(effective_frequency(None, Some(account)), Some(account));
/// ```
pub fn effective_frequency(
    survey: Option<FrequencySetting>,
    account: Option<FrequencySetting>,
) -> Option<FrequencySetting> {
    survey.or(account)
}
