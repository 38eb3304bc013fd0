//! Bodies of the webhook endpoints.

use super::mirror::mirrored;
use canvass_domain::webhook::{
    CreatedWebhook, DeliveryStatus, DeliveryView, Webhook, WebhookEvent, WebhookSecret, DESCRIPTION_MAX, URL_MAX,
};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

mirrored! {
    /// An event a webhook can subscribe to.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
    pub enum EventBody => WebhookEvent {
        /// An answer set was completed.
        #[serde(rename = "answerSet.completed")]
        AnswerSetCompleted,
        /// A respondent's invitation was handed to the relay or provider.
        #[serde(rename = "respondent.sent")]
        RespondentSent,
        /// A respondent's message bounced for good.
        #[serde(rename = "respondent.bounced")]
        RespondentBounced,
        /// A respondent opted out.
        #[serde(rename = "respondent.optedOut")]
        RespondentOptedOut,
        /// A sendout was activated.
        #[serde(rename = "sendout.activated")]
        SendoutActivated,
        /// A sendout's messages began to wait on relay or sender trouble (once per hold; `data.kind` says whose).
        #[serde(rename = "sendout.deliveryHeld")]
        SendoutDeliveryHeld,
    }
}

mirrored! {
    /// An event as a delivery names it: one a webhook subscribes to, or `webhook.test`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
    pub enum DeliveryEventBody <= WebhookEvent {
        /// An answer set was completed.
        #[serde(rename = "answerSet.completed")]
        AnswerSetCompleted,
        /// A respondent's invitation was handed to the relay or provider.
        #[serde(rename = "respondent.sent")]
        RespondentSent,
        /// A respondent's message bounced for good.
        #[serde(rename = "respondent.bounced")]
        RespondentBounced,
        /// A respondent opted out.
        #[serde(rename = "respondent.optedOut")]
        RespondentOptedOut,
        /// A sendout was activated.
        #[serde(rename = "sendout.activated")]
        SendoutActivated,
        /// A sendout's messages began to wait on relay or sender trouble.
        #[serde(rename = "sendout.deliveryHeld")]
        SendoutDeliveryHeld,
        /// A test asked for with `POST /webhooks/{webhookId}/test`.
        #[serde(rename = "webhook.test")]
        Test,
    }
}

/// Creates a webhook.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateWebhookBody {
    /// Where deliveries are POSTed: an http or https URL, not of a private, loopback or link-local address.
    #[schema(format = "uri", min_length = 1, max_length = 2000)]
    pub url: String,
    /// The events to deliver (at least one).
    #[schema(min_items = 1)]
    pub events: Vec<EventBody>,
    /// What the webhook is for.
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

/// A webhook (its secret is shown only when it is created).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookResponse {
    /// Its id.
    pub webhook_id: i64,
    /// Where deliveries are POSTed.
    #[schema(format = "uri", max_length = 2000)]
    pub url: String,
    /// The events it receives.
    pub events: Vec<DeliveryEventBody>,
    /// What it is for.
    #[schema(max_length = 500)]
    pub description: Option<String>,
    /// Whether events are delivered to it.
    pub active: bool,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When its last delivery attempt was made, whatever came of it; null before the first.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub last_delivery_at: Option<OffsetDateTime>,
    /// Its failed delivery attempts since the last successful one: 0 after a success and before any attempt.
    #[schema(minimum = 0)]
    pub consecutive_failures: i32,
}

impl From<Webhook> for WebhookResponse {
    fn from(webhook: Webhook) -> Self {
        Self {
            webhook_id: webhook.id.get(),
            url: webhook.url,
            events: webhook.events.into_iter().map(DeliveryEventBody::from).collect(),
            description: webhook.description,
            active: webhook.active,
            created_at: webhook.created_at,
            last_delivery_at: webhook.last_delivery_at,
            consecutive_failures: webhook.consecutive_failures,
        }
    }
}

