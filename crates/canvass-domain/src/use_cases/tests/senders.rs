//! Sender numbers: a number is checked, belongs to one account at most, and only its account lists or removes it.

use crate::error::{ConflictKind, DomainError};
use crate::use_cases::senders::{add, list, remove};
use crate::AccountId;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

#[test]
fn a_malformed_number_is_refused_naming_the_field() {
    let (mut memory, acme, _) = two_accounts();
    assert_eq!(invalid_fields(add(&mut memory, &At(NOW), acme, "call me")), ["sms"]);
    assert_eq!(invalid_fields(remove(&mut memory, acme, "call me")), ["sms"]);
    assert!(list(&mut memory, acme).unwrap().is_empty());
}

#[test]
fn a_number_is_provisioned_once_and_listed_in_order() {
    let (mut memory, acme, _) = two_accounts();
    assert_eq!(add(&mut memory, &At(NOW), acme, " +4790000001 ").unwrap().as_str(), "+4790000001");
    add(&mut memory, &At(NOW), acme, "+4790000002").unwrap();
    add(&mut memory, &At(NOW), acme, "+4790000001").unwrap();

    let numbers: Vec<String> = list(&mut memory, acme).unwrap().into_iter().map(|s| s.number).collect();
    assert_eq!(numbers, ["+4790000001", "+4790000002"], "adding a number the account has changes nothing");
}

#[test]
fn a_number_of_another_account_is_a_conflict_and_stays_theirs() {
    let (mut memory, acme, other) = two_accounts();
    add(&mut memory, &At(NOW), other, "+4790000001").unwrap();

    let taken = add(&mut memory, &At(NOW), acme, "+4790000001");
    assert!(matches!(taken, Err(DomainError::Conflict { kind: ConflictKind::SenderTaken, .. })), "{taken:?}");
    assert!(not_found(&remove(&mut memory, acme, "+4790000001"), "sender number of this account"));
    assert_eq!(list(&mut memory, other).unwrap().len(), 1, "still the other account's");
    assert!(list(&mut memory, acme).unwrap().is_empty());

    remove(&mut memory, other, "+4790000001").unwrap();
    assert!(list(&mut memory, other).unwrap().is_empty());
}

#[test]
fn a_number_is_provisioned_to_an_existing_account_only() {
    let (mut memory, _, _) = two_accounts();
    assert!(not_found(&add(&mut memory, &At(NOW), AccountId::new(99), "+4790000001"), "account"));
    assert!(memory.state.senders.is_empty());
    assert!(not_found(&list(&mut memory, AccountId::new(99)), "account"), "no account, no list");
}
