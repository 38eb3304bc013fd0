//! Respondents on PostgreSQL: bulk inserts that skip duplicates, background data cells.

use canvass_domain::distribution::{BackgroundData, NewRespondent, Respondent, RespondentStatus};
use canvass_domain::ids::{AccountId, LabelId, RespondentId, SendoutId, SurveyId};
use canvass_domain::ports::{RepoResult, RespondentRepository};
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Jsonb, Text};
use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::{respondents, sendouts};
use crate::PgUnitOfWork;

/// Rows per multi-row INSERT: 1000 rows of 9 columns stay far below PostgreSQL's 65,535 parameters.
const ROWS_PER_INSERT: usize = 1000;

#[derive(Queryable, Selectable)]
#[diesel(table_name = respondents)]
struct RespondentRow {
    id: i64,
    sendout_id: i64,
    contact_details: String,
    send_mail: bool,
    background_data: Value,
    status: String,
    token: String,
    added_at: OffsetDateTime,
    sent_at: Option<OffsetDateTime>,
}

impl RespondentRow {
    fn into_respondent(self) -> RepoResult<Respondent> {
        Ok(Respondent {
            status: RespondentStatus::parse(&self.status)
                .ok_or_else(|| RepoError::Other(format!("stored respondent status `{}` is unknown", self.status)))?,
            id: self.id,
            sendout_id: self.sendout_id,
            contact_details: self.contact_details,
            send_mail: self.send_mail,
            background_data: cells_of(self.background_data),
            token: self.token,
            added_at: self.added_at,
            sent_at: self.sent_at,
        })
    }
}

/// Background data as stored: `{"<labelId>": "value"}`.
fn cells_json(cells: &BackgroundData) -> Value {
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

impl RespondentRepository for PgUnitOfWork<'_> {
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
                    .and(respondents::sendout_id.eq(sendout))
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
                        respondents::sendout_id.eq(sendout),
                        respondents::contact_details.eq(&r.contact_details),
                        respondents::contact_key.eq(&r.contact_key),
                        respondents::send_mail.eq(r.send_mail),
                        respondents::background_data.eq(cells_json(&r.background_data)),
                        respondents::status.eq(RespondentStatus::Pending.as_str()),
                        respondents::token.eq(&r.token),
                        respondents::added_at.eq(now),
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
        inserted.sort_by_key(|r| r.id);
        inserted.into_iter().map(RespondentRow::into_respondent).collect()
    }

    fn list_respondents(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<Vec<Respondent>> {
        let rows: Vec<RespondentRow> = respondents::table
            .filter(respondents::account_id.eq(account.get()).and(respondents::sendout_id.eq(sendout)))
            .order(respondents::id)
            .select(RespondentRow::as_select())
            .load(self.conn)
            .or_repo()?;
        rows.into_iter().map(RespondentRow::into_respondent).collect()
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
                    .and(respondents::sendout_id.eq(sendout))
                    .and(respondents::id.eq(id)),
            )
            .select(RespondentRow::as_select())
            .first(self.conn)
            .optional()
            .or_repo()?;
        row.map(RespondentRow::into_respondent).transpose()
    }

    fn respondent_sendout(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        respondent: RespondentId,
    ) -> RepoResult<Option<SendoutId>> {
        respondents::table
            .inner_join(
                sendouts::table
                    .on(sendouts::account_id.eq(respondents::account_id).and(sendouts::id.eq(respondents::sendout_id))),
            )
            .filter(
                respondents::account_id
                    .eq(account.get())
                    .and(respondents::id.eq(respondent))
                    .and(sendouts::survey_id.eq(survey)),
            )
            .select(respondents::sendout_id)
            .first(self.conn)
            .optional()
            .or_repo()
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
        .bind::<BigInt, _>(sendout)
        .bind::<BigInt, _>(respondent)
        .bind::<Array<Text>, _>(&remove)
        .bind::<Jsonb, _>(cells_json(set))
        .get_result(self.conn)
        .optional()
        .or_repo()?;
        Ok(updated.map(|row| cells_of(row.background_data)))
    }
}
