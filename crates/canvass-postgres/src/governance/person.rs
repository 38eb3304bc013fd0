//! What an account holds on one person, on PostgreSQL: one statement per kind of thing, each pinned to the account
//! and found by the person's contact key (respondents, the blocklist, permanent failures, the directory's email
//! key or phone number), then by the ids those gave (answer sets, their answers and copies, timelines, pending
//! messages), whatever the number of sendouts.

use std::collections::HashMap;

use canvass_domain::answer::AnswerSet;
use canvass_domain::directory::Contact;
use canvass_domain::distribution::{PermanentFailure, Respondent, RespondentEvent};
use canvass_domain::governance::{ContactPatterns, HeldOnPerson, PendingMessages, PersonRespondent};
use canvass_domain::ids::{AccountId, SurveyId};
use canvass_domain::ports::RepoResult;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Text};

use crate::answer::AnswerSetRow;
use crate::directory::ContactRow;
use crate::distribution::blocklist::{entry, EntryRow, FailureRow, ENTRY};
use crate::distribution::respondents::RespondentRow;
use crate::distribution::timeline::{sent_events, EventRow};
use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::schema::{answer_sets, blocklist, contacts, permanent_failures, respondents, sendouts};
use crate::PgUnitOfWork;

#[derive(QueryableByName)]
struct Pending {
    #[diesel(sql_type = BigInt)]
    invitations: i64,
    #[diesel(sql_type = BigInt)]
    reminders: i64,
    #[diesel(sql_type = BigInt)]
    alert_emails: i64,
}

/// The messages not yet sent: invitations and reminders of their respondents (`$2`), alert emails about their
/// answer sets (`$3`) or to them (`$4`, the contact key).
const PENDING: &str = "SELECT \
     (SELECT count(*) FROM outbox WHERE account_id = $1 AND respondent_id = ANY($2) AND status = 'Pending' \
         AND reminder_id IS NULL) AS invitations, \
     (SELECT count(*) FROM outbox WHERE account_id = $1 AND respondent_id = ANY($2) AND status = 'Pending' \
         AND reminder_id IS NOT NULL) AS reminders, \
     (SELECT count(*) FROM alert_emails WHERE account_id = $1 AND status = 'Pending' \
         AND (answer_set_id = ANY($3) OR lower(recipient) = $4)) AS alert_emails";

/// The timelines of their respondents (`$2`), each event with its respondent's sendout, oldest first; their sent
/// messages are events of their own (`sent_events!`).
const EVENTS: &str = concat!(
    "SELECT sendout_id, respondent_id, at, kind, detail FROM ( \
         SELECT r.sendout_id, e.respondent_id, e.at, e.kind, e.detail, false AS derived, e.id \
         FROM respondent_events e JOIN respondents r ON r.account_id = e.account_id AND r.id = e.respondent_id \
         WHERE e.account_id = $1 AND e.respondent_id = ANY($2) \
         UNION ALL ",
    sent_events!(),
    " AND o.respondent_id = ANY($2)) AS timeline ORDER BY at, derived, id"
);

fn count(rows: i64) -> u64 {
    u64::try_from(rows).unwrap_or_default()
}

