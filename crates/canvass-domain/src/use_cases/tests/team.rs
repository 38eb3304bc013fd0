//! The team through the API: owners and admins add users and keys, only owners touch owners, the last active
//! owner stays, and a deactivated user's, a revoked or an expired key authenticates no more.

use time::Duration;

use crate::account::{Caller, KeySpec, NewUser, Role, UserChange};
use crate::error::{ConflictKind, DomainError};
use crate::use_cases::accounts::{authenticate, create_account};
use crate::use_cases::team::{change_user, create_key, create_user, list_keys, revoke_key};

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};
use crate::testing::Memory;

fn owner_of(memory: &mut Memory) -> Caller {
    let created = create_account(memory, &At(NOW), "Acme", "owner@acme.example").unwrap();
    authenticate(memory, &At(NOW), created.api_key.secret()).unwrap().unwrap()
}

fn person(email: &str, role: Role) -> NewUser {
    NewUser::new("A person", email, role).unwrap()
}

fn spec(name: &str) -> KeySpec {
    KeySpec { name: name.into(), expires_at: None, read_only: false }
}

fn forbidden<T>(result: &Result<T, DomainError>) -> bool {
    matches!(result, Err(DomainError::Forbidden(_)))
}

#[test]
fn a_new_users_key_authenticates_with_the_users_role_and_the_keys_limits() {
    let mut memory = Memory::default();
    let owner = owner_of(&mut memory);
    let analyst = create_user(&mut memory, &At(NOW), &owner, person("ann@acme.example", Role::Analyst)).unwrap();
    let expires = NOW + Duration::days(30);
    let spec = KeySpec { name: "exports".into(), expires_at: Some(expires), read_only: true };
    let (record, key) = create_key(&mut memory, &At(NOW), &owner, analyst.id, spec).unwrap();
    assert_eq!(record.prefix.as_str(), key.lookup_prefix());

    let caller = authenticate(&mut memory, &At(NOW), key.secret()).unwrap().unwrap();
    assert_eq!((caller.user_id, caller.role, caller.read_only), (analyst.id, Role::Analyst, true));
    assert_eq!(caller.expires_at, Some(expires));
    let listed = list_keys(&mut memory, &owner).unwrap();
    assert_eq!(listed.len(), 2, "the owner's first key and the new one");
    assert_eq!(listed[1].last_used_at, Some(NOW), "the look-up marked it used");

    assert_eq!(authenticate(&mut memory, &At(expires), key.secret()).unwrap(), None, "expired");
}

#[test]
fn a_deactivated_users_keys_and_a_revoked_key_authenticate_no_more() {
    let mut memory = Memory::default();
    let owner = owner_of(&mut memory);
    let editor = create_user(&mut memory, &At(NOW), &owner, person("ed@acme.example", Role::Editor)).unwrap();
    let (_, first) = create_key(&mut memory, &At(NOW), &owner, editor.id, spec("one")).unwrap();
    let (second_record, second) = create_key(&mut memory, &At(NOW), &owner, editor.id, spec("two")).unwrap();

    revoke_key(&mut memory, &At(NOW), &owner, second_record.prefix).unwrap();
    assert_eq!(authenticate(&mut memory, &At(NOW), second.secret()).unwrap(), None);
    assert!(not_found(&revoke_key(&mut memory, &At(NOW), &owner, second_record.prefix), "key"), "revoked once");
    assert!(authenticate(&mut memory, &At(NOW), first.secret()).unwrap().is_some());

    let off = UserChange { active: Some(false), ..UserChange::default() };
    assert!(!change_user(&mut memory, &owner, editor.id, off).unwrap().active);
    assert_eq!(authenticate(&mut memory, &At(NOW), first.secret()).unwrap(), None);
}

