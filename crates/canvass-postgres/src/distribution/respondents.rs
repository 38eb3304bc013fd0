//! Respondents on PostgreSQL: bulk inserts that skip duplicates (and count what they add), background data cells.

use canvass_domain::chunks::ChunkRequest;
use canvass_domain::delivery::{Invitation, Personal};
use canvass_domain::distribution::{
    BackgroundData, EventKind, InvitationDelivery, NewRespondent, Respondent, RespondentStatus, VISITOR_KEY_PREFIX,
};
use canvass_domain::ids::{AccountId, ContactId, LabelId, RespondentId, SendoutId, SurveyId};
use canvass_domain::language::Language;
use canvass_domain::ports::{RepoResult, RespondentRepository};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Jsonb, Nullable, Text};
use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::delivery::outbox::texts_of;
use crate::error::OrRepoError;
use crate::named::Named;
use crate::prepared::prepared;
use crate::schema::{respondents, sendouts};
use crate::PgUnitOfWork;

/// Rows per multi-row INSERT: 1000 rows of 10 columns stay far below PostgreSQL's 65,535 parameters.
const ROWS_PER_INSERT: usize = 1000;

#[derive(Queryable, Selectable)]
#[diesel(table_name = respondents)]
pub(crate) struct RespondentRow {
    id: i64,
    sendout_id: i64,
    contact_details: String,
    contact_key: String,
    send_mail: bool,
    background_data: Value,
    status: Named<RespondentStatus>,
    token: String,
    added_at: OffsetDateTime,
    sent_at: Option<OffsetDateTime>,
    language: Option<Named<Language>>,
    contact_id: Option<i64>,
}

impl RespondentRow {
    /// The respondent's id.
    pub(crate) fn id(&self) -> i64 {
        self.id
    }
}

impl From<RespondentRow> for Respondent {
    fn from(row: RespondentRow) -> Self {
        Self {
            status: row.status.0,
            id: RespondentId::new(row.id),
            sendout_id: SendoutId::new(row.sendout_id),
            contact_details: row.contact_details,
            visitor: row.contact_key.starts_with(VISITOR_KEY_PREFIX),
            send_mail: row.send_mail,
            background_data: cells_of(row.background_data),
            token: row.token,
            added_at: row.added_at,
            sent_at: row.sent_at,
            delivery: InvitationDelivery::default(),
            language: row.language.map(|language| language.0),
            contact_id: row.contact_id.map(ContactId::new),
        }
    }
}

/// Background data as stored: `{"<labelId>": "value"}`.
pub(crate) fn cells_json(cells: &BackgroundData) -> Value {
    Value::Object(
        cells.iter().map(|(label, value)| (label.to_string(), Value::String(value.clone()))).collect::<Map<_, _>>(),
    )
}

fn cells_of(json: Value) -> BackgroundData {
    match json {
        Value::Object(map) => {
            map.into_iter().filter_map(|(key, value)| Some((key.parse().ok()?, value.as_str()?.to_owned()))).collect()
        }
        _ => BackgroundData::new(),
    }
}

/// A respondent's invitation (`$3`, of sendout `$2`, of account `$1`) in the language it is shown, and what its
/// personal placeholders are filled with, as the outbox claim reads them (`delivery/claim.rs`).
const INVITATION: &str = "\
SELECT r.token, s.subject, coalesce(s.message, '') AS template,
    s.messages -> coalesce(r.language, s.language) AS localized,
    c.first_name, c.last_name, c.attributes AS contact_attributes,
    (SELECT jsonb_object_agg(l.name, r.background_data ->> l.id::text) FROM bg_labels l
     WHERE l.account_id = $1 AND l.sendout_id = r.sendout_id AND r.background_data ? l.id::text) AS background
FROM respondents r
JOIN sendouts s ON s.account_id = $1 AND s.id = r.sendout_id
LEFT JOIN contacts c ON c.account_id = $1 AND c.id = r.contact_id
WHERE r.account_id = $1 AND r.sendout_id = $2 AND r.id = $3";

#[derive(QueryableByName)]
struct InvitationRow {
    #[diesel(sql_type = Text)]
    token: String,
    #[diesel(sql_type = Nullable<Text>)]
    subject: Option<String>,
    #[diesel(sql_type = Text)]
    template: String,
    #[diesel(sql_type = Nullable<Jsonb>)]
    localized: Option<Value>,
    #[diesel(sql_type = Nullable<Text>)]
    first_name: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    last_name: Option<String>,
    #[diesel(sql_type = Nullable<Jsonb>)]
    contact_attributes: Option<Value>,
    #[diesel(sql_type = Nullable<Jsonb>)]
    background: Option<Value>,
}

impl From<InvitationRow> for Invitation {
    fn from(row: InvitationRow) -> Self {
        let (subject, template) = match row.localized.and_then(super::localized::one) {
            Some(localized) => (localized.subject, localized.message),
            None => (row.subject, row.template),
        };
        Self {
            subject,
            template,
            token: row.token,
            personal: Personal {
                first_name: row.first_name,
                last_name: row.last_name,
                contact: texts_of(row.contact_attributes),
                background: texts_of(row.background),
            },
        }
    }
}

