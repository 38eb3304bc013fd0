//! The ports of accounts: what the domain needs from a store for accounts, users and API keys.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::account::{
    AccountSettings, ApiKey, KeyPrefix, KeyRecord, KeySpec, NewAccount, NewUser, StoredKey, User, UserChange,
};
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
    fn create_key(
        &mut self,
        user_id: UserId,
        key: &ApiKey,
        spec: &KeySpec,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>>;
    /// Revokes every unrevoked key with this lookup prefix, of `account` when given (of any account for operators'
    /// tools); returns how many.
    fn revoke_keys(&mut self, account: Option<AccountId>, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<u64>;
    /// The unrevoked keys of active users with this lookup prefix (normally one), in any account.
    fn active_keys_with_prefix(&mut self, prefix: &KeyPrefix) -> RepoResult<Vec<StoredKey>>;
    /// Notes that a request presented the key at `now`.
    fn mark_key_used(&mut self, account: AccountId, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<()>;
    /// Every key of the account, revoked ones too, in creation order.
    fn list_keys(&mut self, account: AccountId) -> RepoResult<Vec<KeyRecord>>;
    /// One key of the account by its prefix (the newest, should two share one).
    fn find_key(&mut self, account: AccountId, prefix: &KeyPrefix) -> RepoResult<Option<KeyRecord>>;
    /// Adds a user to the account; `None` when the account has a user with this email address (compared
    /// case-insensitively).
    fn create_user(&mut self, account: AccountId, user: &NewUser, now: OffsetDateTime) -> RepoResult<Option<User>>;
    /// Changes a user of the account; `None` when there is none with this id.
    fn change_user(&mut self, account: AccountId, id: UserId, change: UserChange) -> RepoResult<Option<User>>;
    /// The ids of the account's active owners, locked until the transaction ends (so that two changes at once
    /// cannot both remove the last one).
    fn lock_active_owners(&mut self, account: AccountId) -> RepoResult<Vec<UserId>>;
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
