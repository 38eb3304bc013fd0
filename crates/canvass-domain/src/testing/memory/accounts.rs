//! Accounts, their users and API keys.

use time::OffsetDateTime;

use super::{KeyRow, Memory};
use crate::account::{
    AccountSettings, ApiKey, Caller, KeyPrefix, KeyRecord, KeySpec, NewAccount, NewUser, Role, StoredKey, User,
    UserChange,
};
use crate::ids::{AccountId, KeyId, UserId};
use crate::ports::{AccountRepository, RepoResult};

impl Memory {
    fn add_user(&mut self, account_id: AccountId, user: &NewUser, now: OffsetDateTime) -> User {
        let state = &mut self.state;
        let user = User {
            id: UserId::new(state.users.len() as i64 + 1),
            account_id,
            name: user.name.clone(),
            email: user.email.clone(),
            role: user.role,
            active: true,
            created_at: now,
        };
        state.users.push(user.clone());
        user
    }
}

impl AccountRepository for Memory {
    fn create_account(
        &mut self,
        account: &NewAccount,
        key: &ApiKey,
        now: OffsetDateTime,
    ) -> RepoResult<(AccountId, UserId)> {
        let account_id = AccountId::new(self.state.accounts.len() as i64 + 1);
        self.state.accounts.push((account_id, account.name().to_owned()));
        let owner = NewUser { name: account.name().to_owned(), email: account.email().to_owned(), role: Role::Owner };
        let user_id = self.add_user(account_id, &owner, now).id;
        let spec = KeySpec { name: KeySpec::COMMAND_LINE.into(), expires_at: None, read_only: false };
        self.create_key(user_id, key, &spec, now)?;
        Ok((account_id, user_id))
    }

    fn create_key(
        &mut self,
        user_id: UserId,
        key: &ApiKey,
        spec: &KeySpec,
        now: OffsetDateTime,
    ) -> RepoResult<Option<AccountId>> {
        let state = &mut self.state;
        let Some(account_id) = state.users.iter().find(|u| u.id == user_id).map(|u| u.account_id) else {
            return Ok(None);
        };
        let Some(prefix) = KeyPrefix::parse(key.lookup_prefix()) else { return Ok(None) };
        state.keys.push(KeyRow {
            id: KeyId::new(state.keys.len() as i64 + 1),
            account_id,
            hash: key.hash(),
            record: KeyRecord {
                prefix,
                user_id,
                name: spec.name.clone(),
                created_at: now,
                last_used_at: None,
                expires_at: spec.expires_at,
                read_only: spec.read_only,
                revoked_at: None,
            },
        });
        Ok(Some(account_id))
    }

    fn revoke_keys(&mut self, account: Option<AccountId>, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<u64> {
        let active = self.state.keys.iter_mut().filter(|k| {
            k.record.prefix == *prefix && k.record.revoked_at.is_none() && account.is_none_or(|a| a == k.account_id)
        });
        Ok(active.map(|key| key.record.revoked_at = Some(now)).count() as u64)
    }

    fn active_keys_with_prefix(&mut self, prefix: &KeyPrefix) -> RepoResult<Vec<StoredKey>> {
        let state = &self.state;
        let active = state.keys.iter().filter(|k| k.record.prefix == *prefix && k.record.revoked_at.is_none());
        Ok(active
            .filter_map(|key| {
                let user = state.users.iter().find(|u| u.id == key.record.user_id && u.active)?;
                let caller = Caller {
                    account_id: key.account_id,
                    user_id: user.id,
                    role: user.role,
                    key: key.record.prefix,
                    read_only: key.record.read_only,
                    expires_at: key.record.expires_at,
                };
                Some(StoredKey { id: key.id, caller, hash: key.hash.clone() })
            })
            .collect())
    }

    fn mark_key_used(&mut self, account: AccountId, prefix: &KeyPrefix, now: OffsetDateTime) -> RepoResult<()> {
        for key in self.state.keys.iter_mut().filter(|k| k.account_id == account && k.record.prefix == *prefix) {
            key.record.last_used_at = Some(now);
        }
        Ok(())
    }

    fn list_keys(&mut self, account: AccountId) -> RepoResult<Vec<KeyRecord>> {
        Ok(self.state.keys.iter().filter(|k| k.account_id == account).map(|k| k.record.clone()).collect())
    }

    fn find_key(&mut self, account: AccountId, prefix: &KeyPrefix) -> RepoResult<Option<KeyRecord>> {
        let mut mine = self.state.keys.iter().filter(|k| k.account_id == account && k.record.prefix == *prefix);
        Ok(mine.next_back().map(|k| k.record.clone()))
    }

    fn create_user(&mut self, account: AccountId, user: &NewUser, now: OffsetDateTime) -> RepoResult<Option<User>> {
        let taken =
            self.state.users.iter().any(|u| u.account_id == account && u.email.eq_ignore_ascii_case(&user.email));
        Ok((!taken).then(|| self.add_user(account, user, now)))
    }

    fn change_user(&mut self, account: AccountId, id: UserId, change: UserChange) -> RepoResult<Option<User>> {
        let Some(user) = self.state.users.iter_mut().find(|u| u.account_id == account && u.id == id) else {
            return Ok(None);
        };
        user.role = change.role.unwrap_or(user.role);
        user.active = change.active.unwrap_or(user.active);
        Ok(Some(user.clone()))
    }

    fn lock_active_owners(&mut self, account: AccountId) -> RepoResult<Vec<UserId>> {
        let owners = self.state.users.iter().filter(|u| u.account_id == account && u.active && u.role == Role::Owner);
        Ok(owners.map(|u| u.id).collect())
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
