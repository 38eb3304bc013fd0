//! Quotas: creating, reading, changing and deleting a survey's quotas, and what they do to respondents: a set that
//! completes is counted (its survey's quotas read locked, so no count passes its limit), or ended by a full
//! `endSurvey` quota; a full `closeSurvey` quota closes the pages to respondents who have not started.

use std::collections::BTreeMap;

use time::OffsetDateTime;

use crate::answer::AnswerSet;
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, QuotaId, SurveyId};
use crate::ports::{
    transaction, AnswerRepository, QuotaRepository, RespondentRepository, SurveyRepository, Transactional,
};
use crate::survey::{self, KnownFacts, QuestionTree, Quota, QuotaInput, QuotaPatch, Settlement};

use super::surveys;

/// Creates a quota of the survey, counting from zero; its conditions may name any item that takes an answer and
/// background labels.
pub fn create(
    uow: &mut (impl QuotaRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: QuotaInput,
) -> Result<Quota, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    checked(&input, &tree)?;
    Ok(uow.insert_quota(account, survey, &input, clock.now())?)
}

/// The survey's quotas with their live counts, in creation order.
pub fn list(
    uow: &mut (impl QuotaRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<Vec<Quota>, DomainError> {
    surveys::get(uow, account, survey)?;
    Ok(uow.survey_quotas(account, survey, false)?)
}

/// One quota of the survey with its live count.
pub fn get(
    uow: &mut (impl QuotaRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: QuotaId,
) -> Result<Quota, DomainError> {
    list(uow, account, survey)?.into_iter().find(|quota| quota.id == id).ok_or(DomainError::NotFound(Resource::Quota))
}

/// Changes a quota: the fields the patch gives; its count stays. The survey's quotas are held while it changes,
/// as a completion that counts holds them.
pub fn patch(
    uow: &mut (impl QuotaRepository + SurveyRepository + Transactional + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: QuotaId,
    patch: QuotaPatch,
) -> Result<Quota, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    transaction(uow, |tx| {
        let quotas = tx.survey_quotas(account, survey, true)?;
        let held = quotas.into_iter().find(|quota| quota.id == id).ok_or(DomainError::NotFound(Resource::Quota))?;
        let input = patch.applied_to(held.input);
        checked(&input, &tree)?;
        tx.update_quota(account, survey, id, &input)?;
        Ok(Quota { input, ..held })
    })
}

/// Deletes a quota of the survey.
pub fn delete(
    uow: &mut (impl QuotaRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: QuotaId,
) -> Result<(), DomainError> {
    surveys::get(uow, account, survey)?;
    if uow.delete_quota(account, survey, id)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Quota))
    }
}

fn checked(input: &QuotaInput, tree: &QuestionTree) -> Result<(), DomainError> {
    let errors = input.check(tree);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Invalid(errors))
    }
}

/// Settles the quotas of `set`, just written completed, in the transaction that wrote it (see
/// [`super::completion::complete`]), and answers whether a full quota ended it: it is then held not completed,
/// `quotaFull`. `quotas` are the survey's, read without a lock, and the set's `facts` are tried on them: a full
/// `endSurvey` quota it meets ends it; else each quota it meets that is not full counts it, in one statement that
/// holds those quotas until the transaction ends and counts only below the limit as it stands then. A quota that
/// filled meanwhile counts no more: when it is an `endSurvey` quota the set meets, the counts just made are taken
/// back and the set is ended.
pub(crate) fn settle_quotas(
    tx: &mut (impl AnswerRepository + QuotaRepository + ?Sized),
    account: AccountId,
    set: &AnswerSet,
    quotas: &[Quota],
    facts: &KnownFacts<'_>,
    now: OffsetDateTime,
) -> Result<bool, DomainError> {
    if quotas.is_empty() {
        return Ok(false);
    }
    let ended = match survey::settle(quotas, facts) {
        Settlement::QuotaFull => true,
        Settlement::Counted(ids) if ids.is_empty() => false,
        Settlement::Counted(ids) => {
            let counted = tx.count_in_quotas(account, set.survey_id, &ids)?;
            let filled = survey::filled_meanwhile(quotas, &ids, &counted);
            if filled {
                tx.uncount_quotas(account, set.survey_id, &counted)?;
            }
            filled
        }
    };
    if ended {
        tx.hold_for_quota(account, set.survey_id, set.id, now)?;
    }
    Ok(ended)
}

/// The background of a set's respondent, by label name; none for a set without a respondent.
pub(crate) fn background_of(
    tx: &mut (impl RespondentRepository + ?Sized),
    account: AccountId,
    set: &AnswerSet,
) -> Result<BTreeMap<String, String>, DomainError> {
    let (Some(respondent), Some(sendout)) = (set.respondent_id, set.sendout_id) else {
        return Ok(BTreeMap::new());
    };
    let invitation = tx.invitation_of(account, sendout, respondent)?;
    Ok(invitation.map(|invitation| invitation.personal.background).unwrap_or_default())
}

/// Whether a page save with these answers ends the set at once: a full `endSurvey` quota's conditions hold.
pub(crate) fn end_now(
    tx: &mut (impl QuotaRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    facts: &KnownFacts<'_>,
) -> Result<bool, DomainError> {
    Ok(survey::ends_now(&tx.survey_quotas(account, survey, false)?, facts))
}

/// Whether the survey's pages are closed to a respondent who has not started: a `closeSurvey` quota is full.
pub(crate) fn closed_to_newcomers(
    tx: &mut (impl QuotaRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<bool, DomainError> {
    Ok(survey::closes(&tx.survey_quotas(account, survey, false)?))
}
