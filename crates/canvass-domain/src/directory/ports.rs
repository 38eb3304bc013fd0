//! The ports of the directory: what the domain needs from a store for the account's contacts.
//!
//! Every method is scoped by the caller's `AccountId`; the rules every adapter follows are in [`crate::ports`].

use time::OffsetDateTime;

use crate::directory::{Contact, ContactDraft};
use crate::ids::{AccountId, ContactId};
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
    /// Deletes a contact; `false` when the account had none with this id.
    fn delete_contact(&mut self, account: AccountId, id: ContactId) -> RepoResult<bool>;
    /// One page of the account's contacts whose email address, phone number or names hold `search` (compared
    /// case-insensitively; all of them when `None`), in creation order, and how many there are.
    fn page_contacts(
        &mut self,
        account: AccountId,
        search: Option<&str>,
        page: PageRequest,
    ) -> RepoResult<Page<Contact>>;
}
