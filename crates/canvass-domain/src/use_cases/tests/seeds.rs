//! Where the use cases' tests start: the one in-memory store ([`crate::testing::Memory`]) seeded for each area of
//! flows, and the values tests build it from. Its state is one `Clone` value, so a transaction is a snapshot:
//! `rollback` puts it back.

pub mod answer_sets;
pub mod distribution;
pub mod outbox;
pub mod pages;

pub use crate::testing::{At, Ticking, NOW};

/// A store in memory with two accounts made by the use case: Acme (its first user, `owner@acme.example`) and
/// Other.
pub fn two_accounts() -> (crate::testing::Memory, crate::AccountId, crate::AccountId) {
    let mut memory = crate::testing::Memory::default();
    let mut create = |name: &str, email: &str| {
        crate::use_cases::accounts::create_account(&mut memory, &At(NOW), name, email).unwrap().account_id
    };
    let (acme, other) = (create("Acme", "owner@acme.example"), create("Other", "owner@other.example"));
    (memory, acme, other)
}

/// The fields a validation error names, in order; panics on any other outcome.
pub fn invalid_fields<T: std::fmt::Debug>(result: Result<T, crate::DomainError>) -> Vec<String> {
    match result {
        Err(crate::DomainError::Invalid(errors)) => errors.into_iter().map(|e| e.field).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

/// Whether `result` is `NotFound` of `what`.
pub fn not_found<T>(result: &Result<T, crate::DomainError>, what: &str) -> bool {
    matches!(result, Err(crate::DomainError::NotFound(found)) if found.noun() == what)
}
