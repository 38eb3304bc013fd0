//! Timelines: a respondent's events, and a contact's (the events of every respondent made from it), in order.

use crate::directory::ports::ContactRepository;
use crate::distribution::RespondentEvent;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, ContactId, RespondentId, SendoutId, SurveyId};
use crate::ports::{RespondentRepository, SendoutRepository, SurveyRepository, TimelineRepository};

use super::sendouts;

/// The events of a respondent of a sendout of the survey, oldest first; a respondent, sendout or survey the
/// account does not have is not found.
pub fn of_respondent(
    uow: &mut (impl TimelineRepository + RespondentRepository + SendoutRepository + SurveyRepository + ?Sized),
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    respondent: RespondentId,
) -> Result<Vec<RespondentEvent>, DomainError> {
    sendouts::kind_of(uow, account, survey, sendout)?;
    if uow.find_respondent(account, sendout, respondent)?.is_none() {
        return Err(DomainError::NotFound(Resource::Respondent));
    }
    Ok(uow.respondent_events(account, sendout, respondent)?)
}

/// The events of every respondent made from the contact, in time order, each naming its sendout and respondent;
/// a contact the account does not have is not found.
pub fn of_contact(
    uow: &mut (impl TimelineRepository + ContactRepository + ?Sized),
    account: AccountId,
    contact: ContactId,
) -> Result<Vec<RespondentEvent>, DomainError> {
    if uow.find_contact(account, contact)?.is_none() {
        return Err(DomainError::NotFound(Resource::Contact));
    }
    Ok(uow.contact_events(account, contact)?)
}
