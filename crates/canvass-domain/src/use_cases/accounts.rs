//! Accounts, users and keys: creating accounts and keys, revoking keys, authenticating a presented key.

use crate::account::{
    lookup_prefix_of, AccountSettings, ApiKey, Caller, CreatedAccount, KeyPrefix, KeySpec, NewAccount, User,
};
use crate::clock::Clock;
use crate::error::{ConflictKind, DomainError, Resource};
use crate::ids::{AccountId, UserId};
use crate::ports::{transaction, AccountRepository, Transactional};

/// Creates an account with its owner and a first key.
pub fn create_account(
    uow: &mut (impl AccountRepository + Transactional + ?Sized),
    clock: &dyn Clock,
    name: &str,
    email: &str,
) -> Result<CreatedAccount, DomainError> {
    let account = NewAccount::new(name, email).map_err(DomainError::Invalid)?;
    let api_key = ApiKey::generate();
    let now = clock.now();
    // One person, one account: an operator who runs the command twice gets the first account named, not a second
    // one beside it. The look-up spans accounts, so it runs before the transaction: on Citus a read across shards
    // followed by a write to the accounts table in one transaction is refused. Two commands at once for one
    // address can both pass it; the command is an operator's.
    if let Some(user) = uow.find_user_by_email(account.email())? {
        let detail = format!("a user with this email address exists already, in account {}", user.account_id);
        return Err(DomainError::conflict(ConflictKind::Duplicate, detail));
    }
    let (account_id, user_id) = transaction(uow, |tx| Ok(tx.create_account(&account, &api_key, now)?))?;
    Ok(CreatedAccount { account_id, user_id, api_key })
}

/// Makes a new key for a user, from the command line (any account's user, named [`KeySpec::COMMAND_LINE`]).
pub fn create_key(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    user: UserId,
) -> Result<ApiKey, DomainError> {
    let api_key = ApiKey::generate();
    let spec = KeySpec { name: KeySpec::COMMAND_LINE.into(), expires_at: None, read_only: false };
    uow.create_key(user, &api_key, &spec, clock.now())?.ok_or(DomainError::NotFound(Resource::User))?;
    Ok(api_key)
}

/// Revokes the keys whose stored prefix is `prefix` (the first 16 characters of the key, `cvs_` included), from the
/// command line: of any account.
pub fn revoke_key(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    prefix: &str,
) -> Result<u64, DomainError> {
    let parsed = KeyPrefix::parse(prefix).ok_or_else(|| {
        DomainError::Invalid(vec![crate::error::FieldError::new(
            "prefix",
            "must be a key's first 16 characters: cvs_ and 12 hex digits",
        )])
    })?;
    match uow.revoke_keys(None, &parsed, clock.now())? {
        0 => Err(DomainError::NotFound(Resource::Key)),
        revoked => Ok(revoked),
    }
}

/// Finds who a presented key belongs to; `None` for unknown, malformed, revoked or expired keys and the keys of
/// deactivated users. The hash comparison is constant-time. A key found is marked used at `now`.
pub fn authenticate(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    presented: &str,
) -> Result<Option<Caller>, DomainError> {
    let Some(prefix) = lookup_prefix_of(presented).and_then(KeyPrefix::parse) else {
        return Ok(None);
    };
    let now = clock.now();
    let keys = uow.active_keys_with_prefix(&prefix)?;
    let found = keys.into_iter().find(|key| key.hash.matches(presented)).map(|key| key.caller);
    let Some(caller) = found.filter(|caller| !caller.expired_at(now)) else {
        return Ok(None);
    };
    uow.mark_key_used(caller.account_id, &prefix, now)?;
    Ok(Some(caller))
}

/// The user with this email address in any account, for operators' tools such as the demo set-up.
pub fn find_user_by_email(
    uow: &mut (impl AccountRepository + ?Sized),
    email: &str,
) -> Result<Option<User>, DomainError> {
    Ok(uow.find_user_by_email(email)?)
}

/// The account's users.
pub fn list_users(uow: &mut (impl AccountRepository + ?Sized), account: AccountId) -> Result<Vec<User>, DomainError> {
    Ok(uow.list_users(account)?)
}

/// One user of the account.
pub fn get_user(
    uow: &mut (impl AccountRepository + ?Sized),
    account: AccountId,
    id: UserId,
) -> Result<User, DomainError> {
    uow.find_user(account, id)?.ok_or(DomainError::NotFound(Resource::User))
}

/// The account's settings (the defaults until it sets them).
pub fn settings(
    uow: &mut (impl AccountRepository + ?Sized),
    account: AccountId,
) -> Result<AccountSettings, DomainError> {
    Ok(uow.account_settings(account)?)
}

/// Stores the account's settings; answers them as stored.
pub fn save_settings(
    uow: &mut (impl AccountRepository + ?Sized),
    account: AccountId,
    settings: AccountSettings,
) -> Result<AccountSettings, DomainError> {
    uow.save_account_settings(account, &settings)?;
    Ok(settings)
}
