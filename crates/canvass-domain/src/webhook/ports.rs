//! The ports of webhooks' store: the webhooks of an account, the events written for them, and their deliveries.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use time::OffsetDateTime;

use crate::ids::{AccountId, WebhookId};
use crate::ports::RepoResult;
use crate::webhook::{
    AttemptRecord, ClaimedDelivery, DeliveryView, EventSubject, Webhook, WebhookDraft, WebhookEvent, WebhookSecret,
};

/// Writes events, in the transaction of the change that causes them.
pub trait WebhookEvents {
    /// Writes one pending delivery of `event`, due at `now`, for every subject and every active webhook of the
    /// subject's account subscribed to `event`, in one statement per account whatever the number of subjects (each
    /// subject names its account: a delivery round spans accounts, a request's change has one). An account without
    /// webhooks costs one indexed read.
    fn enqueue_events(&mut self, event: WebhookEvent, subjects: &[EventSubject], now: OffsetDateTime)
        -> RepoResult<()>;
}

/// The account's webhooks, and the delivery worker's claims and records.
pub trait WebhookRepository {
    /// Stores a new webhook, active, with its secret.
    fn insert_webhook(
        &mut self,
        account: AccountId,
        draft: &WebhookDraft,
        secret: &WebhookSecret,
        now: OffsetDateTime,
    ) -> RepoResult<Webhook>;
    /// The account's webhooks, in creation order.
    fn list_webhooks(&mut self, account: AccountId) -> RepoResult<Vec<Webhook>>;
    /// One webhook of the account.
    fn find_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<Option<Webhook>>;
    /// Deletes a webhook and its deliveries; `false` when there was none.
    fn delete_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<bool>;
    /// Writes a `webhook.test` delivery for the webhook, whatever its events, due at `now`; `false` when there is
    /// no such webhook.
    fn enqueue_test(&mut self, account: AccountId, id: WebhookId, now: OffsetDateTime) -> RepoResult<bool>;
    /// The webhook's newest `limit` deliveries, newest first.
    fn list_deliveries(&mut self, account: AccountId, id: WebhookId, limit: i64) -> RepoResult<Vec<DeliveryView>>;
    /// Claims up to `limit` due pending deliveries of any account that no live lease holds, leasing them until
    /// `lease_until` and counting the attempt, in order of id. Concurrent workers never claim the same delivery.
    /// The limit is shared over the accounts with due deliveries (the oldest due first), each claimed by a
    /// statement of its own, so that every statement but the list of accounts names one account.
    fn claim_webhook_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedDelivery>>;
    /// Records a round's attempts (of any account) in one statement per account; an attempt whose lease is no
    /// longer the delivery's (another worker claimed it since) changes nothing. A delivery keeps the reason of its
    /// last failed attempt (`last_error`) after a later success. Each webhook with a recorded attempt gets the
    /// round's time as its `last_delivery_at`, and its `consecutive_failures` is set to 0 when one of its attempts
    /// in the round succeeded, else raised by the round's failed attempts (a round's attempts are made at once, so
    /// a success among them counts as the latest).
    fn record_webhook_attempts(&mut self, attempts: &[AttemptRecord]) -> RepoResult<()>;
}
