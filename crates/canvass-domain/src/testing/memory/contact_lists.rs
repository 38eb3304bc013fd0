//! Lists of the directory's contacts in memory, and a list's chunk added to a sendout as the adapter adds it.

use time::OffsetDateTime;

use super::{HeldRespondent, Memory};
use crate::directory::ports::ContactListRepository;
use crate::directory::{Contact, ContactDetail, ContactList, ListChunk, ListEntry};
use crate::distribution::{contact_key, BackgroundData, Respondent, RespondentStatus};
use crate::ids::{AccountId, ContactId, ContactListId, RespondentId, SendoutId};
use crate::ports::RepoResult;
use crate::use_cases::respondents::RejectReason;
use crate::RepoError;

/// The contact's detail of this kind, as given.
fn detail_of(contact: &Contact, detail: ContactDetail) -> Option<&str> {
    match detail {
        ContactDetail::Email => contact.email.as_deref(),
        ContactDetail::Phone => contact.phone.as_deref(),
        ContactDetail::EmailElsePhone => contact.email.as_deref().or(contact.phone.as_deref()),
    }
}

impl Memory {
    fn member_count(&self, account: AccountId, list: ContactListId) -> i64 {
        self.state.list_members.iter().filter(|(owner, of, _)| *owner == account && *of == list).count() as i64
    }

    /// The list's members after `after`, by contact id, at most `limit`.
    fn members_after(
        &self,
        account: AccountId,
        list: ContactListId,
        after: Option<ContactId>,
        limit: usize,
    ) -> Vec<Contact> {
        let mut ids: Vec<ContactId> = self
            .state
            .list_members
            .iter()
            .filter(|(owner, of, contact)| *owner == account && *of == list && Some(*contact) > after)
            .map(|(_, _, contact)| *contact)
            .collect();
        ids.sort_unstable();
        ids.truncate(limit);
        let find = |id: &ContactId| self.state.contacts.iter().find(|(o, c)| *o == account && c.id == *id);
        ids.iter().filter_map(find).map(|(_, contact)| contact.clone()).collect()
    }
}

impl ContactListRepository for Memory {
    fn insert_contact_list(&mut self, account: AccountId, name: &str, now: OffsetDateTime) -> RepoResult<ContactList> {
        let list = ContactList {
            id: ContactListId::new(self.state.next_id()),
            name: name.into(),
            member_count: 0,
            created_at: now,
        };
        self.state.contact_lists.push((account, list.clone()));
        Ok(list)
    }

    fn contact_lists(&mut self, account: AccountId) -> RepoResult<Vec<ContactList>> {
        let ours: Vec<ContactList> =
            self.state.contact_lists.iter().filter(|(owner, _)| *owner == account).map(|(_, l)| l.clone()).collect();
        Ok(ours
            .into_iter()
            .map(|list| ContactList { member_count: self.member_count(account, list.id), ..list })
            .collect())
    }

    fn contact_list_exists(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool> {
        Ok(self.state.contact_lists.iter().any(|(owner, l)| *owner == account && l.id == list))
    }

    fn delete_contact_list(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool> {
        let before = self.state.contact_lists.len();
        self.state.contact_lists.retain(|(owner, l)| !(*owner == account && l.id == list));
        self.state.list_members.retain(|(owner, of, _)| !(*owner == account && *of == list));
        Ok(self.state.contact_lists.len() < before)
    }

    fn add_list_members(
        &mut self,
        account: AccountId,
        list: ContactListId,
        contacts: &[ContactId],
        _now: OffsetDateTime,
    ) -> RepoResult<Option<usize>> {
        let known = |id: &ContactId| self.state.contacts.iter().any(|(o, c)| *o == account && c.id == *id);
        if !contacts.iter().all(known) {
            return Ok(None);
        }
        let mut added = 0;
        for contact in contacts {
            let member = (account, list, *contact);
            if !self.state.list_members.contains(&member) {
                self.state.list_members.push(member);
                added += 1;
            }
        }
        Ok(Some(added))
    }

    fn remove_list_member(&mut self, account: AccountId, list: ContactListId, contact: ContactId) -> RepoResult<bool> {
        let before = self.state.list_members.len();
        self.state.list_members.retain(|member| *member != (account, list, contact));
        Ok(self.state.list_members.len() < before)
    }

    fn add_list_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        chunk: &ListChunk,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<ListEntry>> {
        let Some(survey) = self.state.own_sendout(account, sendout).map(|s| s.survey_id) else {
            return Err(RepoError::Concurrent("respondents_sendout_fkey".into()));
        };
        let members = self.members_after(account, chunk.list, chunk.after, chunk.tokens.len());
        let mut entries = Vec::with_capacity(members.len());
        for (contact, token) in members.iter().zip(&chunk.tokens) {
            let Some(details) = detail_of(contact, chunk.detail) else {
                entries.push(ListEntry { contact: contact.id, rejected: Some(RejectReason::NoContactDetail) });
                continue;
            };
            let key = contact_key(details);
            let taken = self.state.respondents.iter().any(|r| {
                r.account_id == account && r.row.sendout_id == sendout && contact_key(&r.row.contact_details) == key
            });
            let rejected = if self.state.is_blocked(account, &key) {
                Some(RejectReason::Blocklisted)
            } else if taken {
                Some(RejectReason::Duplicate)
            } else {
                None
            };
            entries.push(ListEntry { contact: contact.id, rejected });
            if rejected.is_some() {
                continue;
            }
            let background_data: BackgroundData = chunk
                .labels
                .iter()
                .filter_map(|(name, label)| {
                    let value = contact.attributes.get(name).filter(|value| !value.trim().is_empty())?;
                    Some((*label, value.clone()))
                })
                .collect();
            let id = RespondentId::new(self.state.next_id());
            let row = Respondent {
                id,
                sendout_id: sendout,
                contact_details: details.to_owned(),
                visitor: false,
                send_mail: true,
                background_data,
                status: RespondentStatus::Pending,
                token: token.clone(),
                added_at: now,
                sent_at: None,
                delivery: Default::default(),
                language: contact.language,
                contact_id: Some(contact.id),
            };
            let held =
                HeldRespondent { account_id: account, survey_id: survey, row, released_at: None, opted_out_at: None };
            self.state.respondents.push(held);
            self.state.record_event(account, (sendout, id), now, crate::distribution::EventKind::Added, None);
        }
        Ok(entries)
    }
}
