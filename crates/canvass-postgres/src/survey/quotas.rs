//! A survey's quotas on PostgreSQL: the conditions kept whole as JSON in the API's shape, the count beside them.
//! A completion counts with one `UPDATE` guarded by `count < quota_limit` ([`COUNT`]), whose row locks make
//! concurrent completions of one survey count one after another, each on the count the one before it left.

use canvass_domain::ids::{AccountId, QuotaId, SurveyId};
use canvass_domain::ports::{QuotaRepository, RepoResult};
use canvass_domain::survey::{Conditions, Quota, QuotaAction, QuotaInput};
use canvass_domain::RepoError;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt};
use serde_json::Value;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::schema::quotas;
use crate::PgUnitOfWork;

/// Counts one more set in the quotas `$3` of account `$1`'s survey `$2` that are below their limits; returns the
/// ids it counted in. The rows are locked first, in id order (so two completions never wait on each other in
/// opposite orders); under READ COMMITTED the update then tests `count < quota_limit` on the count a concurrent
/// completion it waited for left.
const COUNT: &str = "\
UPDATE quotas SET count = count + 1
WHERE account_id = $1 AND count < quota_limit AND id IN (
    SELECT id FROM quotas WHERE account_id = $1 AND survey_id = $2 AND id = ANY($3) ORDER BY id FOR UPDATE)
RETURNING id";

#[derive(QueryableByName)]
struct Counted {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// A quota's row.
#[derive(Queryable, Selectable)]
#[diesel(table_name = quotas)]
struct QuotaRow {
    id: i64,
    survey_id: i64,
    name: String,
    conditions: Value,
    quota_limit: i64,
    action: String,
    count: i64,
}

impl TryFrom<QuotaRow> for Quota {
    type Error = RepoError;

    fn try_from(row: QuotaRow) -> Result<Self, RepoError> {
        let unreadable = |what: &str| RepoError::Other(format!("quota {} holds an unreadable {what}", row.id).into());
        let when = Conditions::from_json(&row.conditions, "when").map_err(|_| unreadable("condition"))?;
        let action = QuotaAction::parse(&row.action).ok_or_else(|| unreadable("action"))?;
        let input = QuotaInput { name: row.name, when, limit: row.quota_limit, action };
        Ok(Self { id: QuotaId::new(row.id), survey_id: SurveyId::new(row.survey_id), input, count: row.count })
    }
}

impl QuotaRepository for PgUnitOfWork<'_> {
    fn insert_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        input: &QuotaInput,
        now: OffsetDateTime,
    ) -> RepoResult<Quota> {
        let row: QuotaRow = diesel::insert_into(quotas::table)
            .values((
                quotas::account_id.eq(account.get()),
                quotas::survey_id.eq(survey.get()),
                quotas::name.eq(&input.name),
                quotas::conditions.eq(input.when.to_json()),
                quotas::quota_limit.eq(input.limit),
                quotas::action.eq(input.action.as_str()),
                quotas::created_at.eq(now),
            ))
            .returning(QuotaRow::as_returning())
            .get_result(self.conn)
            .or_repo()?;
        row.try_into()
    }

    fn survey_quotas(&mut self, account: AccountId, survey: SurveyId, lock: bool) -> RepoResult<Vec<Quota>> {
        let of_survey = quotas::account_id.eq(account.get()).and(quotas::survey_id.eq(survey.get()));
        let query = quotas::table.filter(of_survey).order(quotas::id).select(QuotaRow::as_select());
        let rows: Vec<QuotaRow> =
            if lock { query.for_update().load(self.conn) } else { query.load(self.conn) }.or_repo()?;
        rows.into_iter().map(Quota::try_from).collect()
    }

    fn update_quota(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        id: QuotaId,
        input: &QuotaInput,
    ) -> RepoResult<()> {
        diesel::update(quotas::table)
            .filter(quotas::account_id.eq(account.get()))
            .filter(quotas::survey_id.eq(survey.get()))
            .filter(quotas::id.eq(id.get()))
            .set((
                quotas::name.eq(&input.name),
                quotas::conditions.eq(input.when.to_json()),
                quotas::quota_limit.eq(input.limit),
                quotas::action.eq(input.action.as_str()),
            ))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn delete_quota(&mut self, account: AccountId, survey: SurveyId, id: QuotaId) -> RepoResult<bool> {
        let deleted = diesel::delete(quotas::table)
            .filter(quotas::account_id.eq(account.get()))
            .filter(quotas::survey_id.eq(survey.get()))
            .filter(quotas::id.eq(id.get()))
            .execute(self.conn)
            .or_repo()?;
        Ok(deleted > 0)
    }

    fn count_in_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<Vec<QuotaId>> {
        let ids: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        let counted: Vec<Counted> = prepared(COUNT)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(survey.get())
            .bind::<Array<BigInt>, _>(&ids)
            .load(self.conn)
            .or_repo()?;
        Ok(counted.into_iter().map(|row| QuotaId::new(row.id)).collect())
    }

    fn uncount_quotas(&mut self, account: AccountId, survey: SurveyId, ids: &[QuotaId]) -> RepoResult<()> {
        let ids: Vec<i64> = ids.iter().map(|id| id.get()).collect();
        diesel::update(quotas::table)
            .filter(quotas::account_id.eq(account.get()))
            .filter(quotas::survey_id.eq(survey.get()))
            .filter(quotas::id.eq_any(ids))
            .set(quotas::count.eq(quotas::count - 1))
            .execute(self.conn)
            .or_repo()?;
        Ok(())
    }
}