#[test]
fn only_an_owner_makes_changes_or_keys_an_owner() {
    let mut memory = Memory::default();
    let owner = owner_of(&mut memory);
    let admin_user = create_user(&mut memory, &At(NOW), &owner, person("ad@acme.example", Role::Admin)).unwrap();
    let admin = Caller { user_id: admin_user.id, role: Role::Admin, ..owner };

    assert!(forbidden(&create_user(&mut memory, &At(NOW), &admin, person("o2@acme.example", Role::Owner))));
    let promote = UserChange { role: Some(Role::Owner), ..UserChange::default() };
    assert!(forbidden(&change_user(&mut memory, &admin, admin_user.id, promote)));
    let demote = UserChange { role: Some(Role::Viewer), ..UserChange::default() };
    assert!(forbidden(&change_user(&mut memory, &admin, owner.user_id, demote)));
    assert!(forbidden(&create_key(&mut memory, &At(NOW), &admin, owner.user_id, spec("mine"))));
    assert!(forbidden(&revoke_key(&mut memory, &At(NOW), &admin, owner.key)));

    let viewer = create_user(&mut memory, &At(NOW), &admin, person("v@acme.example", Role::Viewer)).unwrap();
    assert_eq!(change_user(&mut memory, &admin, viewer.id, promote_to(Role::Analyst)).unwrap().role, Role::Analyst);
    assert_eq!(memory.state.users.iter().filter(|u| u.role == Role::Owner).count(), 1, "nothing else changed");
}

fn promote_to(role: Role) -> UserChange {
    UserChange { role: Some(role), ..UserChange::default() }
}

#[test]
fn the_last_active_owner_stays_until_another_owner_is_made() {
    let mut memory = Memory::default();
    let owner = owner_of(&mut memory);
    let conflict = |result: Result<_, DomainError>| {
        matches!(result, Err(DomainError::Conflict { kind: ConflictKind::LastOwner, .. }))
    };
    assert!(conflict(change_user(&mut memory, &owner, owner.user_id, promote_to(Role::Admin))));
    let off = UserChange { active: Some(false), ..UserChange::default() };
    assert!(conflict(change_user(&mut memory, &owner, owner.user_id, off)));

    let second = create_user(&mut memory, &At(NOW), &owner, person("o2@acme.example", Role::Owner)).unwrap();
    assert_eq!(change_user(&mut memory, &owner, owner.user_id, promote_to(Role::Admin)).unwrap().role, Role::Admin);
    let second_owner = Caller { user_id: second.id, ..owner };
    assert!(conflict(change_user(&mut memory, &second_owner, second.id, off)), "now the second is the last");
    assert_eq!(memory.transactions.rolled_back, 3, "each refusal rolled its transaction back");
}

#[test]
fn users_and_keys_of_another_account_are_not_found_and_bad_input_names_its_field() {
    let (mut memory, acme, other) = two_accounts();
    let acme_owner = Caller { account_id: acme, ..crate::testing::caller(acme.get()) };
    let other_owner_id = memory.state.users.iter().find(|u| u.account_id == other).unwrap().id;

    assert!(not_found(&change_user(&mut memory, &acme_owner, other_owner_id, promote_to(Role::Viewer)), "user"));
    assert!(not_found(&create_key(&mut memory, &At(NOW), &acme_owner, other_owner_id, spec("x")), "user"));
    let other_key = memory.state.keys.iter().find(|k| k.account_id == other).unwrap().record.prefix;
    assert!(not_found(&revoke_key(&mut memory, &At(NOW), &acme_owner, other_key), "key"));

    let acme_user = memory.state.users.iter().find(|u| u.account_id == acme).unwrap().id;
    let bad = KeySpec { name: " ".into(), expires_at: Some(NOW), read_only: false };
    assert_eq!(invalid_fields(create_key(&mut memory, &At(NOW), &acme_owner, acme_user, bad)), ["name", "expiresAt"]);
    let twice = create_user(&mut memory, &At(NOW), &acme_owner, person("OWNER@acme.example", Role::Viewer));
    assert!(matches!(twice, Err(DomainError::Conflict { kind: ConflictKind::Duplicate, .. })), "{twice:?}");
    assert_eq!(memory.state.keys.len(), 2, "nothing was made");
}
