//! The retention engine's reads and batched removals on PostgreSQL.

use canvass_domain::governance::{NewRetentionRun, RetentionRun, SurveyPolicy};
use canvass_domain::ids::{AccountId, LabelId, SendoutId, SurveyId};
use canvass_domain::ports::{RepoResult, RetentionRepository};
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Text, Timestamptz};
use time::OffsetDateTime;

use super::{survey_policy_of, SURVEY_POLICY};
use crate::distribution::counts::respondents_gone;
use crate::error::OrRepoError;
use crate::schema::{sendouts, survey_retention_policies as survey_policies, surveys};
use crate::PgUnitOfWork;

/// The advisory lock that keeps two retention runs (on any number of servers) from overlapping.
const RETENTION_LOCK: i64 = 0x7265_7465_6e74;

#[derive(QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    flag: bool,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// The statement that removes (or, in a dry run, counts) the rows of `table` whose ids `candidates` selects.
/// `candidates` selects `id` (or the key columns `keys`) with `$1` the account and ends without LIMIT.
fn removal(table: &str, keys: &str, candidates: &str, dry_run: bool) -> String {
    if dry_run {
        format!("SELECT count(*) AS count FROM ({candidates}) AS candidates")
    } else {
        format!("WITH gone AS (DELETE FROM {table} WHERE account_id = $1 AND ({keys}) IN ({candidates} LIMIT $9) RETURNING 1) \
                 SELECT count(*) AS count FROM gone")
    }
}

/// The statement that removes (or, in a dry run, counts) the respondents whose ids `candidates` selects, takes them
/// off their sendouts' counts and deletes their timelines in the same statement. `candidates` is as for [`removal`].
///
/// Their answer sets stay, with no respondent: the statement clears `answer_sets.respondent_id` itself (the foreign
/// key has no `ON DELETE SET NULL`, which Citus refuses; see docs/scaling.md). The batch is picked once
/// (`picked`), so the sets cleared are those of the respondents deleted; the key's check runs at the end of the
/// statement, after both.
fn respondent_removal(candidates: &str, dry_run: bool) -> String {
    if dry_run {
        return removal("respondents", "id", candidates, true);
    }
    format!(
        "WITH picked AS MATERIALIZED ({candidates} LIMIT $9), \
         detached AS (UPDATE answer_sets SET respondent_id = NULL \
             WHERE account_id = $1 AND respondent_id IN (SELECT id FROM picked)), \
         gone AS (DELETE FROM respondents WHERE account_id = $1 AND id IN (SELECT id FROM picked) \
             RETURNING id, sendout_id, status), \
         {after} \
         SELECT count(*) AS count FROM gone",
        after = respondents_gone!()
    )
}

impl PgUnitOfWork<'_> {
    /// Locks the sendout whose respondents a removal deletes before the removal locks any of them: an activation
    /// locks its sendout first too, so the two never wait on each other.
    fn lock_sendout(&mut self, account: AccountId, sendout: SendoutId) -> RepoResult<()> {
        sendouts::table
            .filter(sendouts::account_id.eq(account.get()).and(sendouts::id.eq(sendout.get())))
            .select(sendouts::id)
            .for_update()
            .load::<i64>(self.conn)
            .or_repo()?;
        Ok(())
    }

    /// Locks the survey's sendouts in id order, as [`Self::lock_sendout`] one.
    fn lock_survey_sendouts(&mut self, account: AccountId, survey: SurveyId) -> RepoResult<()> {
        sendouts::table
            .filter(sendouts::account_id.eq(account.get()).and(sendouts::survey_id.eq(survey.get())))
            .order(sendouts::id)
            .select(sendouts::id)
            .for_update()
            .load::<i64>(self.conn)
            .or_repo()?;
        Ok(())
    }

    /// Runs a removal statement whose binds are `$1` account, `$2` id (of a sendout or a survey), `$3` instant and
    /// `$9` limit; unused binds are given anyway so every statement shares one bind list.
    fn removal_count(
        &mut self,
        sql: &str,
        account: AccountId,
        id: impl Into<i64>,
        at: OffsetDateTime,
        labels: &[String],
        limit: i64,
    ) -> RepoResult<u64> {
        let sql = sql.replace("$9", "$5");
        let row: Count = diesel::sql_query(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(id.into())
            .bind::<Timestamptz, _>(at)
            .bind::<Array<Text>, _>(labels)
            .bind::<BigInt, _>(limit)
            .get_result(self.conn)
            .or_repo()?;
        Ok(row.count.max(0) as u64)
    }
}

