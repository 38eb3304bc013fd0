//! A survey's alerts on PostgreSQL, and the emails a completion writes to the alert outbox (one `INSERT` from
//! arrays, whatever their number). Sending them is the delivery worker's (`delivery/alert_emails.rs`).

use canvass_domain::alert::{Alert, AlertEmail, AlertInput};
use canvass_domain::ids::{AccountId, AlertId, SendoutId, SurveyId};
use canvass_domain::ports::{AlertRepository, RepoResult};
use canvass_domain::survey::Conditions;
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Nullable, Text, Timestamptz};
use serde_json::Value;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::schema::alerts;
use crate::PgUnitOfWork;

/// Writes account `$1`'s alert emails (alert `$2`, answer set `$3`, recipient `$4`, subject `$5`, text `$6`, each
/// an array in step), due at `$7`.
const ENQUEUE: &str = "INSERT INTO alert_emails \
         (account_id, alert_id, answer_set_id, recipient, subject, body, status, due_at, created_at) \
     SELECT $1, e.alert_id, e.answer_set_id, e.recipient, e.subject, e.body, 'Pending', $7, $7 \
     FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[]) \
         AS e(alert_id, answer_set_id, recipient, subject, body)";

/// The survey's name (`$2`) and the sendout's (`$3`, null for none), of account `$1`.
const ORIGIN_NAMES: &str = "SELECT s.name AS survey_name, \
         (SELECT o.name FROM sendouts o WHERE o.account_id = $1 AND o.id = $3) AS sendout_name \
     FROM surveys s WHERE s.account_id = $1 AND s.id = $2";

/// An alert's row.
#[derive(Queryable, Selectable)]
#[diesel(table_name = alerts)]
struct AlertRow {
    id: i64,
    survey_id: i64,
    name: String,
    conditions: Value,
    recipients: Vec<Option<String>>,
    include_answers: bool,
    created_at: OffsetDateTime,
}

impl TryFrom<AlertRow> for Alert {
    type Error = RepoError;

    fn try_from(row: AlertRow) -> Result<Self, RepoError> {
        let when = Conditions::from_json(&row.conditions, "when")
            .map_err(|_| RepoError::Other(format!("alert {} holds an unreadable condition", row.id).into()))?;
        let recipients = row.recipients.into_iter().flatten().collect();
        let input = AlertInput { name: row.name, when, recipients, include_answers: row.include_answers };
        Ok(Self {
            id: AlertId::new(row.id),
            survey_id: SurveyId::new(row.survey_id),
            input,
            created_at: row.created_at,
        })
    }
}

#[derive(QueryableByName)]
struct OriginNames {
    #[diesel(sql_type = Text)]
    survey_name: String,
    #[diesel(sql_type = Nullable<Text>)]
    sendout_name: Option<String>,
}

impl AlertRepository for PgUnitOfWork<'_> {
    fn insert_alert(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &AlertInput,
        now: OffsetDateTime,
    ) -> RepoResult<Alert> {
        let row: AlertRow = diesel::insert_into(alerts::table)
            .values((
                alerts::account_id.eq(account.get()),
                alerts::survey_id.eq(survey.get()),
                alerts::name.eq(&input.name),
                alerts::conditions.eq(input.when.to_json()),
                alerts::recipients.eq(input.recipients.iter().map(|r| Some(r.as_str())).collect::<Vec<_>>()),
                alerts::include_answers.eq(input.include_answers),
                alerts::created_at.eq(now),
            ))
            .returning(AlertRow::as_returning())
            .get_result(self.conn)
            .or_repo()?;
        row.try_into()
    }

    fn survey_alerts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<Vec<Alert>> {
        let of_survey = alerts::account_id.eq(account.get()).and(alerts::survey_id.eq(survey.get()));
        let rows: Vec<AlertRow> = alerts::table
            .filter(of_survey)
            .order(alerts::id)
            .select(AlertRow::as_select())
            .load(self.conn)
            .or_repo()?;
        rows.into_iter().map(Alert::try_from).collect()
    }

    fn delete_alert(&mut self, account: AccountId, survey: SurveyId, id: AlertId) -> RepoResult<bool> {
        let deleted = diesel::delete(alerts::table)
            .filter(alerts::account_id.eq(account.get()))
            .filter(alerts::survey_id.eq(survey.get()))
            .filter(alerts::id.eq(id.get()))
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted > 0)
    }

    fn alert_origin_names(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        sendout: Option<SendoutId>,
    ) -> RepoResult<(String, Option<String>)> {
        let names: Option<OriginNames> = prepared(ORIGIN_NAMES)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(survey.get())
            .bind::<Nullable<BigInt>, _>(sendout.map(|id| id.get()))
            .get_result(self.conn)
            .optional()
            .or_repo()?;
        Ok(names.map_or((String::new(), None), |names| (names.survey_name, names.sendout_name)))
    }

    fn enqueue_alert_emails(
        &mut self,
        account: AccountId,
        emails: &[AlertEmail],
        now: OffsetDateTime,
    ) -> RepoResult<()> {
        if emails.is_empty() {
            return Ok(());
        }
        let column = |pick: fn(&AlertEmail) -> &str| emails.iter().map(pick).collect::<Vec<_>>();
        prepared(ENQUEUE)
            .bind::<BigInt, _>(account.get())
            .bind::<Array<BigInt>, _>(emails.iter().map(|e| e.alert_id.get()).collect::<Vec<_>>())
            .bind::<Array<BigInt>, _>(emails.iter().map(|e| e.answer_set_id.get()).collect::<Vec<_>>())
            .bind::<Array<Text>, _>(column(|e| &e.recipient))
            .bind::<Array<Text>, _>(column(|e| &e.subject))
            .bind::<Array<Text>, _>(column(|e| &e.body))
            .bind::<Timestamptz, _>(now)
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }
}
