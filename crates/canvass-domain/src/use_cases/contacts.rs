//! The account's directory of contacts: create, read, search a page, change (a PATCH merges) and delete.

use crate::clock::Clock;
use crate::directory::ports::{ContactListRepository, ContactRepository};
use crate::directory::{Contact, ContactDraft, ContactInput, ContactPatch};
use crate::error::{ConflictKind, DomainError, Resource};
use crate::ids::{AccountId, ContactId, ContactListId};
use crate::paging::{Page, PageRequest};

/// The longest `search` taken, in characters.
pub const MAX_SEARCH: usize = 320;

/// The 409 of a contact whose email address or phone number `existing` holds already; its id is the conflict's
/// one value.
fn exists(existing: ContactId) -> DomainError {
    let detail = format!("contact {existing} has this email address or phone number");
    DomainError::conflict_over(ConflictKind::ContactExists, detail, vec![existing.to_string()])
}

/// Creates a contact; one whose email address (compared case-insensitively) or phone number another contact of the
/// account holds is a `ContactExists` conflict naming that contact.
pub fn create(
    uow: &mut (impl ContactRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    input: ContactInput,
) -> Result<Contact, DomainError> {
    let draft = ContactDraft::new(input).map_err(DomainError::Invalid)?;
    uow.insert_contact(account, &draft, clock.now())?.map_err(exists)
}

/// One contact of the account.
pub fn get(
    uow: &mut (impl ContactRepository + ?Sized),
    account: AccountId,
    id: ContactId,
) -> Result<Contact, DomainError> {
    uow.find_contact(account, id)?.ok_or(DomainError::NotFound(Resource::Contact))
}

/// One page of the account's contacts, those whose email address, phone number or names hold `search` when it is
/// given (blank is none), and those of `list` when it is given (a list the account does not have is `NotFound`).
pub fn page(
    uow: &mut (impl ContactRepository + ContactListRepository + ?Sized),
    account: AccountId,
    search: Option<&str>,
    list: Option<ContactListId>,
    page: PageRequest,
) -> Result<Page<Contact>, DomainError> {
    let search = search.map(str::trim).filter(|search| !search.is_empty());
    if let Some(search) = search {
        crate::limits::check_length("search", search, MAX_SEARCH).map_err(|e| DomainError::Invalid(vec![e]))?;
    }
    if let Some(list) = list {
        if !uow.contact_list_exists(account, list)? {
            return Err(DomainError::NotFound(Resource::ContactList));
        }
    }
    Ok(uow.page_contacts(account, search, list, page)?)
}

/// Changes a contact: the fields the patch names, attributes merged (one set to null removed); checked whole, as a
/// new contact is. Another contact's email address or phone number is a `ContactExists` conflict.
pub fn patch(
    uow: &mut (impl ContactRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: ContactId,
    patch: ContactPatch,
) -> Result<Contact, DomainError> {
    let contact = get(uow, account, id)?;
    let draft = patch.merged(&contact).map_err(DomainError::Invalid)?;
    match uow.update_contact(account, id, &draft, clock.now())? {
        None => Err(DomainError::NotFound(Resource::Contact)),
        Some(updated) => updated.map_err(exists),
    }
}

/// Deletes a contact; the respondents made from it keep their own copy of its details.
pub fn delete(
    uow: &mut (impl ContactRepository + ?Sized),
    account: AccountId,
    id: ContactId,
) -> Result<(), DomainError> {
    if uow.delete_contact(account, id)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Contact))
    }
}
