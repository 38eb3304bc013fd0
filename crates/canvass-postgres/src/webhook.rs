//! Webhooks on PostgreSQL: `webhooks` (an account's subscriptions, with their secrets) and `webhook_deliveries`
//! (one row per event and subscribed webhook, claimed under a lease like the outbox). Events are written with one
//! `INSERT … SELECT` per kind and account, joining the subjects (unnested arrays) to the account's subscribed
//! webhooks. Every statement names its account (`account_id = $n`), so that with Citus it goes to one shard,
//! except the worker's list of accounts with due deliveries (docs/scaling.md).

use std::collections::HashMap;

use canvass_domain::delivery::HoldKind;
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
const WEBHOOK_COLUMNS: &str =
    "id, url, events, description, active, created_at, last_delivery_at, consecutive_failures";

/// One account's events of one kind: a delivery for every subject and every active webhook of the account
/// subscribed to the event. Pinned to the account (`$2`), so that Citus sends it to the account's shard.
const ENQUEUE: &str = "INSERT INTO webhook_deliveries (account_id, webhook_id, message_id, event, survey_id, \
         sendout_id, respondent_id, answer_set_id, hold_kind, occurred_at, due_at) \
     SELECT w.account_id, w.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, s.survey_id, \
         s.sendout_id, s.respondent_id, s.answer_set_id, s.hold_kind, $7, $7 \
     FROM unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $8::text[]) \
         AS s (survey_id, sendout_id, respondent_id, answer_set_id, hold_kind) \
     JOIN webhooks w ON w.account_id = $2 AND w.active AND $1 = ANY (w.events)";

/// The accounts with claimable deliveries, the oldest due first, at most `$2` of them (a round gives each at least
/// one). The one statement of the worker that spans accounts (docs/citus-allowlist.txt): it takes no lock and
/// reads the due rows through the partial index `webhook_deliveries_due_idx`.
const DUE_ACCOUNTS: &str = "SELECT account_id FROM webhook_deliveries \
     WHERE status = 'Pending' AND due_at <= $1 AND (lease_until IS NULL OR lease_until < $1) \
     GROUP BY account_id ORDER BY min(due_at), account_id LIMIT $2";

/// Claims up to `$4` of one account's due deliveries, the oldest due first: locks them (skipping rows another
/// worker holds), leases them until `$3` and counts the attempt, returning them with their webhook's URL and
/// secret. Every table is pinned to the account `$1`. The rows are picked once, in a materialized CTE (see the
/// outbox claim: a `LIMIT ... SKIP LOCKED` subquery under `IN` may run again per joined row and take more).
const CLAIM: &str = "WITH picked AS MATERIALIZED ( \
         SELECT id FROM webhook_deliveries \
         WHERE account_id = $1 AND status = 'Pending' AND due_at <= $2 \
             AND (lease_until IS NULL OR lease_until < $2) \
         ORDER BY due_at LIMIT $4 FOR UPDATE SKIP LOCKED) \
     UPDATE webhook_deliveries d SET lease_until = $3, attempts = d.attempts + 1 \
     FROM webhooks w \
     WHERE d.account_id = $1 AND w.account_id = $1 AND w.id = d.webhook_id \
         AND d.id IN (SELECT id FROM picked) \
     RETURNING d.account_id, d.id, d.message_id, w.url, w.secret, d.event, d.survey_id, d.sendout_id, \
         d.respondent_id, d.answer_set_id, d.hold_kind, d.occurred_at, d.attempts, d.lease_until";

