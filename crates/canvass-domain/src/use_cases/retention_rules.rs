//! Retention rules (API version 1.5): set, list, change and delete the rule of a scope.

use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::governance::{RetentionAction, RetentionRule, RuleInput, RulePatch, RuleScope};
use crate::ids::AccountId;
use crate::ports::{transaction, GovernanceRepository, SendoutRepository, SurveyRepository, Transactional};

use super::{sendouts, surveys};

/// Checks that the scope's survey and sendout exist for the account (`NotFound` otherwise).
fn check_scope(
    uow: &mut (impl SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    scope: RuleScope,
) -> Result<(), DomainError> {
    match scope {
        RuleScope::Account => Ok(()),
        RuleScope::Survey(survey) => surveys::get(uow, account, survey).map(|_| ()),
        RuleScope::Sendout(survey, sendout) => sendouts::get(uow, account, survey, sendout).map(|_| ()),
    }
}

/// Every rule of the account, or those of one scope.
pub fn list(
    uow: &mut (impl GovernanceRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    scope: Option<RuleScope>,
) -> Result<Vec<RetentionRule>, DomainError> {
    if let Some(scope) = scope {
        check_scope(uow, account, scope)?;
    }
    let rules = uow.list_rules(account)?;
    Ok(rules.into_iter().filter(|r| scope.is_none_or(|s| r.scope() == s)).collect())
}

/// Sets the rule of a scope for its action, overwriting the one there in place.
pub fn set(
    uow: &mut (impl GovernanceRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    scope: RuleScope,
    input: RuleInput,
) -> Result<RetentionRule, DomainError> {
    transaction(uow, |tx| {
        check_scope(tx, account, scope)?;
        let rule = input.into_rule(scope).map_err(|e| DomainError::Invalid(vec![e]))?;
        tx.save_rule(account, &rule, clock.now())?;
        Ok(rule)
    })
}

/// Changes the days and/or status of the rule of a scope and action; `NotFound` when there is none.
pub fn update(
    uow: &mut (impl GovernanceRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    scope: RuleScope,
    action: RetentionAction,
    patch: RulePatch,
) -> Result<RetentionRule, DomainError> {
    transaction(uow, |tx| {
        check_scope(tx, account, scope)?;
        let current = tx
            .list_rules(account)?
            .into_iter()
            .find(|r| r.scope() == scope && r.action() == action)
            .ok_or(DomainError::NotFound(Resource::RetentionRule))?;
        let rule = patch.apply(current);
        tx.save_rule(account, &rule, clock.now())?;
        Ok(rule)
    })
}

/// Deletes the rule of a scope and action; `NotFound` when there is none.
pub fn delete(
    uow: &mut (impl GovernanceRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    account: AccountId,
    scope: RuleScope,
    action: RetentionAction,
) -> Result<(), DomainError> {
    transaction(uow, |tx| {
        check_scope(tx, account, scope)?;
        match tx.delete_rule(account, scope, action)? {
            true => Ok(()),
            false => Err(DomainError::NotFound(Resource::RetentionRule)),
        }
    })
}
