//! Retention policies of the account and of single surveys.

use crate::clock::Clock;
use crate::distribution::BACKGROUND_FUNCTION;
use crate::error::{DomainError, FieldError};
use crate::governance::{AccountPolicy, AccountPolicyInput, SurveyPolicy, SurveyPolicyInput};
use crate::ids::{AccountId, LabelId, SurveyId};
use crate::ports::{transaction, GovernanceRepository, SurveyRepository, Transactional};

use super::surveys;

/// The account's policy; all-null and false before any POST.
pub fn account(
    uow: &mut (impl GovernanceRepository + ?Sized),
    account: AccountId,
) -> Result<AccountPolicy, DomainError> {
    Ok(uow.account_policy(account)?.unwrap_or_default())
}

/// Changes the account's policy: given fields are set, `null` clears, absent fields stay.
pub fn set_account(
    uow: &mut (impl GovernanceRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account_id: AccountId,
    input: AccountPolicyInput,
) -> Result<AccountPolicy, DomainError> {
    transaction(uow, |tx| {
        let policy = input.apply(account(tx, account_id)?).map_err(DomainError::Invalid)?;
        tx.save_account_policy(account_id, &policy, clock.now())?;
        Ok(policy)
    })
}

/// A survey's policy; empty before any POST.
pub fn survey(
    uow: &mut (impl GovernanceRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<SurveyPolicy, DomainError> {
    surveys::get(uow, account, survey)?;
    Ok(uow.survey_policy(account, survey)?.unwrap_or_default())
}

/// Changes a survey's policy. Dates must be after the survey's end, days positive; excluded label ids must be
/// labels of the account (400 otherwise), and labels of a function other than background data are dropped.
pub fn set_survey(
    uow: &mut (impl GovernanceRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey_id: SurveyId,
    mut input: SurveyPolicyInput,
) -> Result<SurveyPolicy, DomainError> {
    transaction(uow, |tx| {
        let found = surveys::get(tx, account, survey_id)?;
        let mut errors = Vec::new();
        if let Some(requested) = &input.excluded_bg_data_label_ids {
            let known = tx.label_functions(account, requested)?;
            let mut kept: Vec<LabelId> = Vec::new();
            for (index, label) in requested.iter().enumerate() {
                match known.iter().find(|(id, _)| id == label) {
                    None => errors.push(FieldError::new(
                        format!("excludedBgDataLabelIds[{index}]"),
                        format!("{label} is not a label of this account"),
                    )),
                    Some((_, function)) if *function == BACKGROUND_FUNCTION && !kept.contains(label) => {
                        kept.push(*label)
                    }
                    Some(_) => {}
                }
            }
            input.excluded_bg_data_label_ids = Some(kept);
        }
        let current = tx.survey_policy(account, survey_id)?.unwrap_or_default();
        let policy = input.apply(current, found.end_date).map_err(|mut e| {
            e.extend(errors.clone());
            DomainError::Invalid(e)
        })?;
        DomainError::check(errors)?;
        tx.save_survey_policy(account, survey_id, &policy, clock.now())?;
        Ok(policy)
    })
}
