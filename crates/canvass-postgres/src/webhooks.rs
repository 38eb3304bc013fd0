//! Webhooks on PostgreSQL: `webhooks` (an account's subscriptions, with their secrets) and `webhook_deliveries`
//! (one row per event and subscribed webhook, claimed under a lease like the outbox). Events are written with one
//! `INSERT … SELECT` per kind, joining the subjects (unnested arrays) to the accounts' subscribed webhooks.

use canvass_domain::ids::{AccountId, AnswerSetId, RespondentId, SendoutId, SurveyId, WebhookId};
use canvass_domain::ports::{RepoResult, WebhookEvents, WebhookRepository};
use canvass_domain::webhook::{
    AttemptRecord, ClaimedDelivery, DeliveryStatus, DeliveryView, EventSubject, Webhook, WebhookDraft, WebhookEvent,
    WebhookSecret,
};
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text, Timestamptz};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

/// A webhook's columns, as every read selects them.
const WEBHOOK_COLUMNS: &str = "id, url, events, description, active, created_at";

#[derive(QueryableByName)]
struct WebhookRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Array<Text>)]
    events: Vec<String>,
    #[diesel(sql_type = Nullable<Text>)]
    description: Option<String>,
    #[diesel(sql_type = Bool)]
    active: bool,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
}

impl TryFrom<WebhookRow> for Webhook {
    type Error = RepoError;

    fn try_from(row: WebhookRow) -> Result<Self, RepoError> {
        let events = row
            .events
            .iter()
            .map(|name| name.parse().map_err(|_| RepoError::Other(format!("stored event `{name}` is unknown"))))
            .collect::<Result<_, _>>()?;
        Ok(Webhook {
            id: WebhookId::new(row.id),
            url: row.url,
            events,
            description: row.description,
            active: row.active,
            created_at: row.created_at,
        })
    }
}

fn webhooks(rows: Vec<WebhookRow>) -> RepoResult<Vec<Webhook>> {
    rows.into_iter().map(Webhook::try_from).collect()
}

#[derive(QueryableByName)]
struct DeliveryRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    event: Named<WebhookEvent>,
    #[diesel(sql_type = Text)]
    status: Named<DeliveryStatus>,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Nullable<Integer>)]
    last_status_code: Option<i32>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    next_attempt_at: Option<OffsetDateTime>,
}

#[derive(QueryableByName)]
struct ClaimedRow {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    message_id: String,
    #[diesel(sql_type = Text)]
    url: String,
    #[diesel(sql_type = Text)]
    secret: String,
    #[diesel(sql_type = Text)]
    event: Named<WebhookEvent>,
    #[diesel(sql_type = Nullable<BigInt>)]
    survey_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    sendout_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    respondent_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    answer_set_id: Option<i64>,
    #[diesel(sql_type = Timestamptz)]
    occurred_at: OffsetDateTime,
    #[diesel(sql_type = Integer)]
    attempts: i32,
    #[diesel(sql_type = Timestamptz)]
    lease_until: OffsetDateTime,
}

impl From<ClaimedRow> for ClaimedDelivery {
    fn from(row: ClaimedRow) -> Self {
        let account_id = AccountId::new(row.account_id);
        ClaimedDelivery {
            account_id,
            id: row.id,
            message_id: row.message_id,
            url: row.url,
            secret: WebhookSecret::from_stored(row.secret),
            event: row.event.0,
            subject: EventSubject {
                account_id,
                survey_id: row.survey_id.map(SurveyId::new),
                sendout_id: row.sendout_id.map(SendoutId::new),
                respondent_id: row.respondent_id.map(RespondentId::new),
                answer_set_id: row.answer_set_id.map(AnswerSetId::new),
            },
            occurred_at: row.occurred_at,
            attempts: row.attempts,
            lease_until: row.lease_until,
        }
    }
}

