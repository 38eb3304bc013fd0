//! The directory: a contact is created checked, unique within its account by email address (case-insensitively)
//! and by phone number (a 409 naming the contact that holds it), searched a page at a time, changed by a PATCH that
//! merges, deleted; another account's contacts are not found.

use std::collections::BTreeMap;

use crate::directory::{ContactInput, ContactPatch};
use crate::error::{ConflictKind, DomainError};
use crate::ids::ContactId;
use crate::language::Language;
use crate::paging::PageRequest;
use crate::use_cases::contacts;

use super::seeds::{invalid_fields, not_found, two_accounts, At, NOW};

fn by_email(email: &str, first_name: &str) -> ContactInput {
    ContactInput { email: Some(email.into()), first_name: Some(first_name.into()), ..ContactInput::default() }
}

fn exists_as(result: Result<crate::directory::Contact, DomainError>) -> Option<ContactId> {
    match result {
        Err(DomainError::Conflict { kind: ConflictKind::ContactExists, values, .. }) => {
            values.first().and_then(|id| id.parse().ok()).map(ContactId::new)
        }
        _ => None,
    }
}

fn first_page(size: i64) -> PageRequest {
    PageRequest::new(1, size, "pageNumber", "pageSize").unwrap()
}

#[test]
fn a_contact_is_unique_in_its_account_by_email_and_by_phone() {
    let (mut fake, acme, other) = two_accounts();
    let clock = At(NOW);
    let anna = contacts::create(&mut fake, &clock, acme, by_email("anna@example.com", "Anna")).unwrap();
    assert_eq!(exists_as(contacts::create(&mut fake, &clock, acme, by_email("ANNA@example.com", "A"))), Some(anna.id));
    let phone = ContactInput { phone: Some("+4791234567".into()), ..ContactInput::default() };
    let bo = contacts::create(&mut fake, &clock, acme, phone.clone()).unwrap();
    let both = ContactInput { email: Some("new@example.com".into()), ..phone.clone() };
    assert_eq!(exists_as(contacts::create(&mut fake, &clock, acme, both)), Some(bo.id), "the phone is taken");
    assert!(
        contacts::create(&mut fake, &clock, other, by_email("anna@example.com", "Anna")).is_ok(),
        "another account"
    );
    assert_eq!(invalid_fields(contacts::create(&mut fake, &clock, acme, ContactInput::default())), ["email"]);
    assert_eq!(fake.state.contacts.len(), 3);
}

#[test]
fn a_patch_merges_and_cannot_take_another_contacts_email() {
    let (mut fake, acme, other) = two_accounts();
    let clock = At(NOW);
    let mut input = by_email("anna@example.com", "Anna");
    input.attributes = BTreeMap::from([("tier".to_owned(), "gold".to_owned()), ("city".to_owned(), "Oslo".to_owned())]);
    let anna = contacts::create(&mut fake, &clock, acme, input).unwrap();
    let bo = contacts::create(&mut fake, &clock, acme, by_email("bo@example.com", "Bo")).unwrap();

    let later = At(NOW + time::Duration::hours(1));
    let patch = ContactPatch {
        language: Some(Some(Language::Sv)),
        attributes: BTreeMap::from([("tier".to_owned(), None), ("plan".to_owned(), Some("pro".to_owned()))]),
        ..ContactPatch::default()
    };
    let changed = contacts::patch(&mut fake, &later, acme, anna.id, patch).unwrap();
    assert_eq!((changed.language, changed.first_name.as_deref()), (Some(Language::Sv), Some("Anna")));
    assert_eq!(changed.attributes.keys().collect::<Vec<_>>(), ["city", "plan"]);
    assert_eq!((changed.created_at, changed.updated_at), (NOW, NOW + time::Duration::hours(1)));

    let onto_bo = ContactPatch { email: Some(Some("BO@example.com".into())), ..ContactPatch::default() };
    assert_eq!(exists_as(contacts::patch(&mut fake, &later, acme, anna.id, onto_bo)), Some(bo.id));
    assert_eq!(contacts::get(&mut fake, acme, anna.id).unwrap().email.as_deref(), Some("anna@example.com"));
    let own = ContactPatch { email: Some(Some("Anna@Example.com".into())), ..ContactPatch::default() };
    assert!(contacts::patch(&mut fake, &later, acme, anna.id, own).is_ok(), "its own address, in other case");
    assert!(not_found(&contacts::patch(&mut fake, &later, other, anna.id, ContactPatch::default()), "contact"));
}

#[test]
fn contacts_are_searched_a_page_at_a_time_and_deleted_within_their_account() {
    let (mut fake, acme, other) = two_accounts();
    let clock = At(NOW);
    for (email, name) in [("anna@example.com", "Anna"), ("bo@example.com", "Bo"), ("hanna@example.com", "Hanna")] {
        contacts::create(&mut fake, &clock, acme, by_email(email, name)).unwrap();
    }
    contacts::create(&mut fake, &clock, other, by_email("anna@other.example", "Anna")).unwrap();
    let found = contacts::page(&mut fake, acme, Some(" ANNA "), None, first_page(1)).unwrap();
    assert_eq!((found.total_count, found.items.len()), (2, 1), "Anna and Hanna, one a page");
    assert_eq!(found.items[0].first_name.as_deref(), Some("Anna"));
    assert_eq!(
        contacts::page(&mut fake, acme, Some(""), None, first_page(10)).unwrap().total_count,
        3,
        "blank is none"
    );
    let long = "x".repeat(contacts::MAX_SEARCH + 1);
    assert_eq!(invalid_fields(contacts::page(&mut fake, acme, Some(&long), None, first_page(10))), ["search"]);

    let anna = found.items[0].id;
    assert!(not_found(&contacts::delete(&mut fake, other, anna), "contact"));
    contacts::delete(&mut fake, acme, anna).unwrap();
    assert!(not_found(&contacts::get(&mut fake, acme, anna), "contact"));
    assert!(not_found(&contacts::delete(&mut fake, acme, anna), "contact"));
}