impl PgUnitOfWork<'_> {
    pub(super) fn read_held_on_person(
        &mut self,
        account: AccountId,
        contact: &ContactPatterns,
    ) -> RepoResult<HeldOnPerson> {
        let (account_id, key) = (account.get(), contact.key());
        let found: Vec<(RespondentRow, i64)> = respondents::table
            .inner_join(
                sendouts::table
                    .on(sendouts::account_id.eq(respondents::account_id).and(sendouts::id.eq(respondents::sendout_id))),
            )
            .filter(respondents::account_id.eq(account_id).and(respondents::contact_key.eq(key)))
            .order(respondents::id)
            .select((RespondentRow::as_select(), sendouts::survey_id))
            .load(self.conn)
            .or_repo()?;
        let ids: Vec<i64> = found.iter().map(|(row, _)| row.id()).collect();
        let own_rows: Vec<AnswerSetRow> = answer_sets::table
            .filter(answer_sets::account_id.eq(account_id).and(answer_sets::respondent_id.eq_any(&ids)))
            .order(answer_sets::id)
            .select(AnswerSetRow::as_select())
            .load(self.conn)
            .or_repo()?;
        let own_sets: Vec<i64> = own_rows.iter().map(AnswerSetRow::id).collect();
        // A copy of a copy names the original too (`copy_of`), so one look-up finds every copy.
        let copy_rows: Vec<AnswerSetRow> = answer_sets::table
            .filter(answer_sets::account_id.eq(account_id).and(answer_sets::copy_of.eq_any(&own_sets)))
            .order(answer_sets::id)
            .select(AnswerSetRow::as_select())
            .load(self.conn)
            .or_repo()?;
        let sets = self.with_answers(account, own_rows)?;
        let copies = self.with_answers(account, copy_rows)?;
        let events: Vec<EventRow> =
            prepared(EVENTS).bind::<BigInt, _>(account_id).bind::<Array<BigInt>, _>(&ids).load(self.conn).or_repo()?;
        let pending: Pending = prepared(PENDING)
            .bind::<BigInt, _>(account_id)
            .bind::<Array<BigInt>, _>(&ids)
            .bind::<Array<BigInt>, _>(&own_sets)
            .bind::<Text, _>(key)
            .get_result(self.conn)
            .or_repo()?;
        let contacts: Vec<ContactRow> = contacts::table
            .filter(contacts::account_id.eq(account_id))
            .filter(contacts::email_key.eq(key).or(contacts::phone.eq(key)))
            .order(contacts::id)
            .select(ContactRow::as_select())
            .load(self.conn)
            .or_repo()?;
        let entries: Vec<EntryRow> = blocklist::table
            .filter(blocklist::account_id.eq(account_id).and(blocklist::contact_key.eq(key)))
            .select(ENTRY)
            .load(self.conn)
            .or_repo()?;
        let failures: Vec<FailureRow> = permanent_failures::table
            .filter(permanent_failures::account_id.eq(account_id).and(permanent_failures::email_key.eq(key)))
            .order(permanent_failures::id)
            .select(FailureRow::as_select())
            .load(self.conn)
            .or_repo()?;
        Ok(HeldOnPerson {
            contacts: contacts.into_iter().map(Contact::from).collect(),
            respondents: person_respondents(found, sets, events),
            copied_answer_sets: copies,
            blocklist: entries.into_iter().map(entry).collect(),
            permanent_failures: failures.into_iter().map(PermanentFailure::from).collect(),
            pending_messages: PendingMessages {
                invitations: count(pending.invitations),
                reminders: count(pending.reminders),
                alert_emails: count(pending.alert_emails),
            },
        })
    }
}

/// Each respondent with its own answer sets and events.
fn person_respondents(
    found: Vec<(RespondentRow, i64)>,
    sets: Vec<AnswerSet>,
    events: Vec<EventRow>,
) -> Vec<PersonRespondent> {
    let mut sets_of: HashMap<i64, Vec<AnswerSet>> = HashMap::new();
    for set in sets {
        if let Some(respondent) = set.respondent_id {
            sets_of.entry(respondent.get()).or_default().push(set);
        }
    }
    let mut events_of: HashMap<i64, Vec<RespondentEvent>> = HashMap::new();
    for event in events.into_iter().map(RespondentEvent::from) {
        events_of.entry(event.respondent.get()).or_default().push(event);
    }
    found
        .into_iter()
        .map(|(row, survey)| {
            let respondent = Respondent::from(row);
            let id = respondent.id.get();
            PersonRespondent {
                survey_id: SurveyId::new(survey),
                answer_sets: sets_of.remove(&id).unwrap_or_default(),
                events: events_of.remove(&id).unwrap_or_default(),
                respondent,
            }
        })
        .collect()
}