/// A webhook just created, with its signing secret: shown in this response only (its Debug output hides it).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhookResponse {
    /// Its id.
    pub webhook_id: i64,
    /// Where deliveries are POSTed.
    #[schema(format = "uri", max_length = 2000)]
    pub url: String,
    /// The events it receives.
    pub events: Vec<DeliveryEventBody>,
    /// What it is for.
    #[schema(max_length = 500)]
    pub description: Option<String>,
    /// The signing secret: `whsec_` and the base64 of 32 random bytes. Keep it: it is never shown again.
    #[schema(value_type = String, pattern = "^whsec_[A-Za-z0-9+/]{43}=$")]
    #[serde(serialize_with = "shown_once")]
    pub secret: WebhookSecret,
    /// Whether events are delivered to it.
    pub active: bool,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When its last delivery attempt was made, whatever came of it; null before the first.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub last_delivery_at: Option<OffsetDateTime>,
    /// Its failed delivery attempts since the last successful one: 0 after a success and before any attempt.
    #[schema(minimum = 0)]
    pub consecutive_failures: i32,
}

impl From<CreatedWebhook> for CreatedWebhookResponse {
    fn from(created: CreatedWebhook) -> Self {
        let webhook = WebhookResponse::from(created.webhook);
        Self {
            webhook_id: webhook.webhook_id,
            url: webhook.url,
            events: webhook.events,
            description: webhook.description,
            secret: created.secret,
            active: webhook.active,
            created_at: webhook.created_at,
            last_delivery_at: webhook.last_delivery_at,
            consecutive_failures: webhook.consecutive_failures,
        }
    }
}

mirrored! {
    /// How far a delivery has come.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
    pub enum DeliveryStatusBody <= DeliveryStatus {
        /// Waiting for its first or next attempt.
        Pending,
        /// The receiver answered 2xx.
        Delivered,
        /// Given up after the last attempt.
        Failed,
    }
}

/// One delivery of an event to a webhook, with its attempts so far.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryResponse {
    /// Its id.
    pub delivery_id: i64,
    /// The event delivered.
    pub event: DeliveryEventBody,
    /// Pending, Delivered or Failed.
    pub status: DeliveryStatusBody,
    /// Attempts made so far.
    pub attempts: i32,
    /// The HTTP status the receiver answered the last attempt with (null before any answer).
    pub last_status_code: Option<i32>,
    /// Why its last failed attempt failed, kept after a later success: `the receiver answered <status>`, or why
    /// the receiver was not reached (a refused connection, a timeout, a private address), never the URL. Null
    /// while no attempt has failed.
    #[schema(required = true, max_length = 2000)]
    pub last_error: Option<String>,
    /// When the next attempt is due (null once Delivered or Failed).
    #[serde(with = "time::serde::rfc3339::option")]
    pub next_attempt_at: Option<OffsetDateTime>,
}

impl From<DeliveryView> for DeliveryResponse {
    fn from(view: DeliveryView) -> Self {
        Self {
            delivery_id: view.id,
            event: view.event.into(),
            status: view.status.into(),
            attempts: view.attempts,
            last_status_code: view.last_status_code,
            last_error: view.last_error,
            next_attempt_at: view.next_attempt_at,
        }
    }
}

/// Writes the secret in the create answer, the one place it is shown.
fn shown_once<S: serde::Serializer>(secret: &WebhookSecret, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(secret.expose())
}

const _: () = assert!(
    URL_MAX == 2000 && DESCRIPTION_MAX == 500 && canvass_domain::limits::REASON == 2000,
    "the schema's lengths follow the domain's"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_created_answer_hides_its_secret_in_debug_output() {
        let created = CreatedWebhookResponse {
            webhook_id: 1,
            url: "https://hooks.example/in".into(),
            events: vec![DeliveryEventBody::SendoutActivated],
            description: None,
            secret: WebhookSecret::generate(),
            active: true,
            created_at: OffsetDateTime::UNIX_EPOCH,
            last_delivery_at: None,
            consecutive_failures: 0,
        };
        let shown = format!("{created:?}");
        assert!(!shown.contains("whsec_") && shown.contains("<redacted>"), "{shown}");
        let body = serde_json::to_value(&created).unwrap();
        assert_eq!(body["secret"], created.secret.expose(), "the client sees it, once");
    }
}