impl RespondentRepository for PgUnitOfWork<'_> {
    fn invitation_of(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
    ) -> RepoResult<Option<Invitation>> {
        let row: Option<InvitationRow> = prepared(INVITATION)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(sendout.get())
            .bind::<BigInt, _>(respondent.get())
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(Invitation::from))
    }

    fn existing_contact_keys(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        keys: &[String],
    ) -> RepoResult<Vec<String>> {
        respondents::table
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::sendout_id.eq(sendout.get()))
                    .and(respondents::contact_key.eq_any(keys)),
            )
            .select(respondents::contact_key)
            .load(self.conn)
            .or_repo()
    }

    fn insert_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        rows: &[NewRespondent],
        now: OffsetDateTime,
    ) -> RepoResult<Vec<Respondent>> {
        let mut inserted = Vec::with_capacity(rows.len());
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            let values: Vec<_> = chunk
                .iter()
                .map(|r| {
                    (
                        respondents::account_id.eq(account.get()),
                        respondents::sendout_id.eq(sendout.get()),
                        respondents::contact_details.eq(r.contact_details()),
                        respondents::contact_key.eq(r.contact_key()),
                        respondents::send_mail.eq(r.send_mail()),
                        respondents::background_data.eq(cells_json(r.background_data())),
                        respondents::status.eq(RespondentStatus::Pending.as_str()),
                        respondents::token.eq(r.token()),
                        respondents::added_at.eq(now),
                        respondents::language.eq(r.language().map(Language::code)),
                    )
                })
                .collect();
            let rows: Vec<RespondentRow> = diesel::insert_into(respondents::table)
                .values(values)
                .on_conflict((respondents::account_id, respondents::sendout_id, respondents::contact_key))
                .do_nothing()
                .returning(RespondentRow::as_returning())
                .get_results(self.conn)
                .or_repo()?;
            inserted.extend(rows);
        }
        // The rows' `added` events; one count update per batch by the rows actually inserted (conflicts skipped),
        // written just before the commit (`counts::DeferredShifts`).
        let ids: Vec<i64> = inserted.iter().map(|row| row.id).collect();
        super::timeline::record_each(self.conn, account.get(), &ids, EventKind::Added, now).or_repo()?;
        self.add_pending(account, sendout, inserted.len())?;
        inserted.sort_by_key(|r| r.id);
        Ok(inserted.into_iter().map(Respondent::from).collect())
    }

    fn respondents_chunk(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        request: &ChunkRequest<RespondentId>,
    ) -> RepoResult<Vec<Respondent>> {
        // The first chunk starts after the smallest id, so that every chunk is the same statement.
        let after = request.after_key().map_or(i64::MIN, |id| id.get());
        let rows: Vec<RespondentRow> = respondents::table
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::sendout_id.eq(sendout.get()))
                    .and(respondents::id.gt(after)),
            )
            .order(respondents::id)
            .limit(request.limit())
            .select(RespondentRow::as_select())
            .load(self.conn)
            .or_repo()?;
        let mut respondents: Vec<Respondent> = rows.into_iter().map(Respondent::from).collect();
        crate::delivery::invitations::fill(self.conn, account, &mut respondents).or_repo()?;
        Ok(respondents)
    }

    fn find_respondent(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        id: RespondentId,
    ) -> RepoResult<Option<Respondent>> {
        let row: Option<RespondentRow> = respondents::table
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::sendout_id.eq(sendout.get()))
                    .and(respondents::id.eq(id.get())),
            )
            .select(RespondentRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        let mut respondents: Vec<Respondent> = row.into_iter().map(Respondent::from).collect();
        crate::delivery::invitations::fill(self.conn, account, &mut respondents).or_repo()?;
        Ok(respondents.pop())
    }

    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>> {
        let sendout: Option<i64> = respondents::table
            .inner_join(
                sendouts::table
                    .on(sendouts::account_id.eq(respondents::account_id).and(sendouts::id.eq(respondents::sendout_id))),
            )
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::id.eq(respondent.get()))
                    .and(sendouts::survey_id.eq(survey.get())),
            )
            .select(respondents::sendout_id)
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(sendout.map(SendoutId::new))
    }

    fn update_background_data(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        respondent: RespondentId,
        set: &BackgroundData,
        remove: &[LabelId],
    ) -> RepoResult<Option<BackgroundData>> {
        #[derive(QueryableByName)]
        struct Cells {
            #[diesel(sql_type = Jsonb)]
            background_data: Value,
        }
        let remove: Vec<String> = remove.iter().map(ToString::to_string).collect();
        let updated: Option<Cells> = diesel::sql_query(
            "UPDATE respondents SET background_data = (background_data - $4) || $5 \
             WHERE account_id = $1 AND sendout_id = $2 AND id = $3 RETURNING background_data",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(sendout.get())
        .bind::<BigInt, _>(respondent.get())
        .bind::<Array<Text>, _>(&remove)
        .bind::<Jsonb, _>(cells_json(set))
        .get_result(self.conn)
        .optional()
        .or_repo()?;
        Ok(updated.map(|row| cells_of(row.background_data)))
    }
}