/// Records one account's attempts, and what they tell of each webhook, in one statement: an attempt whose lease is
/// no longer the delivery's changes nothing, neither its delivery nor its webhook. A delivery keeps the reason of
/// its last failed attempt after a success. Each webhook of a recorded attempt gets the latest attempt's time, and
/// its consecutive failures go to 0 when one of its attempts succeeded, else up by the failed ones (the `UPDATE` of
/// the webhook's row waits for another worker's and adds to what that one wrote). Both tables are pinned to the
/// account `$1`.
const RECORD: &str = "WITH recorded AS ( \
         UPDATE webhook_deliveries d SET status = r.status, due_at = coalesce(r.due_at, d.due_at), \
             last_status_code = r.code, last_error = coalesce(r.error, d.last_error), lease_until = NULL \
         FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::timestamptz[], $6::integer[], $7::text[], \
                 $8::timestamptz[]) \
             AS r (id, lease_until, status, due_at, code, error, attempted_at) \
         WHERE d.account_id = $1 AND d.id = r.id AND d.lease_until = r.lease_until \
         RETURNING d.webhook_id, r.status, r.attempted_at), \
     by_webhook AS ( \
         SELECT webhook_id, max(attempted_at) AS attempted_at, bool_or(status = 'Delivered') AS succeeded, \
             count(*) FILTER (WHERE status <> 'Delivered') AS failures \
         FROM recorded GROUP BY webhook_id) \
     UPDATE webhooks w SET last_delivery_at = greatest(w.last_delivery_at, b.attempted_at), \
         consecutive_failures = CASE WHEN b.succeeded THEN 0 \
             ELSE least(w.consecutive_failures::bigint + b.failures, 2147483647)::integer END \
     FROM by_webhook b \
     WHERE w.account_id = $1 AND w.id = b.webhook_id";

#[derive(QueryableByName)]
struct AccountRow {
    #[diesel(sql_type = BigInt)]
    account_id: i64,
}

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
    #[diesel(sql_type = Nullable<Timestamptz>)]
    last_delivery_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Integer)]
    consecutive_failures: i32,
}

impl TryFrom<WebhookRow> for Webhook {
    type Error = RepoError;

