//! Alerts: creating, reading and deleting a survey's alerts, and the emails a completed set that meets one writes
//! to the alert outbox, in the transaction that completes it.

use time::OffsetDateTime;

use crate::alert::{alert_emails, Alert, AlertInput, AlertOrigin};
use crate::answer::AnswerSet;
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, AlertId, SurveyId};
use crate::ports::{AlertRepository, SurveyRepository};
use crate::survey::{Facts, QuestionTree};

use super::surveys;

/// Creates an alert of the survey; its conditions may name any item that takes an answer and background labels.
/// It tells of sets completed from now on.
pub fn create(
    uow: &mut (impl AlertRepository + SurveyRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    input: AlertInput,
) -> Result<Alert, DomainError> {
    let (_, tree) = surveys::get_with_tree(uow, account, survey)?;
    let input = input.trimmed();
    let errors = input.check(&tree);
    if !errors.is_empty() {
        return Err(DomainError::Invalid(errors));
    }
    Ok(uow.insert_alert(account, survey, &input, clock.now())?)
}

/// The survey's alerts, in creation order.
pub fn list(
    uow: &mut (impl AlertRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
) -> Result<Vec<Alert>, DomainError> {
    surveys::get(uow, account, survey)?;
    Ok(uow.survey_alerts(account, survey)?)
}

/// One alert of the survey.
pub fn get(
    uow: &mut (impl AlertRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: AlertId,
) -> Result<Alert, DomainError> {
    list(uow, account, survey)?.into_iter().find(|alert| alert.id == id).ok_or(DomainError::NotFound(Resource::Alert))
}

/// Deletes an alert of the survey; its emails not yet sent go with it.
pub fn delete(
    uow: &mut (impl AlertRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    id: AlertId,
) -> Result<(), DomainError> {
    surveys::get(uow, account, survey)?;
    if uow.delete_alert(account, survey, id)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Alert))
    }
}

/// Writes the emails of the `alerts` (the survey's) that the completed `set` meets (`facts`) to the alert outbox,
/// in the caller's transaction; the survey's and sendout's names are read only when one is met.
pub(crate) fn raise(
    tx: &mut (impl AlertRepository + ?Sized),
    account: AccountId,
    tree: &QuestionTree,
    set: &AnswerSet,
    alerts: &[Alert],
    facts: &dyn Facts,
    now: OffsetDateTime,
) -> Result<(), DomainError> {
    let met: Vec<&Alert> = alerts.iter().filter(|alert| alert.met_by(facts)).collect();
    if met.is_empty() {
        return Ok(());
    }
    let (survey_name, sendout_name) = tx.alert_origin_names(account, set.survey_id, set.sendout_id)?;
    let sendout = set.sendout_id.map(|id| (id, sendout_name.as_deref().unwrap_or("")));
    let origin = AlertOrigin { survey_name: &survey_name, sendout };
    let emails = alert_emails(&met, &origin, tree, set);
    Ok(tx.enqueue_alert_emails(account, &emails, now)?)
}
