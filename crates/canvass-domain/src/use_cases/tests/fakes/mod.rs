//! In-memory fakes of the ports, one per area of flows, and the values tests build them from. A fake keeps its
//! state in one `Clone` value so that a transaction is a snapshot: `rollback` puts it back. They share what
//! [`crate::testing`] keeps (surveys, idempotency keys, clocks, snapshots) and stub what they do not use with its
//! `not_kept!`.

pub mod answer_sets;
pub mod distribution;
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