    fn try_from(row: WebhookRow) -> Result<Self, RepoError> {
        let events = row
            .events
            .iter()
            .map(|name| name.parse().map_err(|_| RepoError::Other(format!("stored event `{name}` is unknown").into())))
            .collect::<Result<_, _>>()?;
        Ok(Webhook {
            id: WebhookId::new(row.id),
            url: row.url,
            events,
            description: row.description,
            active: row.active,
            created_at: row.created_at,
            last_delivery_at: row.last_delivery_at,
            consecutive_failures: row.consecutive_failures,
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
    #[diesel(sql_type = Nullable<Text>)]
    last_error: Option<String>,
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
    #[diesel(sql_type = Nullable<Text>)]
    hold_kind: Option<String>,
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
                hold: row.hold_kind.as_deref().and_then(HoldKind::parse),
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
        for (account, subjects) in by_account(subjects, |subject| subject.account_id) {
            let surveys: Vec<Option<i64>> = subjects.iter().map(|s| s.survey_id.map(i64::from)).collect();
            let sendouts: Vec<Option<i64>> = subjects.iter().map(|s| s.sendout_id.map(i64::from)).collect();
            let respondents: Vec<Option<i64>> = subjects.iter().map(|s| s.respondent_id.map(i64::from)).collect();
            let answer_sets: Vec<Option<i64>> = subjects.iter().map(|s| s.answer_set_id.map(i64::from)).collect();
            let holds: Vec<Option<&str>> = subjects.iter().map(|s| s.hold.map(HoldKind::as_str)).collect();
            prepared(ENQUEUE)
                .bind::<Text, _>(event.as_str())
                .bind::<BigInt, _>(account.get())
                .bind::<Array<Nullable<BigInt>>, _>(&surveys)
                .bind::<Array<Nullable<BigInt>>, _>(&sendouts)
                .bind::<Array<Nullable<BigInt>>, _>(&respondents)
                .bind::<Array<Nullable<BigInt>>, _>(&answer_sets)
                .bind::<Timestamptz, _>(now)
                .bind::<Array<Nullable<Text>>, _>(&holds)
                .execute(self.conn)
                .or_repo()?;
        }
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
            "SELECT id, url, events, description, active, created_at, last_delivery_at, consecutive_failures \
             FROM webhooks WHERE account_id = $1 ORDER BY id",
        )
        .bind::<BigInt, _>(account.get())
        .load(self.conn)
        .or_repo()?;
        webhooks(rows)
    }

    fn find_webhook(&mut self, account: AccountId, id: WebhookId) -> RepoResult<Option<Webhook>> {
        let rows: Vec<WebhookRow> = prepared(
            "SELECT id, url, events, description, active, created_at, last_delivery_at, consecutive_failures \
             FROM webhooks WHERE account_id = $1 AND id = $2",
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
            "SELECT id, event, status, attempts, last_status_code, last_error, \
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
                last_error: row.last_error,
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
        let accounts: Vec<AccountRow> =
            prepared(DUE_ACCOUNTS).bind::<Timestamptz, _>(now).bind::<BigInt, _>(limit).load(self.conn).or_repo()?;
        let mut claimed = Vec::new();
        let mut remaining = limit;
        for (index, account) in accounts.iter().enumerate() {
            let share = fair_share(remaining, accounts.len() - index);
            if share == 0 {
                break;
            }
            let rows: Vec<ClaimedRow> = prepared(CLAIM)
                .bind::<BigInt, _>(account.account_id)
                .bind::<Timestamptz, _>(now)
                .bind::<Timestamptz, _>(lease_until)
                .bind::<BigInt, _>(share)
                .load(self.conn)
                .or_repo()?;
            remaining -= i64::try_from(rows.len()).unwrap_or(share);
            claimed.extend(rows.into_iter().map(ClaimedDelivery::from));
        }
        claimed.sort_by_key(|delivery| delivery.id);
        Ok(claimed)
    }

    fn record_webhook_attempts(&mut self, attempts: &[AttemptRecord]) -> RepoResult<()> {
        for (account, attempts) in by_account(attempts, |attempt| attempt.account_id) {
            let ids: Vec<i64> = attempts.iter().map(|a| a.id).collect();
            let leases: Vec<OffsetDateTime> = attempts.iter().map(|a| a.lease_until).collect();
            let statuses: Vec<&str> = attempts.iter().map(|a| a.status.as_str()).collect();
            let due: Vec<Option<OffsetDateTime>> = attempts.iter().map(|a| a.due_at).collect();
            let codes: Vec<Option<i32>> = attempts.iter().map(|a| a.status_code).collect();
            let errors: Vec<Option<&str>> = attempts.iter().map(|a| a.error.as_deref()).collect();
            let attempted: Vec<OffsetDateTime> = attempts.iter().map(|a| a.attempted_at).collect();
            prepared(RECORD)
                .bind::<BigInt, _>(account.get())
                .bind::<Array<BigInt>, _>(&ids)
                .bind::<Array<Timestamptz>, _>(&leases)
                .bind::<Array<Text>, _>(&statuses)
                .bind::<Array<Nullable<Timestamptz>>, _>(&due)
                .bind::<Array<Nullable<Integer>>, _>(&codes)
                .bind::<Array<Nullable<Text>>, _>(&errors)
                .bind::<Array<Timestamptz>, _>(&attempted)
                .execute(self.conn)
                .or_repo()?;
        }
        Ok(())
    }
}

/// Groups `items` by their account, in the order each account first appears, keeping the items' order within an
/// account: each group becomes one statement pinned to its account.
fn by_account<T>(items: &[T], account_of: impl Fn(&T) -> AccountId) -> Vec<(AccountId, Vec<&T>)> {
    let mut groups: Vec<(AccountId, Vec<&T>)> = Vec::new();
    let mut index: HashMap<AccountId, usize> = HashMap::new();
    for item in items {
        let account = account_of(item);
        let at = *index.entry(account).or_insert_with(|| {
            groups.push((account, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(item);
    }
    groups
}

/// How many of the `remaining` claims the next of `accounts` accounts may take: an equal share, rounded up, so a
/// round's limit is spread over every due account, and what an account leaves unused goes to the ones after it.
fn fair_share(remaining: i64, accounts: usize) -> i64 {
    let accounts = i64::try_from(accounts.max(1)).unwrap_or(i64::MAX);
    if remaining <= 0 {
        return 0;
    }
    (remaining + accounts - 1) / accounts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_shared_over_its_accounts() {
        assert_eq!(fair_share(10, 3), 4);
        assert_eq!(fair_share(6, 2), 3);
        assert_eq!(fair_share(3, 1), 3);
        assert_eq!(fair_share(2, 5), 1);
        assert_eq!(fair_share(0, 2), 0);
    }

    #[test]
    fn grouping_by_account_keeps_first_appearance_and_order() {
        let items = [(1, 'a'), (2, 'b'), (1, 'c')];
        let groups = by_account(&items, |item| AccountId::new(item.0));
        let groups: Vec<(i64, Vec<char>)> =
            groups.into_iter().map(|(account, items)| (account.get(), items.iter().map(|i| i.1).collect())).collect();
        assert_eq!(groups, vec![(1, vec!['a', 'c']), (2, vec!['b'])]);
    }
}