impl RetentionRepository for PgUnitOfWork<'_> {
    fn record_retention_run(&mut self, run: &NewRetentionRun) -> RepoResult<i64> {
        self.insert_retention_run(run)
    }

    fn retention_runs(&mut self, account: AccountId, limit: i64) -> RepoResult<Vec<RetentionRun>> {
        self.newest_retention_runs(account, limit)
    }

    fn lock_retention(&mut self, wait: bool) -> RepoResult<bool> {
        let sql = if wait {
            format!("SELECT pg_advisory_lock({RETENTION_LOCK}) IS NOT NULL AS flag")
        } else {
            format!("SELECT pg_try_advisory_lock({RETENTION_LOCK}) AS flag")
        };
        let row: Flag = diesel::sql_query(sql).get_result(self.conn).or_repo()?;
        Ok(row.flag)
    }

    fn unlock_retention(&mut self) -> RepoResult<()> {
        diesel::sql_query(format!("SELECT pg_advisory_unlock({RETENTION_LOCK}) AS flag"))
            .get_result::<Flag>(self.conn)
            .or_repo()?;
        Ok(())
    }

    fn accounts_with_retention(&mut self) -> RepoResult<Vec<AccountId>> {
        #[derive(QueryableByName)]
        struct Account {
            #[diesel(sql_type = BigInt)]
            account_id: i64,
        }
        let rows: Vec<Account> = diesel::sql_query(
            "SELECT account_id FROM retention_rules UNION SELECT account_id FROM account_retention_policies \
             UNION SELECT account_id FROM survey_retention_policies ORDER BY account_id",
        )
        .load(self.conn)
        .or_repo()?;
        Ok(rows.into_iter().map(|r| AccountId::new(r.account_id)).collect())
    }

    fn sendouts_of_account(&mut self, account: AccountId) -> RepoResult<Vec<(SurveyId, SendoutId)>> {
        let rows: Vec<(i64, i64)> = sendouts::table
            .filter(sendouts::account_id.eq(account.get()))
            .order(sendouts::id)
            .select((sendouts::survey_id, sendouts::id))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(|(survey, sendout)| (SurveyId::new(survey), SendoutId::new(sendout))).collect())
    }

    fn remove_respondents(
        &mut self,
        account: AccountId,
        sendout: SendoutId,
        added_before: OffsetDateTime,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let candidates = "SELECT id FROM respondents WHERE account_id = $1 AND sendout_id = $2 AND added_at <= $3";
        if !dry_run {
            self.lock_sendout(account, sendout)?;
        }
        self.removal_count(&respondent_removal(candidates, dry_run), account, sendout, added_before, &[], limit)
    }

    fn surveys_for_policies(
        &mut self,
        account: AccountId,
    ) -> RepoResult<Vec<(SurveyId, OffsetDateTime, Option<SurveyPolicy>)>> {
        let rows: Vec<(i64, OffsetDateTime, Option<_>)> = surveys::table
            .left_join(survey_policies::table.on(
                survey_policies::account_id.eq(surveys::account_id).and(survey_policies::survey_id.eq(surveys::id)),
            ))
            .filter(surveys::account_id.eq(account.get()))
            .order(surveys::id)
            .select((surveys::id, surveys::end_date, SURVEY_POLICY.nullable()))
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(|(id, end, policy)| (SurveyId::new(id), end, policy.map(survey_policy_of))).collect())
    }

    fn erase_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        kept_labels: &[LabelId],
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let kept: Vec<String> = kept_labels.iter().map(ToString::to_string).collect();
        let candidates =
            "SELECT r.id FROM respondents r JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
             WHERE r.account_id = $1 AND s.survey_id = $2 AND (r.contact_details <> '' \
               OR EXISTS (SELECT 1 FROM jsonb_object_keys(r.background_data) AS cell (label) WHERE label <> ALL ($4)))";
        let sql = if dry_run {
            removal("respondents", "id", candidates, true)
        } else {
            format!(
                "WITH erased AS (UPDATE respondents SET contact_details = '', contact_key = 'erased:' || id, \
                     token = 'erased:' || id, \
                     background_data = (SELECT coalesce(jsonb_object_agg(cell.key, cell.value), '{{}}'::jsonb) \
                                        FROM jsonb_each(background_data) AS cell WHERE cell.key = ANY ($4)) \
                 WHERE account_id = $1 AND id IN ({candidates} LIMIT $9) RETURNING id), \
                 cancelled AS (UPDATE outbox o SET status = 'Cancelled', last_error = 'Erased', lease_until = NULL \
                     FROM erased WHERE o.account_id = $1 AND o.respondent_id = erased.id AND o.status = 'Pending' \
                     RETURNING o.sendout_id, o.hold_kind), \
                 tallied AS (UPDATE sendouts s SET outbox_pending = s.outbox_pending - c.queued, \
                     outbox_held = s.outbox_held - c.held \
                     FROM (SELECT sendout_id, count(*) AS queued, count(hold_kind) AS held FROM cancelled \
                           GROUP BY sendout_id) AS c \
                     WHERE s.account_id = $1 AND s.id = c.sendout_id), \
                 forgotten AS (DELETE FROM respondent_events e USING erased \
                     WHERE e.account_id = $1 AND e.respondent_id = erased.id), \
                 unsent AS (UPDATE outbox o SET accepted_reply = NULL FROM erased \
                     WHERE o.account_id = $1 AND o.respondent_id = erased.id AND o.accepted_reply IS NOT NULL) \
                 SELECT count(*) AS count FROM erased"
            )
        };
        self.removal_count(&sql, account, survey, OffsetDateTime::UNIX_EPOCH, &kept, limit)
    }

    fn remove_open_text(&mut self, account: AccountId, survey: SurveyId, limit: i64, dry_run: bool) -> RepoResult<u64> {
        let candidates = "SELECT a.answer_set_id, a.question_item_id FROM answers a \
             JOIN question_items q ON q.account_id = a.account_id AND q.id = a.question_item_id \
             WHERE a.account_id = $1 AND q.survey_id = $2 AND q.item_type = 'OpenText'";
        let sql = removal("answers", "answer_set_id, question_item_id", candidates, dry_run);
        self.removal_count(&sql, account, survey, OffsetDateTime::UNIX_EPOCH, &[], limit)
    }

    fn remove_answer_sets(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let candidates = "SELECT id FROM answer_sets WHERE account_id = $1 AND survey_id = $2";
        let sql = removal("answer_sets", "id", candidates, dry_run);
        self.removal_count(&sql, account, survey, OffsetDateTime::UNIX_EPOCH, &[], limit)
    }

    fn remove_survey_respondents(
        &mut self,
        account: AccountId,
        survey: SurveyId,
        limit: i64,
        dry_run: bool,
    ) -> RepoResult<u64> {
        let candidates =
            "SELECT r.id FROM respondents r JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
             WHERE r.account_id = $1 AND s.survey_id = $2";
        if !dry_run {
            self.lock_survey_sendouts(account, survey)?;
        }
        let sql = respondent_removal(candidates, dry_run);
        self.removal_count(&sql, account, survey, OffsetDateTime::UNIX_EPOCH, &[], limit)
    }
}
