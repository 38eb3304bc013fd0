//! The ports of accounts: what the domain needs from a store for accounts, users and API keys.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::account::{AccountSettings, ApiKey, NewAccount, StoredKey, User};
use crate::ids::{AccountId, UserId};
use crate::ports::RepoResult;
use time::OffsetDateTime;

/// Accounts, users and API keys.
pub trait AccountRepository {
    /// Creates an account, its first user (role `owner`) and that user's first key.
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)>;
    /// Adds a key for a user; `None` when the user does not exist.
    fn create_key(&mut self, user_id: UserId, key: &ApiKey, now: OffsetDateTime) -> RepoResult<Option<AccountId>>;
    /// Revokes every unrevoked key with this lookup prefix; returns how many.
    fn revoke_keys(&mut self, lookup_prefix: &str, now: OffsetDateTime) -> RepoResult<u64>;
    /// The unrevoked keys with this lookup prefix (normally one).
    fn active_keys_with_prefix(&mut self, lookup_prefix: &str) -> RepoResult<Vec<StoredKey>>;
    /// The user with this email address (compared case-insensitively) in any account: for operators' tools.
    fn find_user_by_email(&mut self, email: &str) -> RepoResult<Option<User>>;
    /// The account's users, in creation order.
    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>>;
    /// One user of the account.
    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>>;
    /// The account's settings (the defaults until it sets them).
    fn account_settings(&mut self, account: AccountId) -> RepoResult<AccountSettings>;
    /// Stores the account's settings in place of those it had.
    fn save_account_settings(&mut self, account: AccountId, settings: &AccountSettings) -> RepoResult<()>;
}
