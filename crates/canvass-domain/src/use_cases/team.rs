//! An account's team through the API: users made and changed by owners and admins, keys made for them and revoked.
//! Two rules hold here, not in the guard: only an owner makes, changes or removes an owner (or an owner's keys),
//! and an account always keeps one active owner.

use time::OffsetDateTime;

use crate::account::{ApiKey, Caller, KeyPrefix, KeyRecord, KeySpec, NewUser, Role, User, UserChange};
use crate::clock::Clock;
use crate::error::{ConflictKind, DomainError, FieldError, Resource};
use crate::ids::UserId;
use crate::ports::{transaction, AccountRepository, Transactional};

/// Longest name a key may have, in characters.
pub const MAX_KEY_NAME: usize = 200;

/// Adds a user to the caller's account.
pub fn create_user(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    caller: &Caller,
    user: NewUser,
) -> Result<User, DomainError> {
    only_owners_touch_owners(caller, user.role)?;
    uow.create_user(caller.account_id, &user, clock.now())?.ok_or_else(|| {
        DomainError::conflict(ConflictKind::Duplicate, "the account has a user with this email address already")
    })
}

/// Changes a user's role or whether it is active; the account keeps one active owner (409 otherwise). A user
/// deactivated here has every key refused from its next request on (the caller drops them from its key cache).
pub fn change_user(
    uow: &mut (impl AccountRepository + Transactional + ?Sized),
    caller: &Caller,
    id: UserId,
    change: UserChange,
) -> Result<User, DomainError> {
    transaction(uow, |tx| {
        let owners = tx.lock_active_owners(caller.account_id)?;
        let user = tx.find_user(caller.account_id, id)?.ok_or(DomainError::NotFound(Resource::User))?;
        only_owners_touch_owners(caller, user.role)?;
        if let Some(role) = change.role {
            only_owners_touch_owners(caller, role)?;
        }
        let stays_owner = change.role.unwrap_or(user.role) == Role::Owner && change.active.unwrap_or(user.active);
        if owners == [user.id] && !stays_owner {
            let detail = "the account keeps at least one active owner: make another user owner first";
            return Err(DomainError::conflict(ConflictKind::LastOwner, detail));
        }
        tx.change_user(caller.account_id, id, change)?.ok_or(DomainError::NotFound(Resource::User))
    })
}

/// Makes a key for a user of the caller's account; an owner's keys are made by owners only.
pub fn create_key(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    caller: &Caller,
    user: UserId,
    spec: KeySpec,
) -> Result<(KeyRecord, ApiKey), DomainError> {
    let now = clock.now();
    check_key_spec(&spec, now)?;
    let holder = uow.find_user(caller.account_id, user)?.ok_or(DomainError::NotFound(Resource::User))?;
    only_owners_touch_owners(caller, holder.role)?;
    let api_key = ApiKey::generate();
    uow.create_key(user, &api_key, &spec, now)?.ok_or(DomainError::NotFound(Resource::User))?;
    let prefix = KeyPrefix::parse(api_key.lookup_prefix()).ok_or(DomainError::NotFound(Resource::Key))?;
    let record = KeyRecord {
        prefix,
        user_id: user,
        name: spec.name,
        created_at: now,
        last_used_at: None,
        expires_at: spec.expires_at,
        read_only: spec.read_only,
        revoked_at: None,
    };
    Ok((record, api_key))
}

/// Every key of the caller's account.
pub fn list_keys(uow: &mut (impl AccountRepository + ?Sized), caller: &Caller) -> Result<Vec<KeyRecord>, DomainError> {
    Ok(uow.list_keys(caller.account_id)?)
}

/// Revokes a key of the caller's account by its prefix; an owner's keys are revoked by owners only. A key that is
/// not the account's, or revoked already, is not found.
pub fn revoke_key(
    uow: &mut (impl AccountRepository + ?Sized),
    clock: &dyn Clock,
    caller: &Caller,
    prefix: KeyPrefix,
) -> Result<KeyRecord, DomainError> {
    let key = uow
        .find_key(caller.account_id, &prefix)?
        .filter(|key| key.revoked_at.is_none())
        .ok_or(DomainError::NotFound(Resource::Key))?;
    let holder = uow.find_user(caller.account_id, key.user_id)?.ok_or(DomainError::NotFound(Resource::Key))?;
    only_owners_touch_owners(caller, holder.role)?;
    match uow.revoke_keys(Some(caller.account_id), &prefix, clock.now())? {
        0 => Err(DomainError::NotFound(Resource::Key)),
        _ => Ok(key),
    }
}

/// Refuses an admin's change to an owner, or a change that makes one.
fn only_owners_touch_owners(caller: &Caller, role: Role) -> Result<(), DomainError> {
    if role == Role::Owner && caller.role != Role::Owner {
        return Err(DomainError::Forbidden(
            "only an owner makes, changes or removes an owner or an owner's keys".into(),
        ));
    }
    Ok(())
}

/// A key's name is not blank and not longer than [`MAX_KEY_NAME`]; its expiry is in the future.
fn check_key_spec(spec: &KeySpec, now: OffsetDateTime) -> Result<(), DomainError> {
    let mut errors = Vec::new();
    if spec.name.trim().is_empty() || spec.name.chars().count() > MAX_KEY_NAME {
        errors.push(FieldError::new("name", format!("must hold 1 to {MAX_KEY_NAME} characters")));
    }
    if spec.expires_at.is_some_and(|expires| expires <= now) {
        errors.push(FieldError::new("expiresAt", "must be in the future"));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Invalid(errors))
    }
}
