//! Survey frequency settings of the account and of single surveys.

use crate::error::{DomainError, Resource};
use crate::governance::{FrequencyLimits, FrequencySetting};
use crate::ids::{AccountId, SurveyId};
use crate::ports::{transaction, GovernanceRepository, SurveyRepository, Transactional};

use super::surveys;

/// The setting of a scope: the account's (`survey` none) or a survey's own; `NotFound` before any PUT.
pub fn get(
    uow: &mut (impl GovernanceRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: Option<SurveyId>,
) -> Result<FrequencySetting, DomainError> {
    if let Some(survey) = survey {
        surveys::get(uow, account, survey)?;
    }
    uow.find_frequency(account, survey)?.ok_or(DomainError::NotFound(Resource::FrequencySetting))
}

/// Creates or replaces the setting of a scope.
pub fn put(
    uow: &mut (impl GovernanceRepository + SurveyRepository + Transactional + ?Sized),
    account: AccountId,
    survey: Option<SurveyId>,
    enabled: bool,
    limits: FrequencyLimits,
) -> Result<FrequencySetting, DomainError> {
    transaction(uow, |tx| {
        if let Some(survey) = survey {
            surveys::get(tx, account, survey)?;
        }
        let setting = FrequencySetting { survey_id: survey, enabled, limits };
        tx.save_frequency(account, &setting)?;
        Ok(setting)
    })
}

/// Enables or disables the setting of a scope; only the flag changes, and nothing when it is already so.
pub fn set_enabled(
    uow: &mut (impl GovernanceRepository + SurveyRepository + Transactional + ?Sized),
    account: AccountId,
    survey: Option<SurveyId>,
    enabled: bool,
) -> Result<FrequencySetting, DomainError> {
    transaction(uow, |tx| {
        let current = get(tx, account, survey)?;
        if current.enabled == enabled {
            return Ok(current);
        }
        let setting = FrequencySetting { enabled, ..current };
        tx.save_frequency(account, &setting)?;
        Ok(setting)
    })
}
