//! Accounts, users and keys: a new account is checked before anything is stored, its owner's key authenticates,
//! keys are added per user and revoked by prefix, and users are read within their account only.

use crate::account::ApiKey;
use crate::error::{ConflictKind, DomainError};
use crate::ids::UserId;
use crate::use_cases::accounts::{
    authenticate, create_account, create_key, find_user_by_email, get_user, list_users, revoke_key,
};

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};
use crate::testing::Memory;

#[test]
fn a_new_account_is_checked_before_anything_is_stored() {
    let mut memory = Memory::default();
    let fields = invalid_fields(create_account(&mut memory, &At(NOW), " ", "not an address"));
    assert_eq!(fields, ["name", "email"]);
    assert!(memory.state.accounts.is_empty() && memory.state.users.is_empty() && memory.state.keys.is_empty());
}

#[test]
fn an_email_address_of_any_accounts_user_makes_no_second_account() {
    let mut memory = Memory::default();
    let first = create_account(&mut memory, &At(NOW), "Acme", "owner@acme.example").unwrap();

    let again = create_account(&mut memory, &At(NOW), "Acme again", "Owner@ACME.example");
    let Err(DomainError::Conflict { kind: ConflictKind::Duplicate, detail, .. }) = again else { panic!("{again:?}") };
    assert!(detail.ends_with(&format!("in account {}", first.account_id)), "{detail}");
    assert_eq!((memory.state.accounts.len(), memory.state.users.len()), (1, 1), "nothing more is stored");
}

#[test]
fn the_owners_first_key_authenticates_as_the_owner_of_the_new_account() {
    let mut memory = Memory::default();
    let created = create_account(&mut memory, &At(NOW), "Acme", "owner@acme.example").unwrap();

    let caller = authenticate(&mut memory, &At(NOW), created.api_key.secret()).unwrap().unwrap();
    assert_eq!((caller.account_id, caller.user_id), (created.account_id, created.user_id));
    let owner = get_user(&mut memory, created.account_id, created.user_id).unwrap();
    assert_eq!((owner.role.name(), owner.email.as_str()), ("owner", "owner@acme.example"));
    assert_eq!(memory.transactions.committed, 1, "created in one transaction");
}

#[test]
fn only_a_whole_active_key_authenticates() {
    let mut memory = Memory::default();
    let created = create_account(&mut memory, &At(NOW), "Acme", "owner@acme.example").unwrap();
    let secret = created.api_key.secret();

    assert_eq!(authenticate(&mut memory, &At(NOW), "Bearer something").unwrap(), None, "not a key at all");
    let same_prefix = format!("{}{}", created.api_key.lookup_prefix(), "0".repeat(52));
    assert_eq!(authenticate(&mut memory, &At(NOW), &same_prefix).unwrap(), None, "the prefix alone does not do");

    assert_eq!(revoke_key(&mut memory, &At(NOW), created.api_key.lookup_prefix()).unwrap(), 1);
    assert_eq!(authenticate(&mut memory, &At(NOW), secret).unwrap(), None, "a revoked key");
    assert!(not_found(&revoke_key(&mut memory, &At(NOW), created.api_key.lookup_prefix()), "key"), "revoked once");
}

#[test]
fn a_users_new_key_authenticates_as_that_user_and_an_unknown_user_gets_none() {
    let mut memory = Memory::default();
    let created = create_account(&mut memory, &At(NOW), "Acme", "owner@acme.example").unwrap();

    let key = create_key(&mut memory, &At(NOW), created.user_id).unwrap();
    assert_ne!(key.secret(), created.api_key.secret());
    let caller = authenticate(&mut memory, &At(NOW), key.secret()).unwrap().unwrap();
    assert_eq!(caller.user_id, created.user_id);
    assert!(
        authenticate(&mut memory, &At(NOW), created.api_key.secret()).unwrap().is_some(),
        "the first key still works"
    );

    assert!(not_found(&create_key(&mut memory, &At(NOW), UserId::new(99)), "user"));
    assert!(not_found(&revoke_key(&mut memory, &At(NOW), ApiKey::generate().lookup_prefix()), "key"));
}

#[test]
fn users_are_read_within_their_account_and_found_by_email_in_any() {
    let (mut memory, acme, other) = two_accounts();
    let acme_owner = list_users(&mut memory, acme).unwrap();
    assert_eq!(acme_owner.len(), 1);
    let owner = acme_owner[0].id;

    assert!(not_found(&get_user(&mut memory, other, owner), "user"), "another account's user");
    assert_eq!(list_users(&mut memory, other).unwrap().iter().map(|u| u.id).collect::<Vec<_>>().len(), 1);
    assert!(list_users(&mut memory, other).unwrap().iter().all(|u| u.account_id == other));

    let found = find_user_by_email(&mut memory, "OWNER@Acme.Example").unwrap().unwrap();
    assert_eq!((found.id, found.account_id), (owner, acme), "compared case-insensitively");
    assert_eq!(find_user_by_email(&mut memory, "nobody@acme.example").unwrap(), None);
}
