//! In-memory fakes of the ports, one per area of flows, and the values tests build them from. A fake keeps its
//! state in one `Clone` value so that a transaction is a snapshot: `rollback` puts it back. They share what
//! [`crate::testing`] keeps (surveys, idempotency keys, clocks, snapshots) and stub what they do not use with its
//! `not_kept!`.

pub mod answer_sets;
pub mod distribution;
pub mod exports;
pub mod insight;
pub mod outbox;
pub mod pages;
pub mod retention;

pub(crate) use crate::testing::{not_kept, snapshot_transactions};
pub use crate::testing::{At, Snapshots, Ticking, NOW};

/// Implements `WebhookEvents` for a fake whose `state` has `webhook_events: Vec<(WebhookEvent, EventSubject)>`:
/// every event written, in order (rolled back with the rest of the state).
macro_rules! record_webhook_events {
    ($fake:ty) => {
        impl $crate::ports::WebhookEvents for $fake {
            fn enqueue_events(
                &mut self,
                event: $crate::webhook::WebhookEvent,
                subjects: &[$crate::webhook::EventSubject],
                _now: time::OffsetDateTime,
            ) -> $crate::ports::RepoResult<()> {
                self.state.webhook_events.extend(subjects.iter().map(|subject| (event, *subject)));
                Ok(())
            }
        }
    };
}
pub(crate) use record_webhook_events;

/// The events a fake recorded.
pub type WebhookEvents = Vec<(crate::webhook::WebhookEvent, crate::webhook::EventSubject)>;

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
    matches!(result, Err(crate::DomainError::NotFound(found)) if *found == what)
}
