//! Erasure of one person across an account on PostgreSQL: four statements, whatever the number of sendouts.

use canvass_domain::ids::AccountId;
use canvass_domain::ports::{Erased, ErasureRepository, RepoResult};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use crate::distribution::counts::uncount_gone;
use crate::error::OrRepoError;
use crate::prepared::prepared;
use crate::PgUnitOfWork;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Locks the sendouts the person is a respondent of, in id order, before any of their respondents: activation and
/// the retention removals lock a sendout before its respondents too, so none waits on another in a cycle.
const LOCK_SENDOUTS: &str = "SELECT count(*) AS count FROM (SELECT s.id FROM sendouts s \
     WHERE s.account_id = $1 AND s.id IN (SELECT sendout_id FROM respondents WHERE account_id = $1 AND contact_key = $2) \
     ORDER BY s.id FOR UPDATE) AS locked";

/// Removes the person's answer sets (their answers go with them).
const DELETE_ANSWER_SETS: &str = "WITH gone AS (DELETE FROM answer_sets WHERE account_id = $1 AND respondent_id IN \
     (SELECT id FROM respondents WHERE account_id = $1 AND contact_key = $2) RETURNING 1) \
     SELECT count(*) AS count FROM gone";

/// Keeps the person's answer sets, with no respondent.
const DETACH_ANSWER_SETS: &str = "WITH kept AS (UPDATE answer_sets SET respondent_id = NULL WHERE account_id = $1 \
     AND respondent_id IN (SELECT id FROM respondents WHERE account_id = $1 AND contact_key = $2) RETURNING 1) \
     SELECT count(*) AS count FROM kept";

/// Removes the respondents (their messages go with them) and takes them off their sendouts' stored counts.
const DELETE_RESPONDENTS: &str = concat!(
    "WITH gone AS (DELETE FROM respondents WHERE account_id = $1 AND contact_key = $2 RETURNING sendout_id, status), ",
    uncount_gone!(),
    " SELECT count(*) AS count FROM gone"
);

/// Removes the permanent failures recorded for the address (they hold it).
const DELETE_FAILURES: &str = "WITH gone AS (DELETE FROM permanent_failures WHERE account_id = $1 AND email_key = $2 \
     RETURNING 1) SELECT count(*) AS count FROM gone";

impl PgUnitOfWork<'_> {
    /// Runs one of this module's statements for the account and contact key and reads its count.
    fn erasure_step(&mut self, sql: &'static str, account: AccountId, contact_key: &str) -> RepoResult<u64> {
        let row: Count = prepared(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<Text, _>(contact_key)
            .get_result(self.conn)
            .or_repo()?;
        Ok(row.count.max(0) as u64)
    }
}

impl ErasureRepository for PgUnitOfWork<'_> {
    fn erase_contact(&mut self, account: AccountId, contact_key: &str, include_answers: bool) -> RepoResult<Erased> {
        self.erasure_step(LOCK_SENDOUTS, account, contact_key)?;
        let answer_sets = if include_answers {
            self.erasure_step(DELETE_ANSWER_SETS, account, contact_key)?
        } else {
            self.erasure_step(DETACH_ANSWER_SETS, account, contact_key)?;
            0
        };
        let respondents = self.erasure_step(DELETE_RESPONDENTS, account, contact_key)?;
        self.erasure_step(DELETE_FAILURES, account, contact_key)?;
        Ok(Erased { respondents, answer_sets })
    }
}
