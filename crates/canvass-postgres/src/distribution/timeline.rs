//! Respondents' timelines on PostgreSQL (`respondent_events`, migration `000040_respondent_events`): the events
//! each change writes in its own transaction, many at once from arrays, and their reads. A sent message is its
//! own event: its outbox row keeps the reply that accepted it (migration `000051_outbox_accepted_reply`), and the
//! reads add it as a `sent` or `reminderSent` event (`sent_events!`).

use canvass_domain::distribution::ports::TimelineRepository;
use canvass_domain::distribution::{EventKind, RespondentEvent, MAX_CONTACT_EVENTS};
use canvass_domain::ids::{AccountId, ContactId, RespondentId, SendoutId};
use canvass_domain::ports::RepoResult;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Jsonb, Nullable, Text, Timestamptz};
use serde_json::Value;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::named::Named;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

/// Events to write together: one per respondent, each of its kind, with its detail.
#[derive(Default)]
pub(crate) struct Events {
    respondents: Vec<i64>,
    ats: Vec<OffsetDateTime>,
    kinds: Vec<&'static str>,
    details: Vec<Option<Value>>,
}

impl Events {
    /// Adds one event.
    pub(crate) fn push(&mut self, respondent: i64, at: OffsetDateTime, kind: EventKind, detail: Option<Value>) {
        self.respondents.push(respondent);
        self.ats.push(at);
        self.kinds.push(kind.as_str());
        self.details.push(detail);
    }

    /// How many there are.
    pub(crate) fn len(&self) -> usize {
        self.respondents.len()
    }

    /// Writes them in one statement (none for none). A page's second first view is skipped.
    pub(crate) fn record(&self, conn: &mut PgConnection, account: i64) -> QueryResult<()> {
        if self.respondents.is_empty() {
            return Ok(());
        }
        prepared(
            "INSERT INTO respondent_events (account_id, respondent_id, at, kind, detail) \
             SELECT $1, event.respondent, event.at, event.kind, event.detail \
             FROM unnest($2::bigint[], $3::timestamptz[], $4::text[], $5::jsonb[]) \
                 AS event (respondent, at, kind, detail) \
             ON CONFLICT DO NOTHING",
        )
        .bind::<BigInt, _>(account)
        .bind::<Array<BigInt>, _>(&self.respondents)
        .bind::<Array<Timestamptz>, _>(&self.ats)
        .bind::<Array<Text>, _>(&self.kinds)
        .bind::<Array<Nullable<Jsonb>>, _>(&self.details)
        .execute(conn)
        .map(drop)
    }
}

/// Writes one event of the same kind, without detail, for each of `respondents`.
pub(crate) fn record_each(
    conn: &mut PgConnection,
    account: i64,
    respondents: &[i64],
    kind: EventKind,
    at: OffsetDateTime,
) -> QueryResult<()> {
    let mut events = Events::default();
    for respondent in respondents {
        events.push(*respondent, at, kind, None);
    }
    events.record(conn, account)
}

/// The `sent` and `reminderSent` events of one account (`$1`), read from its messages that a relay or SMS endpoint
/// accepted: each at its `sent_at`, with its sendout's channel and the reply, in the columns of a stored event
/// beside `derived` (true) and `id` (the message's), which order it after a stored event of the same instant. A
/// text of its own (a TWOWAY question's) makes none, as before. The statement that uses it adds which
/// respondents' (`AND o.respondent_id ...`).
macro_rules! sent_events {
    () => {
        "SELECT o.sendout_id, o.respondent_id, o.sent_at AS at, \
                CASE WHEN o.reminder_id IS NULL THEN 'sent' ELSE 'reminderSent' END AS kind, \
                jsonb_build_object('channel', s.dispatch_type, 'reply', o.accepted_reply) AS detail, \
                true AS derived, o.id \
         FROM outbox o JOIN sendouts s ON s.account_id = $1 AND s.id = o.sendout_id \
         WHERE o.account_id = $1 AND o.accepted_reply IS NOT NULL AND o.body IS NULL"
    };
}
pub(crate) use sent_events;

/// One respondent's (`$3`, of sendout `$2`) timeline, oldest first.
const RESPONDENT_EVENTS: &str = concat!(
    "SELECT sendout_id, respondent_id, at, kind, detail FROM ( \
         SELECT $2::bigint AS sendout_id, e.respondent_id, e.at, e.kind, e.detail, false AS derived, e.id \
         FROM respondent_events e WHERE e.account_id = $1 AND e.respondent_id = $3 \
         UNION ALL ",
    sent_events!(),
    " AND o.respondent_id = $3) AS timeline \
     WHERE EXISTS (SELECT 1 FROM respondents r WHERE r.account_id = $1 AND r.id = $3 AND r.sendout_id = $2) \
     ORDER BY at, derived, id"
);

/// A contact's (`$2`) latest events (at most `$3`) across its respondents, oldest first.
const CONTACT_EVENTS: &str = concat!(
    "SELECT sendout_id, respondent_id, at, kind, detail FROM ( \
         SELECT r.sendout_id, e.respondent_id, e.at, e.kind, e.detail, false AS derived, e.id FROM respondents r \
         JOIN respondent_events e ON e.account_id = $1 AND e.respondent_id = r.id \
         WHERE r.account_id = $1 AND r.contact_id = $2 \
         UNION ALL ",
    sent_events!(),
    " AND o.respondent_id IN (SELECT r.id FROM respondents r WHERE r.account_id = $1 AND r.contact_id = $2) \
         ORDER BY at DESC, derived DESC, id DESC LIMIT $3) AS latest \
     ORDER BY at, derived, id"
);

#[derive(QueryableByName)]
pub(crate) struct EventRow {
    #[diesel(sql_type = BigInt)]
    sendout_id: i64,
    #[diesel(sql_type = BigInt)]
    respondent_id: i64,
    #[diesel(sql_type = Timestamptz)]
    at: OffsetDateTime,
    #[diesel(sql_type = Text)]
    kind: Named<EventKind>,
    #[diesel(sql_type = Nullable<Jsonb>)]
    detail: Option<Value>,
}

impl From<EventRow> for RespondentEvent {
    fn from(row: EventRow) -> Self {
        Self {
            sendout: SendoutId::new(row.sendout_id),
            respondent: RespondentId::new(row.respondent_id),
            at: row.at,
            kind: row.kind.0,
            detail: row.detail,
        }
    }
}

impl TimelineRepository for PgUnitOfWork<'_> {
    fn respondent_events(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Vec<RespondentEvent>> {
        let rows: Vec<EventRow> = prepared(RESPONDENT_EVENTS)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(sendout.get())
            .bind::<BigInt, _>(respondent.get())
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(RespondentEvent::from).collect())
    }

    fn record_event(
        &mut self,
        account: AccountId,
        respondent: RespondentId,
        at: OffsetDateTime,
        kind: EventKind,
        detail: Option<Value>,
    ) -> RepoResult<()> {
        let mut events = Events::default();
        events.push(respondent.get(), at, kind, detail);
        events.record(self.conn, account.get()).or_repo()
    }

    fn contact_events(&mut self, account: AccountId, contact: ContactId) -> RepoResult<Vec<RespondentEvent>> {
        let rows: Vec<EventRow> = prepared(CONTACT_EVENTS)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(contact.get())
            .bind::<BigInt, _>(MAX_CONTACT_EVENTS)
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(RespondentEvent::from).collect())
    }
}
