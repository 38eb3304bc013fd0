//! Retention runs on PostgreSQL: the runs in a reference table, each account's figures of them distributed by
//! account. A read takes the newest runs, then the account's figures of those (two statements, each one a single
//! node can answer on Citus, where a join of the two across accounts could not be).

use std::collections::HashMap;

use canvass_domain::governance::{NewRetentionRun, RetentionRun, RunFigures, RunTrigger};
use canvass_domain::ids::AccountId;
use canvass_domain::ports::RepoResult;
use canvass_domain::RepoError;
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::{retention_run_figures as figures, retention_runs as runs};
use crate::PgUnitOfWork;

fn count(figure: u64) -> i64 {
    i64::try_from(figure).unwrap_or(i64::MAX)
}

fn figure(count: i64) -> u64 {
    u64::try_from(count).unwrap_or_default()
}

type FiguresRow = (i64, i64, i64, i64, i64, i64, bool);

impl PgUnitOfWork<'_> {
    pub(super) fn insert_retention_run(&mut self, run: &NewRetentionRun) -> RepoResult<i64> {
        let id: i64 = diesel::insert_into(runs::table)
            .values((
                runs::started_at.eq(run.started_at),
                runs::finished_at.eq(run.finished_at),
                runs::trigger.eq(run.trigger.name()),
            ))
            .returning(runs::id)
            .get_result(self.conn)
            .or_repo()?;
        // One row per account, each written to its own shard: an account's figures go where its data is.
        for (account, made) in &run.figures {
            diesel::insert_into(figures::table)
                .values((
                    figures::account_id.eq(account.get()),
                    figures::run_id.eq(id),
                    figures::respondents_removed.eq(count(made.respondents_removed)),
                    figures::respondents_erased.eq(count(made.respondents_erased)),
                    figures::open_text_answers_removed.eq(count(made.open_text_answers_removed)),
                    figures::answer_sets_removed.eq(count(made.answer_sets_removed)),
                    figures::survey_respondents_removed.eq(count(made.survey_respondents_removed)),
                    figures::failed.eq(made.failed),
                ))
                .execute(self.conn)
                .or_repo()?;
        }
        Ok(id)
    }

    pub(super) fn newest_retention_runs(&mut self, account: AccountId, limit: i64) -> RepoResult<Vec<RetentionRun>> {
        let newest: Vec<(i64, OffsetDateTime, OffsetDateTime, String)> = runs::table
            .order(runs::id.desc())
            .limit(limit)
            .select((runs::id, runs::started_at, runs::finished_at, runs::trigger))
            .load(self.conn)
            .or_repo()?;
        let ids: Vec<i64> = newest.iter().map(|(id, ..)| *id).collect();
        let rows: Vec<FiguresRow> = figures::table
            .filter(figures::account_id.eq(account.get()).and(figures::run_id.eq_any(&ids)))
            .select((
                figures::run_id,
                figures::respondents_removed,
                figures::respondents_erased,
                figures::open_text_answers_removed,
                figures::answer_sets_removed,
                figures::survey_respondents_removed,
                figures::failed,
            ))
            .load(self.conn)
            .or_repo()?;
        let mut mine: HashMap<i64, RunFigures> = rows
            .into_iter()
            .map(|(run, removed, erased, texts, sets, survey, failed)| {
                let made = RunFigures {
                    respondents_removed: figure(removed),
                    respondents_erased: figure(erased),
                    open_text_answers_removed: figure(texts),
                    answer_sets_removed: figure(sets),
                    survey_respondents_removed: figure(survey),
                    failed,
                };
                (run, made)
            })
            .collect();
        newest
            .into_iter()
            .map(|(id, started_at, finished_at, trigger)| {
                let trigger = RunTrigger::named(&trigger)
                    .ok_or_else(|| RepoError::Other(format!("a run's stored trigger is unknown: {trigger}").into()))?;
                let figures = mine.remove(&id).unwrap_or_default();
                Ok(RetentionRun { id, started_at, finished_at, trigger, figures })
            })
            .collect()
    }
}
