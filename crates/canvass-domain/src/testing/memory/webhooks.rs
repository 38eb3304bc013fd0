//! Webhooks, the events that write their deliveries, and the deliveries' claims and attempts.

use time::OffsetDateTime;

use super::{Memory, State};
use crate::ids::{AccountId, WebhookId};
use crate::ports::{RepoResult, WebhookEvents, WebhookRepository};
use crate::webhook::{
    AttemptRecord, ClaimedDelivery, DeliveryStatus, DeliveryView, EventSubject, Webhook, WebhookDraft, WebhookEvent,
    WebhookSecret,
};
use crate::RepoError;

impl WebhookEvents for Memory {
    fn enqueue_events(
        &mut self,
        event: WebhookEvent,
        subjects: &[EventSubject],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        if self.hooks.events_fail {
            return Err(RepoError::Unavailable("the webhook events could not be written".into()));
        }
        self.state.events.extend(subjects.iter().map(|subject| (event, *subject)));
        for subject in subjects {
            let subscribed: Vec<WebhookId> = self
                .state
                .webhooks
                .iter()
                .filter(|(owner, w, _)| *owner == subject.account_id && w.active && w.events.contains(&event))
                .map(|(_, webhook, _)| webhook.id)
                .collect();
            for webhook in subscribed {
                self.state.push_delivery(subject.account_id, webhook, event, Some(*subject), now);
            }
        }
        Ok(())
    }
}

impl WebhookRepository for Memory {
    fn insert_webhook(
        &mut self,
        account: AccountId,
        draft: &WebhookDraft,
        secret: &WebhookSecret,
        now: OffsetDateTime,
    ) -> RepoResult<Webhook> {
        let webhook = Webhook {
            id: WebhookId::new(self.state.next_id()),
            url: draft.url().to_owned(),
            events: draft.events().to_vec(),
            description: draft.description().map(str::to_owned),
            active: true,
            created_at: now,
            last_delivery_at: None,
            consecutive_failures: 0,
        };
        self.state.webhooks.push((account, webhook.clone(), secret.clone()));
        Ok(webhook)
    }

    fn list_webhooks(&mut self, account: AccountId) -> RepoResult<Vec<Webhook>> {
        Ok(self.state.webhooks.iter().filter(|(owner, _, _)| *owner == account).map(|(_, w, _)| w.clone()).collect())
    }

    fn find_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<Option<Webhook>> {
        Ok(self.state.webhook(account, id).cloned())
    }

    fn delete_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<bool> {
        if self.state.webhook(account, id).is_none() {
            return Ok(false);
        }
        self.state.webhooks.retain(|(owner, w, _)| !(*owner == account && w.id == id));
        self.state.deliveries.retain(|d| !(d.account_id == account && d.webhook_id == id));
        Ok(true)
    }

    fn enqueue_test(&mut self, account: AccountId, id: WebhookId, now: OffsetDateTime) -> RepoResult<bool> {
        if self.state.webhook(account, id).is_none() {
            return Ok(false);
        }
        self.state.push_delivery(account, id, WebhookEvent::Test, None, now);
        Ok(true)
    }

    fn list_deliveries(&mut self, account: AccountId, id: WebhookId, limit: i64) -> RepoResult<Vec<DeliveryView>> {
        let ours = self.state.deliveries.iter().rev().filter(|d| d.account_id == account && d.webhook_id == id);
        Ok(ours.take(usize::try_from(limit).unwrap_or(0)).map(|d| d.view.clone()).collect())
    }

    fn claim_webhook_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedDelivery>> {
        let State { deliveries, webhooks, .. } = &mut self.state;
        let mut claimed = Vec::new();
        for delivery in deliveries.iter_mut() {
            let due = delivery.view.status == DeliveryStatus::Pending
                && delivery.view.next_attempt_at.is_some_and(|due| due <= now)
                && delivery.lease_until.is_none_or(|lease| lease < now);
            let hook =
                webhooks.iter().find(|(owner, w, _)| *owner == delivery.account_id && w.id == delivery.webhook_id);
            let (Some((_, webhook, secret)), true) = (hook, due) else { continue };
            if i64::try_from(claimed.len()).unwrap_or(i64::MAX) >= limit {
                break;
            }
            delivery.view.attempts += 1;
            delivery.lease_until = Some(lease_until);
            let nothing = EventSubject {
                account_id: delivery.account_id,
                survey_id: None,
                sendout_id: None,
                respondent_id: None,
                answer_set_id: None,
                hold: None,
            };
            claimed.push(ClaimedDelivery {
                account_id: delivery.account_id,
                id: delivery.view.id,
                message_id: format!("msg_{:032x}", delivery.view.id),
                url: webhook.url.clone(),
                secret: secret.clone(),
                event: delivery.view.event,
                subject: delivery.subject.unwrap_or(nothing),
                occurred_at: delivery.occurred_at,
                attempts: delivery.view.attempts,
                lease_until,
            });
        }
        Ok(claimed)
    }

    fn record_webhook_attempts(&mut self, attempts: &[AttemptRecord]) -> RepoResult<()> {
        // Per webhook: the round's time, whether one of its attempts succeeded, how many failed.
        let mut rounds: Vec<(AccountId, WebhookId, OffsetDateTime, bool, i32)> = Vec::new();
        for attempt in attempts {
            let Some(delivery) = self.state.deliveries.iter_mut().find(|d| {
                d.account_id == attempt.account_id
                    && d.view.id == attempt.id
                    && d.lease_until == Some(attempt.lease_until)
            }) else {
                continue;
            };
            delivery.view.status = attempt.status;
            delivery.view.last_status_code = attempt.status_code;
            delivery.view.last_error = attempt.error.clone().or(delivery.view.last_error.take());
            delivery.view.next_attempt_at = attempt.due_at.filter(|_| attempt.status == DeliveryStatus::Pending);
            delivery.lease_until = None;
            let key = (delivery.account_id, delivery.webhook_id);
            let at = rounds.iter().position(|(account, webhook, ..)| (*account, *webhook) == key);
            let at = at.unwrap_or_else(|| {
                rounds.push((key.0, key.1, attempt.attempted_at, false, 0));
                rounds.len() - 1
            });
            let round = &mut rounds[at];
            round.2 = round.2.max(attempt.attempted_at);
            round.3 |= !attempt.failed();
            round.4 += i32::from(attempt.failed());
        }
        for (account, id, at, succeeded, failures) in rounds {
            if let Some((_, webhook, _)) = self.state.webhooks.iter_mut().find(|(o, w, _)| *o == account && w.id == id)
            {
                webhook.last_delivery_at = Some(at);
                webhook.consecutive_failures = if succeeded { 0 } else { webhook.consecutive_failures + failures };
            }
        }
        Ok(())
    }
}
