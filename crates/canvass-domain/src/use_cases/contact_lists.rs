//! Lists of the directory's contacts: create, read with their member counts, delete; add and remove members; and
//! add a whole list to a sendout, a chunk of members per statement, with the rules of a batch.

use crate::clock::Clock;
use crate::directory::ports::ContactListRepository;
use crate::directory::{list_name, ContactDetail, ContactList, ListChunk, MAX_MEMBERS_PER_CALL};
use crate::distribution::{new_survey_link_token, BACKGROUND_FUNCTION};
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, ContactId, ContactListId, SendoutId, SurveyId};
use crate::ports::{transaction, SendoutRepository, SurveyRepository, Transactional};

use super::respondents::{link_refused, RejectReason};
use super::sendouts;

/// Members added to a sendout per statement.
pub const FROM_LIST_CHUNK: usize = 10_000;

/// What adding a list to a sendout did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOutcome {
    /// How many respondents were added.
    pub added: usize,
    /// The members not added, by contact id, and why.
    pub rejected: Vec<(ContactId, RejectReason)>,
}

/// Creates an empty list.
pub fn create(
    uow: &mut (impl ContactListRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    name: &str,
) -> Result<ContactList, DomainError> {
    let name = list_name(name).map_err(|error| DomainError::Invalid(vec![error]))?;
    Ok(uow.insert_contact_list(account, name, clock.now())?)
}

/// The account's lists, in creation order.
pub fn list(
    uow: &mut (impl ContactListRepository + ?Sized),
    account: AccountId,
) -> Result<Vec<ContactList>, DomainError> {
    Ok(uow.contact_lists(account)?)
}

/// Deletes a list; its contacts stay in the directory.
pub fn delete(
    uow: &mut (impl ContactListRepository + ?Sized),
    account: AccountId,
    list: ContactListId,
) -> Result<(), DomainError> {
    if uow.delete_contact_list(account, list)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::ContactList))
    }
}

/// Makes 1 to 10,000 contacts of the account members of a list, and answers how many were not members before. A
/// list or a contact the account does not have is `NotFound`, and adds none.
pub fn add_members(
    uow: &mut (impl ContactListRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    list: ContactListId,
    contacts: &[ContactId],
) -> Result<usize, DomainError> {
    if contacts.is_empty() || contacts.len() > MAX_MEMBERS_PER_CALL {
        return Err(DomainError::invalid("contactIds", format!("must hold 1 to {MAX_MEMBERS_PER_CALL} contact ids")));
    }
    let mut distinct = contacts.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    transaction(uow, |tx| {
        if !tx.contact_list_exists(account, list)? {
            return Err(DomainError::NotFound(Resource::ContactList));
        }
        tx.add_list_members(account, list, &distinct, clock.now())?.ok_or(DomainError::NotFound(Resource::Contact))
    })
}

/// Removes a contact from a list (the contact stays in the directory); one that is no member is `NotFound`.
pub fn remove_member(
    uow: &mut (impl ContactListRepository + ?Sized),
    account: AccountId,
    list: ContactListId,
    contact: ContactId,
) -> Result<(), DomainError> {
    if !uow.contact_list_exists(account, list)? {
        return Err(DomainError::NotFound(Resource::ContactList));
    }
    if uow.remove_list_member(account, list, contact)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Contact))
    }
}

/// Adds every member of a list to a sendout as a pending respondent that is sent the link, in one transaction of
/// one statement per [`FROM_LIST_CHUNK`] members: a member without a detail of the sendout's kind, a blocklisted
/// one and one the sendout has already are refused one by one (a LINK sendout refuses the whole call). Each
/// respondent keeps the contact's id and language, and as background data the attributes named as a background
/// data label of the sendout.
pub fn add_to_sendout(
    uow: &mut (impl ContactListRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    survey: SurveyId,
    sendout: SendoutId,
    list: ContactListId,
) -> Result<ListOutcome, DomainError> {
    add_in_chunks(uow, clock, (account, survey, sendout), list, FROM_LIST_CHUNK)
}

/// [`add_to_sendout`], `chunk_size` members per statement.
pub(crate) fn add_in_chunks(
    uow: &mut (impl ContactListRepository + SendoutRepository + SurveyRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    (account, survey, sendout): (AccountId, SurveyId, SendoutId),
    list: ContactListId,
    chunk_size: usize,
) -> Result<ListOutcome, DomainError> {
    transaction(uow, |tx| {
        let kind = sendouts::kind_of(tx, account, survey, sendout)?;
        let detail = ContactDetail::for_kind(kind).ok_or_else(link_refused)?;
        if !tx.contact_list_exists(account, list)? {
            return Err(DomainError::NotFound(Resource::ContactList));
        }
        let labels = tx
            .list_labels(account, sendout)?
            .into_iter()
            .filter(|label| label.function == BACKGROUND_FUNCTION)
            .map(|label| (label.name, label.id))
            .collect();
        let now = clock.now();
        let mut chunk = ListChunk { list, detail, after: None, tokens: Vec::new(), labels };
        let mut outcome = ListOutcome::default();
        loop {
            chunk.tokens = (0..chunk_size).map(|_| new_survey_link_token(account)).collect();
            let entries = tx.add_list_chunk(account, sendout, &chunk, now)?;
            for entry in &entries {
                match entry.rejected {
                    None => outcome.added += 1,
                    Some(reason) => outcome.rejected.push((entry.contact, reason)),
                }
            }
            match entries.last() {
                Some(last) if entries.len() == chunk_size => chunk.after = Some(last.contact),
                _ => return Ok(outcome),
            }
        }
    })
}
