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

/// Implements `SendoutRepository` for a fake that knows sendouts only as `sendouts: Vec<(AccountId, SurveyId,
/// SendoutId)>`: `sendout_kind` finds one there (an EMAIL sendout) within its account and survey; the rest is not
/// kept.
macro_rules! sendouts_by_id {
    ($fake:ty) => {
        impl $crate::ports::SendoutRepository for $fake {
            fn sendout_kind(
                &mut self,
                account: $crate::ids::AccountId,
                survey: $crate::ids::SurveyId,
                id: $crate::ids::SendoutId,
            ) -> $crate::ports::RepoResult<Option<$crate::distribution::DispatchType>> {
                let held = self.sendouts.contains(&(account, survey, id));
                Ok(held.then_some($crate::distribution::DispatchType::Email))
            }

            $crate::testing::not_kept! {
                fn insert_sendout(&mut self, account: $crate::ids::AccountId, survey: $crate::ids::SurveyId, draft: &$crate::distribution::SendoutDraft, now: time::OffsetDateTime) -> $crate::ports::RepoResult<$crate::distribution::Sendout>;
                fn list_sendouts(&mut self, account: $crate::ids::AccountId, survey: $crate::ids::SurveyId) -> $crate::ports::RepoResult<Option<Vec<$crate::distribution::Sendout>>>;
                fn find_sendout(&mut self, account: $crate::ids::AccountId, survey: $crate::ids::SurveyId, id: $crate::ids::SendoutId, lock: bool) -> $crate::ports::RepoResult<Option<$crate::distribution::Sendout>>;
                fn apply_transition(&mut self, account: $crate::ids::AccountId, id: $crate::ids::SendoutId, transition: $crate::distribution::Transition, now: time::OffsetDateTime) -> $crate::ports::RepoResult<()>;
                fn copy_sendouts(&mut self, account: $crate::ids::AccountId, from: $crate::ids::SurveyId, to: $crate::ids::SurveyId, ids: &[$crate::ids::SendoutId], now: time::OffsetDateTime) -> $crate::ports::RepoResult<()>;
                fn insert_label(&mut self, account: $crate::ids::AccountId, sendout: $crate::ids::SendoutId, draft: &$crate::distribution::LabelDraft, now: time::OffsetDateTime) -> $crate::ports::RepoResult<$crate::distribution::Label>;
                fn list_labels(&mut self, account: $crate::ids::AccountId, sendout: $crate::ids::SendoutId) -> $crate::ports::RepoResult<Vec<$crate::distribution::Label>>;
                fn background_label_ids(&mut self, account: $crate::ids::AccountId) -> $crate::ports::RepoResult<Vec<$crate::ids::LabelId>>;
                fn insert_reminder(&mut self, account: $crate::ids::AccountId, sendout: $crate::ids::SendoutId, draft: &$crate::distribution::ReminderDraft, now: time::OffsetDateTime) -> $crate::ports::RepoResult<$crate::distribution::Reminder>;
                fn list_reminders(&mut self, account: $crate::ids::AccountId, sendout: $crate::ids::SendoutId) -> $crate::ports::RepoResult<Vec<$crate::distribution::Reminder>>;
                fn list_documents(&mut self, account: $crate::ids::AccountId) -> $crate::ports::RepoResult<Vec<$crate::distribution::BgDocument>>;
                fn find_document(&mut self, account: $crate::ids::AccountId, id: $crate::ids::BgDocumentId) -> $crate::ports::RepoResult<Option<$crate::distribution::BgDocument>>;
            }
        }
    };
}
pub(crate) use sendouts_by_id;

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
    matches!(result, Err(crate::DomainError::NotFound(found)) if found.noun() == what)
}
