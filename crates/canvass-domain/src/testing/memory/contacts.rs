//! The directory's contacts in memory: unique by email address (case-insensitively) and by phone number within an
//! account, searched as the adapter searches them.

use time::OffsetDateTime;

use super::Memory;
use crate::directory::ports::ContactRepository;
use crate::directory::{Contact, ContactDraft};
use crate::distribution::contact_key;
use crate::ids::{AccountId, ContactId, ContactListId};
use crate::paging::{Page, PageRequest};
use crate::ports::RepoResult;

/// The contact of `account` other than `except` that holds the draft's email address or phone number.
fn holder(
    contacts: &[(AccountId, Contact)],
    account: AccountId,
    draft: &ContactDraft,
    except: Option<ContactId>,
) -> Option<ContactId> {
    let email = draft.email_key();
    contacts
        .iter()
        .filter(|(owner, contact)| *owner == account && Some(contact.id) != except)
        .find(|(_, contact)| {
            let same_email = email.is_some() && contact.email.as_deref().map(contact_key) == email;
            let same_phone = draft.phone().is_some() && contact.phone.as_deref() == draft.phone();
            same_email || same_phone
        })
        .map(|(_, contact)| contact.id)
}

fn contact_of(id: ContactId, draft: &ContactDraft, created_at: OffsetDateTime, updated_at: OffsetDateTime) -> Contact {
    Contact {
        id,
        email: draft.email().map(str::to_owned),
        phone: draft.phone().map(str::to_owned),
        first_name: draft.first_name().map(str::to_owned),
        last_name: draft.last_name().map(str::to_owned),
        language: draft.language(),
        attributes: draft.attributes().clone(),
        created_at,
        updated_at,
    }
}

/// Whether the contact's email address, phone number or a name holds `search`, case-insensitively.
fn matches(contact: &Contact, search: &str) -> bool {
    let search = search.to_lowercase();
    [&contact.email, &contact.phone, &contact.first_name, &contact.last_name]
        .into_iter()
        .flatten()
        .any(|text| text.to_lowercase().contains(&search))
}

impl ContactRepository for Memory {
    fn insert_contact(
        &mut self,
        account: AccountId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Result<Contact, ContactId>> {
        if let Some(existing) = holder(&self.state.contacts, account, draft, None) {
            return Ok(Err(existing));
        }
        let contact = contact_of(ContactId::new(self.state.next_id()), draft, now, now);
        self.state.contacts.push((account, contact.clone()));
        Ok(Ok(contact))
    }

    fn find_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<Option<Contact>> {
        let found = self.state.contacts.iter().find(|(owner, contact)| *owner == account && contact.id == id);
        Ok(found.map(|(_, contact)| contact.clone()))
    }

    fn update_contact(
        &mut self,
        account: AccountId,
        id: ContactId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<Result<Contact, ContactId>>> {
        let Some(created_at) = self.find_contact(account, id)?.map(|contact| contact.created_at) else {
            return Ok(None);
        };
        if let Some(other) = holder(&self.state.contacts, account, draft, Some(id)) {
            return Ok(Some(Err(other)));
        }
        let updated = contact_of(id, draft, created_at, now);
        for (owner, contact) in &mut self.state.contacts {
            if *owner == account && contact.id == id {
                *contact = updated.clone();
            }
        }
        Ok(Some(Ok(updated)))
    }

    fn contacts_holding(
        &mut self,
        account: AccountId,
        email_keys: &[String],
        phones: &[String],
    ) -> RepoResult<Vec<Contact>> {
        let holds = |contact: &Contact| {
            contact.email.as_deref().is_some_and(|email| email_keys.contains(&contact_key(email)))
                || contact.phone.as_ref().is_some_and(|phone| phones.contains(phone))
        };
        let found = self.state.contacts.iter().filter(|(owner, contact)| *owner == account && holds(contact));
        Ok(found.map(|(_, contact)| contact.clone()).collect())
    }

    fn insert_contacts(&mut self, account: AccountId, drafts: &[ContactDraft], now: OffsetDateTime) -> RepoResult<()> {
        for draft in drafts {
            if self.insert_contact(account, draft, now)?.is_err() {
                return Err(crate::RepoError::Concurrent("contacts unique".into()));
            }
        }
        Ok(())
    }

    fn update_contacts(
        &mut self,
        account: AccountId,
        changes: &[(ContactId, ContactDraft)],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        for (id, draft) in changes {
            if let Some(Err(_)) = self.update_contact(account, *id, draft, now)? {
                return Err(crate::RepoError::Concurrent("contacts unique".into()));
            }
        }
        Ok(())
    }

    fn delete_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<bool> {
        let before = self.state.contacts.len();
        self.state.contacts.retain(|(owner, contact)| !(*owner == account && contact.id == id));
        self.state.list_members.retain(|(owner, _, member)| !(*owner == account && *member == id));
        for held in self.state.respondents.iter_mut().filter(|r| r.account_id == account) {
            if held.row.contact_id == Some(id) {
                held.row.contact_id = None;
            }
        }
        Ok(self.state.contacts.len() < before)
    }

    fn page_contacts(
        &mut self,
        account: AccountId,
        search: Option<&str>,
        list: Option<ContactListId>,
        page: PageRequest,
    ) -> RepoResult<Page<Contact>> {
        let members = &self.state.list_members;
        let in_list = |contact: &Contact| list.is_none_or(|list| members.contains(&(account, list, contact.id)));
        let mut passing: Vec<&Contact> = self
            .state
            .contacts
            .iter()
            .filter(|(owner, contact)| *owner == account && search.is_none_or(|search| matches(contact, search)))
            .filter(|(_, contact)| in_list(contact))
            .map(|(_, contact)| contact)
            .collect();
        passing.sort_by_key(|contact| contact.id);
        let items = passing
            .iter()
            .skip(usize::try_from(page.offset()).unwrap_or(usize::MAX))
            .take(usize::try_from(page.size()).unwrap_or(0))
            .map(|contact| (*contact).clone())
            .collect();
        Ok(Page { request: page, items, total_count: passing.len() as i64 })
    }
}