impl WebhookEvents for PgUnitOfWork<'_> {
    fn enqueue_events(
        &mut self,
        event: WebhookEvent,
        subjects: &[EventSubject],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        if subjects.is_empty() {
            return Ok(());
        }
        let accounts: Vec<i64> = subjects.iter().map(|s| s.account_id.get()).collect();
        let surveys: Vec<Option<i64>> = subjects.iter().map(|s| s.survey_id.map(i64::from)).collect();
        let sendouts: Vec<Option<i64>> = subjects.iter().map(|s| s.sendout_id.map(i64::from)).collect();
        let respondents: Vec<Option<i64>> = subjects.iter().map(|s| s.respondent_id.map(i64::from)).collect();
        let answer_sets: Vec<Option<i64>> = subjects.iter().map(|s| s.answer_set_id.map(i64::from)).collect();
        prepared(
            "INSERT INTO webhook_deliveries (account_id, webhook_id, message_id, event, survey_id, sendout_id, \
                 respondent_id, answer_set_id, occurred_at, due_at) \
             SELECT w.account_id, w.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, s.survey_id, \
                 s.sendout_id, s.respondent_id, s.answer_set_id, $7, $7 \
             FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) \
                 AS s (account_id, survey_id, sendout_id, respondent_id, answer_set_id) \
             JOIN webhooks w ON w.account_id = s.account_id AND w.active AND $1 = ANY (w.events)",
        )
        .bind::<Text, _>(event.as_str())
        .bind::<Array<BigInt>, _>(&accounts)
        .bind::<Array<Nullable<BigInt>>, _>(&surveys)
        .bind::<Array<Nullable<BigInt>>, _>(&sendouts)
        .bind::<Array<Nullable<BigInt>>, _>(&respondents)
        .bind::<Array<Nullable<BigInt>>, _>(&answer_sets)
        .bind::<Timestamptz, _>(now)
        .execute(self.conn)
        .or_repo()?;
        Ok(())
    }
}

