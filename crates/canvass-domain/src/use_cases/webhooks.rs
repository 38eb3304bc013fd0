//! Webhooks: creating, reading, deleting and testing them, listing their deliveries, and the worker's rounds that
//! claim due deliveries, sign and send them, and record each attempt. A round takes a unit of work to claim and
//! another to record, and holds none while its requests are on the network; a crash in between leaves the lease
//! to run out, and the delivery is sent again with the same `webhook-id` (at least once).

use time::{Duration, OffsetDateTime};

use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, WebhookId};
use crate::ports::{Store, StoreExt, WebhookEvents, WebhookRepository};
use crate::webhook::{
    AttemptRecord, CreatedWebhook, DeliveryStatus, DeliveryView, EventSubject, Webhook, WebhookDraft, WebhookEvent,
    WebhookSecret, WebhookSender, DELIVERIES_LISTED,
};

/// How long a claimed delivery is reserved for the worker that claimed it: more than a round of requests, each
/// cut off after its timeout, can take.
pub const LEASE: Duration = Duration::minutes(2);
/// Deliveries one round claims at most.
pub const ROUND: i64 = 50;

/// A new webhook as a client sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookInput {
    /// Where deliveries go.
    pub url: String,
    /// The events to subscribe to.
    pub events: Vec<WebhookEvent>,
    /// What it is for.
    pub description: Option<String>,
}

/// Creates a webhook with a new secret (returned this once). `allow_private` lets its URL name a private address.
pub fn create(
    uow: &mut (impl WebhookRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    input: WebhookInput,
    allow_private: bool,
) -> Result<CreatedWebhook, DomainError> {
    let draft = WebhookDraft::check(&input.url, input.events, input.description, allow_private)
        .map_err(DomainError::Invalid)?;
    let secret = WebhookSecret::generate();
    let webhook = uow.insert_webhook(account, &draft, &secret, clock.now())?;
    Ok(CreatedWebhook { webhook, secret })
}

/// The account's webhooks, in creation order.
pub fn list(uow: &mut (impl WebhookRepository + ?Sized), account: AccountId) -> Result<Vec<Webhook>, DomainError> {
    Ok(uow.list_webhooks(account)?)
}

/// One webhook of the account.
pub fn get(
    uow: &mut (impl WebhookRepository + ?Sized),
    account: AccountId,
    id: WebhookId,
) -> Result<Webhook, DomainError> {
    uow.find_webhook(account, id)?.ok_or(DomainError::NotFound(Resource::Webhook))
}

/// Deletes a webhook with its deliveries.
pub fn delete(
    uow: &mut (impl WebhookRepository + ?Sized),
    account: AccountId,
    id: WebhookId,
) -> Result<(), DomainError> {
    if uow.delete_webhook(account, id)? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Webhook))
    }
}

/// Writes a `webhook.test` delivery for the webhook, due now, whatever its events.
pub fn test(
    uow: &mut (impl WebhookRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    id: WebhookId,
) -> Result<(), DomainError> {
    if uow.enqueue_test(account, id, clock.now())? {
        Ok(())
    } else {
        Err(DomainError::NotFound(Resource::Webhook))
    }
}

/// The webhook's newest deliveries ([`DELIVERIES_LISTED`] at most), newest first.
pub fn deliveries(
    uow: &mut (impl WebhookRepository + ?Sized),
    account: AccountId,
    id: WebhookId,
) -> Result<Vec<DeliveryView>, DomainError> {
    get(uow, account, id)?;
    Ok(uow.list_deliveries(account, id, DELIVERIES_LISTED)?)
}

/// Writes `event` for each subject, for the webhooks of its account that are subscribed to it; nothing when there
/// are no subjects. Called by the use cases that cause events, inside their transaction.
pub fn emit(
    tx: &mut (impl WebhookEvents + ?Sized),
    event: WebhookEvent,
    subjects: &[EventSubject],
    now: OffsetDateTime,
) -> Result<(), DomainError> {
    if subjects.is_empty() {
        return Ok(());
    }
    Ok(tx.enqueue_events(event, subjects, now)?)
}

/// What one round did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WebhookReport {
    /// Deliveries claimed.
    pub claimed: usize,
    /// Answered 2xx.
    pub delivered: usize,
    /// Failed, and due again later.
    pub retried: usize,
    /// Failed on the last attempt, and given up.
    pub failed: usize,
}

/// Runs one round at `now`: claims up to `limit` due deliveries under a lease of `lease`, sends them signed
/// (holding no unit of work meanwhile), and records every attempt in one unit of work, with what it tells of each
/// webhook (its last attempt's time, its consecutive failures).
pub fn deliver_due<S: Store + ?Sized>(
    store: &S,
    sender: &dyn WebhookSender,
    now: OffsetDateTime,
    limit: i64,
    lease: Duration,
) -> Result<WebhookReport, DomainError> {
    let claimed = store.with_uow(|uow| Ok(uow.claim_webhook_deliveries(now, now + lease, limit)?))?;
    let mut report = WebhookReport { claimed: claimed.len(), ..WebhookReport::default() };
    if claimed.is_empty() {
        return Ok(report);
    }
    let requests: Vec<_> = claimed.iter().map(|delivery| delivery.request(now)).collect();
    let results = sender.send_all(&requests);
    let records: Vec<AttemptRecord> =
        claimed.iter().zip(results).map(|(delivery, result)| AttemptRecord::of(delivery, result, now)).collect();
    for record in &records {
        match record.status {
            DeliveryStatus::Delivered => report.delivered += 1,
            DeliveryStatus::Pending => report.retried += 1,
            DeliveryStatus::Failed => report.failed += 1,
        }
    }
    store.with_uow(|uow| Ok(uow.record_webhook_attempts(&records)?))?;
    Ok(report)
}

/// Runs rounds back to back while they come back full (each as [`deliver_due`], at the clock's time), until
/// `stop` answers true, and returns what they did together.
pub fn deliver_all_due<S: Store + ?Sized>(
    store: &S,
    sender: &dyn WebhookSender,
    clock: &dyn Clock,
    stop: &dyn Fn() -> bool,
) -> Result<WebhookReport, DomainError> {
    deliver_all_due_observed(store, sender, clock, stop, &|_| {})
}

/// [`deliver_all_due`], handing each round's report to `observe` once the round's attempts are recorded (a round
/// whose record fails is not observed), so that a later round's failure loses none of the earlier ones' counts.
pub fn deliver_all_due_observed<S: Store + ?Sized>(
    store: &S,
    sender: &dyn WebhookSender,
    clock: &dyn Clock,
    stop: &dyn Fn() -> bool,
    observe: &dyn Fn(&WebhookReport),
) -> Result<WebhookReport, DomainError> {
    let mut total = WebhookReport::default();
    loop {
        let report = deliver_due(store, sender, clock.now(), ROUND, LEASE)?;
        if report.claimed > 0 {
            observe(&report);
        }
        total.claimed += report.claimed;
        total.delivered += report.delivered;
        total.retried += report.retried;
        total.failed += report.failed;
        if (report.claimed as i64) < ROUND || stop() {
            return Ok(total);
        }
    }
}
