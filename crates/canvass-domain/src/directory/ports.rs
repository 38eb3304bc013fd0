//! The ports of the directory: what the domain needs from a store for the account's contacts.
//!
//! Every method is scoped by the caller's `AccountId`; the rules every adapter follows are in [`crate::ports`].

use time::OffsetDateTime;

use crate::directory::{Contact, ContactDraft, ContactList, ListChunk, ListEntry};
use crate::ids::{AccountId, ContactId, ContactListId, SendoutId};
use crate::paging::{Page, PageRequest};
use crate::ports::RepoResult;

/// The account's contacts.
pub trait ContactRepository {
    /// Stores a new contact; `Ok(Err(existing))`, storing nothing, when a contact of the account has its email
    /// address (compared case-insensitively) or its phone number.
    fn insert_contact(
        &mut self,
        account: AccountId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Result<Contact, ContactId>>;
    /// One contact of the account.
    fn find_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<Option<Contact>>;
    /// Replaces a contact's fields with `draft`'s and moves its `updatedAt`; `None` when the account has no such
    /// contact, `Some(Err(other))`, changing nothing, when another contact holds the email address or phone number.
    fn update_contact(
        &mut self,
        account: AccountId,
        id: ContactId,
        draft: &ContactDraft,
        now: OffsetDateTime,
    ) -> RepoResult<Option<Result<Contact, ContactId>>>;
    /// The account's contacts whose email address (compared by its key, lower-cased) is one of `email_keys` or
    /// whose phone number is one of `phones`.
    fn contacts_holding(
        &mut self,
        account: AccountId,
        email_keys: &[String],
        phones: &[String],
    ) -> RepoResult<Vec<Contact>>;
    /// Stores new contacts, in set-based statements. The caller has looked up their email addresses and phone
    /// numbers: one another contact holds is one a concurrent request took meanwhile, `RepoError::Concurrent`.
    fn insert_contacts(&mut self, account: AccountId, drafts: &[ContactDraft], now: OffsetDateTime) -> RepoResult<()>;
    /// Replaces the fields of the account's contacts with their drafts' and moves their `updatedAt`, in set-based
    /// statements (`RepoError::Concurrent` as for [`Self::insert_contacts`]).
    fn update_contacts(
        &mut self,
        account: AccountId,
        changes: &[(ContactId, ContactDraft)],
        now: OffsetDateTime,
    ) -> RepoResult<()>;
    /// Deletes a contact; `false` when the account had none with this id.
    fn delete_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<bool>;
    /// One page of the account's contacts whose email address, phone number or names hold `search` (compared
    /// case-insensitively; all of them when `None`) and, when `list` is given, that are members of it, in creation
    /// order, and how many there are.
    fn page_contacts(
        &mut self,
        account: AccountId,
        search: Option<&str>,
        list: Option<ContactListId>,
        page: PageRequest,
    ) -> RepoResult<Page<Contact>>;
}

/// The account's lists of contacts, and a list added to a sendout.
pub trait ContactListRepository {
    /// Stores a new, empty list.
    fn insert_contact_list(&mut self, account: AccountId, name: &str, now: OffsetDateTime) -> RepoResult<ContactList>;
    /// The account's lists, in creation order, each with its member count.
    fn contact_lists(&mut self, account: AccountId) -> RepoResult<Vec<ContactList>>;
    /// Whether the account has this list.
    fn contact_list_exists(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool>;
    /// Deletes a list and its memberships (never its contacts); `false` when the account had no such list.
    fn delete_contact_list(&mut self, account: AccountId, list: ContactListId) -> RepoResult<bool>;
    /// Makes the contacts members of a list of the account, and answers how many were not members before;
    /// `None`, adding none, when one of them is not a contact of the account.
    fn add_list_members(
        &mut self,
        account: AccountId,
        list: ContactListId,
        contacts: &[ContactId],
        now: OffsetDateTime,
    ) -> RepoResult<Option<usize>>;
    /// Removes a contact from a list; `false` when it was no member of it.
    fn remove_list_member(&mut self, account: AccountId, list: ContactListId, contact: ContactId) -> RepoResult<bool>;
    /// Adds one chunk of a list's members to a sendout as pending respondents (the next `chunk.tokens.len()`
    /// members by contact id after `chunk.after`), in set-based statements, and answers what became of each
    /// member, by contact id. A member without the detail is `NoContactDetail`, one whose detail is on the
    /// blocklist `Blocklisted`, one the sendout has already `Duplicate`; each added respondent keeps the contact's
    /// id and language and the attributes named as the chunk's labels, and the sendout's counts grow by the
    /// respondents added. Fewer entries than tokens: the list has no more members.
    fn add_list_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        chunk: &ListChunk,
        now: OffsetDateTime,
    ) -> RepoResult<Vec<ListEntry>>;
}
