//! Adding a batch of respondents: malformed items refuse the whole batch, blocklisted and duplicate contacts are
//! refused one by one, and the rest are inserted together, in one transaction.

use crate::distribution::{DispatchType, RespondentInput, RespondentStatus};
use crate::error::DomainError;
use crate::use_cases::respondents::{add_batch, RejectReason};

use super::seeds::distribution::ACCOUNT;
use super::seeds::{At, NOW};
use crate::testing::Memory;

fn email(contact: &str) -> RespondentInput {
    RespondentInput {
        contact_details: contact.into(),
        send_mail: true,
        background_data: Default::default(),
        language: None,
    }
}

#[test]
fn blocklisted_and_duplicate_contacts_are_refused_one_by_one() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    fake.pending(sendout, "known@example.com");
    fake.seed_blocked(ACCOUNT, "blocked@example.com");
    let batch = vec![
        email("new@example.com"),
        email("Blocked@Example.com"),
        email("KNOWN@example.com"),
        email("twice@example.com"),
        email("twice@example.com"),
    ];
    let outcome = add_batch(&mut fake, &At(NOW), ACCOUNT, survey, sendout, batch).unwrap();

    let added: Vec<&str> = outcome.added.iter().map(|r| r.contact_details.as_str()).collect();
    assert_eq!(added, ["new@example.com", "twice@example.com"]);
    assert!(outcome.added.iter().all(|r| r.status == RespondentStatus::Pending && r.added_at == NOW));
    let rejected: Vec<(usize, RejectReason)> = outcome.rejected.iter().map(|r| (r.index, r.reason)).collect();
    assert_eq!(rejected, [(1, RejectReason::Blocklisted), (2, RejectReason::Duplicate), (4, RejectReason::Duplicate)]);
    assert_eq!(fake.state.respondents.len(), 3);
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (1, 0));
}

#[test]
fn one_malformed_item_refuses_the_whole_batch_and_names_every_bad_index() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let batch = vec![email("fine@example.com"), email("not an address"), email(""), email("also@example.com")];
    let error = add_batch(&mut fake, &At(NOW), ACCOUNT, survey, sendout, batch).unwrap_err();

    let DomainError::Invalid(errors) = error else { panic!("expected a validation error, got {error:?}") };
    let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["[1].contactDetails", "[2].contactDetails"], "paths relative to the batch");
    assert!(fake.state.respondents.is_empty(), "nothing is added");
    assert_eq!(fake.transactions.rolled_back, 1);
}

#[test]
fn another_accounts_sendout_is_not_found() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let other = crate::AccountId::new(2);
    let error = add_batch(&mut fake, &At(NOW), other, survey, sendout, vec![email("a@example.com")]).unwrap_err();
    assert!(matches!(error, DomainError::NotFound(_)), "{error:?}");
    assert!(fake.state.respondents.is_empty());
}

#[test]
fn an_empty_batch_is_refused_before_the_store_is_touched() {
    let (mut fake, survey, sendout) = Memory::with_sendout(DispatchType::Email);
    let error = add_batch(&mut fake, &At(NOW), ACCOUNT, survey, sendout, Vec::new()).unwrap_err();
    assert!(matches!(error, DomainError::Invalid(_)), "{error:?}");
    assert_eq!(fake.transactions.committed + fake.transactions.rolled_back, 0);
}
