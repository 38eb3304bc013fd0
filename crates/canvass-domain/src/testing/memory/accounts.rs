//! Accounts, their users and API keys.

use time::OffsetDateTime;

use super::{KeyRow, Memory};
use crate::account::{AccountSettings, ApiKey, Caller, NewAccount, StoredKey, User};
use crate::ids::{AccountId, KeyId, UserId};
use crate::ports::{AccountRepository, RepoResult};

impl AccountRepository for Memory {
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)> {
        let state = &mut self.state;
        let account_id = AccountId::new(state.accounts.len() as i64 + 1);
        state.accounts.push((account_id, account.name().to_owned()));
        let user_id = UserId::new(state.users.len() as i64 + 1);
        state.users.push(User {
            id: user_id,
            account_id,
            name: account.name().to_owned(),
            email: account.email().to_owned(),
            role: "owner".into(),
            created_at: now,
        });
        self.create_key(user_id, key, now)?;
        Ok((account_id, user_id))
    }

    fn create_key(&mut self, user_id: UserId, key: &ApiKey, now: OffsetDateTime) -> RepoResult<Option<AccountId>> {
        let _ = now;
        let state = &mut self.state;
        let Some(account_id) = state.users.iter().find(|u| u.id == user_id).map(|u| u.account_id) else {
            return Ok(None);
        };
        state.keys.push(KeyRow {
            id: KeyId::new(state.keys.len() as i64 + 1),
            caller: Caller { account_id, user_id },
            lookup_prefix: key.lookup_prefix().to_owned(),
            hash: key.hash(),
            revoked_at: None,
        });
        Ok(Some(account_id))
    }

    fn revoke_keys(&mut self, lookup_prefix: &str, now: OffsetDateTime) -> RepoResult<u64> {
        let active = self.state.keys.iter_mut().filter(|k| k.lookup_prefix == lookup_prefix && k.revoked_at.is_none());
        Ok(active.map(|key| key.revoked_at = Some(now)).count() as u64)
    }

    fn active_keys_with_prefix(&mut self, lookup_prefix: &str) -> RepoResult<Vec<StoredKey>> {
        let active = self.state.keys.iter().filter(|k| k.lookup_prefix == lookup_prefix && k.revoked_at.is_none());
        Ok(active.map(|key| StoredKey { id: key.id, caller: key.caller, hash: key.hash.clone() }).collect())
    }

    fn find_user_by_email(&mut self, email: &str) -> RepoResult<Option<User>> {
        Ok(self.state.users.iter().find(|u| u.email.eq_ignore_ascii_case(email)).cloned())
    }

    fn list_users(&mut self, account: AccountId) -> RepoResult<Vec<User>> {
        Ok(self.state.users.iter().filter(|u| u.account_id == account).cloned().collect())
    }

    fn find_user(&mut self, account: AccountId, id: UserId) -> RepoResult<Option<User>> {
        Ok(self.state.users.iter().find(|u| u.account_id == account && u.id == id).cloned())
    }

    fn account_settings(&mut self, account: AccountId) -> RepoResult<AccountSettings> {
        let found = self.state.settings.iter().find(|(owner, _)| *owner == account);
        Ok(found.map(|(_, settings)| *settings).unwrap_or_default())
    }

    fn save_account_settings(&mut self, account: AccountId, settings: &AccountSettings) -> RepoResult<()> {
        self.state.settings.retain(|(owner, _)| *owner != account);
        self.state.settings.push((account, *settings));
        Ok(())
    }
}