impl WebhookRepository for PgUnitOfWork<'_> {
    fn insert_webhook(
        &mut self,
        account: AccountId,
        draft: &WebhookDraft,
        secret: &WebhookSecret,
        now: OffsetDateTime,
    ) -> RepoResult<Webhook> {
        let events: Vec<&str> = draft.events().iter().map(|event| event.as_str()).collect();
        let row: WebhookRow = diesel::sql_query(format!(
            "INSERT INTO webhooks (account_id, url, events, description, secret, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING {WEBHOOK_COLUMNS}"
        ))
        .bind::<BigInt, _>(account.get())
        .bind::<Text, _>(draft.url())
        .bind::<Array<Text>, _>(&events)
        .bind::<Nullable<Text>, _>(draft.description())
        .bind::<Text, _>(secret.expose())
        .bind::<Timestamptz, _>(now)
        .get_result(self.conn)
        .or_repo()?;
        row.try_into()
    }

    fn list_webhooks(&mut self, account: AccountId) -> RepoResult<Vec<Webhook>> {
        let rows: Vec<WebhookRow> = prepared(
            "SELECT id, url, events, description, active, created_at FROM webhooks WHERE account_id = $1 ORDER BY id",
        )
        .bind::<BigInt, _>(account.get())
        .load(self.conn)
        .or_repo()?;
        webhooks(rows)
    }

    fn find_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<Option<Webhook>> {
        let rows: Vec<WebhookRow> = prepared(
            "SELECT id, url, events, description, active, created_at FROM webhooks WHERE account_id = $1 AND id = $2",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(id.get())
        .load(self.conn)
        .or_repo()?;
        Ok(webhooks(rows)?.pop())
    }

    fn delete_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<bool> {
        let deleted = prepared("DELETE FROM webhooks WHERE account_id = $1 AND id = $2")
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(id.get())
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted > 0)
    }

    fn enqueue_test(&mut self, account: AccountId, id: WebhookId, now: OffsetDateTime) -> RepoResult<bool> {
        let written = prepared(
            "INSERT INTO webhook_deliveries (account_id, webhook_id, message_id, event, occurred_at, due_at) \
             SELECT account_id, id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'webhook.test', $3, $3 \
             FROM webhooks WHERE account_id = $1 AND id = $2",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(id.get())
        .bind::<Timestamptz, _>(now)
        .execute(self.conn)
        .or_repo()?;
        Ok(written > 0)
    }

    fn list_deliveries(&mut self, account: AccountId, id: WebhookId, limit: i64) -> RepoResult<Vec<DeliveryView>> {
        let rows: Vec<DeliveryRow> = prepared(
            "SELECT id, event, status, attempts, last_status_code, \
                 CASE WHEN status = 'Pending' THEN due_at END AS next_attempt_at \
             FROM webhook_deliveries WHERE account_id = $1 AND webhook_id = $2 ORDER BY id DESC LIMIT $3",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(id.get())
        .bind::<BigInt, _>(limit)
        .load(self.conn)
        .or_repo()?;
        Ok(rows
            .into_iter()
            .map(|row| DeliveryView {
                id: row.id,
                event: row.event.0,
                status: row.status.0,
                attempts: row.attempts,
                last_status_code: row.last_status_code,
                next_attempt_at: row.next_attempt_at,
            })
            .collect())
    }

    fn claim_webhook_deliveries(
        &mut self,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
        limit: i64,
    ) -> RepoResult<Vec<ClaimedDelivery>> {
        let rows: Vec<ClaimedRow> = prepared(
            "WITH claimable AS ( \
                 SELECT account_id, id FROM webhook_deliveries \
                 WHERE status = 'Pending' AND due_at <= $1 AND (lease_until IS NULL OR lease_until < $1) \
                 ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED), \
             d AS ( \
                 UPDATE webhook_deliveries d SET lease_until = $2, attempts = d.attempts + 1 FROM claimable c \
                 WHERE d.account_id = c.account_id AND d.id = c.id RETURNING d.*) \
             SELECT d.account_id, d.id, d.message_id, w.url, w.secret, d.event, d.survey_id, d.sendout_id, \
                 d.respondent_id, d.answer_set_id, d.occurred_at, d.attempts, d.lease_until \
             FROM d JOIN webhooks w ON w.account_id = d.account_id AND w.id = d.webhook_id ORDER BY d.id",
        )
        .bind::<Timestamptz, _>(now)
        .bind::<Timestamptz, _>(lease_until)
        .bind::<BigInt, _>(limit)
        .load(self.conn)
        .or_repo()?;
        Ok(rows.into_iter().map(ClaimedDelivery::from).collect())
    }

    fn record_webhook_attempts(&mut self, attempts: &[AttemptRecord]) -> RepoResult<()> {
        if attempts.is_empty() {
            return Ok(());
        }
        let accounts: Vec<i64> = attempts.iter().map(|a| a.account_id.get()).collect();
        let ids: Vec<i64> = attempts.iter().map(|a| a.id).collect();
        let leases: Vec<OffsetDateTime> = attempts.iter().map(|a| a.lease_until).collect();
        let statuses: Vec<&str> = attempts.iter().map(|a| a.status.as_str()).collect();
        let due: Vec<Option<OffsetDateTime>> = attempts.iter().map(|a| a.due_at).collect();
        let codes: Vec<Option<i32>> = attempts.iter().map(|a| a.status_code).collect();
        let errors: Vec<Option<&str>> = attempts.iter().map(|a| a.error.as_deref()).collect();
        prepared(
            "UPDATE webhook_deliveries d SET status = r.status, due_at = coalesce(r.due_at, d.due_at), \
                 last_status_code = r.code, last_error = r.error, lease_until = NULL \
             FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::text[], $5::timestamptz[], \
                 $6::integer[], $7::text[]) AS r (account_id, id, lease_until, status, due_at, code, error) \
             WHERE d.account_id = r.account_id AND d.id = r.id AND d.lease_until = r.lease_until",
        )
        .bind::<Array<BigInt>, _>(&accounts)
        .bind::<Array<BigInt>, _>(&ids)
        .bind::<Array<Timestamptz>, _>(&leases)
        .bind::<Array<Text>, _>(&statuses)
        .bind::<Array<Nullable<Timestamptz>>, _>(&due)
        .bind::<Array<Nullable<Integer>>, _>(&codes)
        .bind::<Array<Nullable<Text>>, _>(&errors)
        .execute(self.conn)
        .or_repo()?;
        Ok(())
    }
}
