//! The retention engine: applies every retention rule and policy as of an instant, in short batches.
//!
//! # The retention engine: `canvass retention run` and the timer
//!
//! `use_cases/retention.rs`; the adapter is `crates/canvass-postgres/src/governance/retention.rs`, the drivers
//! `crates/canvass-server/src/jobs/retention.rs` and `cli/retention.rs`.
//!
//! 1. **Start.** `canvass retention run [--now T] [--dry-run]` opens one connection and calls
//!    `retention::run_once(…, wait = true)`. In `canvass serve`, `Application::build` starts
//!    `retention::spawn_timer` unless `--retention-interval` is 0; on every tick it takes a connection from the
//!    pool and calls `run_once(…, wait = false)` on the blocking thread pool. Both call the domain's
//!    `use_cases::retention::run` with the instant, the dry-run flag and a progress callback.
//! 2. **Lock.** `lock_retention`: a session-level advisory lock on one constant key, `pg_advisory_lock` (waits) or
//!    `pg_try_advisory_lock` (gives up: the run returns with `ran` false and the timer logs the skip). Being
//!    session-level, it spans the many short transactions of the run. `unlock_retention` at the end, also after an
//!    error.
//! 3. **Accounts.** `accounts_with_retention`: every account that has a row in `retention_rules`,
//!    `account_retention_policies` or `survey_retention_policies`, in id order. The rest of the run works on one
//!    account at a time.
//! 4. **Rules.** `list_rules` once for the account, `sendouts_of_account`, and for each sendout
//!    `effective_rule(rules, survey, sendout, RemoveRespondentDataWithoutAnswers)`. When a rule applies,
//!    `remove_respondents(account, sendout, now - retentionDays, 5000)` runs in its own transaction, again and
//!    again until a batch removes fewer than 5,000 rows: one statement picks the batch (`SELECT id FROM respondents
//!    WHERE … sendout_id = $2 AND added_at <= $3 LIMIT 5000`, in a materialized CTE, served by the index
//!    `respondents_added_idx` on `(account_id, sendout_id, added_at)`), sets the `respondent_id` of their answer sets
//!    to null and deletes them (`DELETE FROM respondents WHERE account_id = $1 AND id IN (SELECT id FROM picked)`).
//!    The answer sets' foreign key has no action since migration 000018 (Citus refuses `SET NULL`, see
//!    docs/scaling.md) and checks at the statement's end that none is left behind; the
//!    outbox's foreign key removes the unsent messages.
//! 5. **Policies.** `account_policy` once, `surveys_for_policies` (every survey of the account with its end date
//!    and its policy, one left join), and for each survey `policy_deadlines`. When the complete deadline has
//!    passed: `remove_answer_sets`, then `remove_survey_respondents`, each in batches as above. Otherwise, when the
//!    partial deadline has passed: `erase_respondents` (an `UPDATE … WHERE id IN (… LIMIT 5000)` per batch) and,
//!    when the account policy includes open text, `remove_open_text`.
//! 6. **Summary.** The counts come back as a `RetentionSummary`. `run_once` logs them; the CLI also prints them as
//!    one JSON line.
//!
//! With `--dry-run` every step is one counting `SELECT` of its candidates, without batches or changes.
//! `benches/retention_engine.rs` compares the engine with one raw `DELETE` (docs/benchmarks.md).

use time::OffsetDateTime;

use crate::error::{Chain, DomainError, RepoError};
use crate::governance::{
    effective_rule, policy_deadlines, NewRetentionRun, RetentionAction, RetentionRun, RunFigures, RunTrigger,
};
use crate::ids::AccountId;
use crate::ports::{transaction, GovernanceRepository, RetentionRepository, Transactional};

/// Rows one batch (one short transaction) works on.
pub const BATCH: i64 = 5000;

/// What a run removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RetentionSummary {
    /// Respondents removed by RemoveRespondentDataWithoutAnswers rules.
    pub respondents_removed: u64,
    /// Respondents whose contact details, link and background data were erased by a partial delete.
    pub respondents_erased: u64,
    /// Open-text answers removed by a partial delete.
    pub open_text_answers_removed: u64,
    /// Answer sets removed by a complete delete.
    pub answer_sets_removed: u64,
    /// Respondents removed by a complete delete.
    pub survey_respondents_removed: u64,
    /// Whether the run changed nothing.
    pub dry_run: bool,
    /// False when another run held the lock and this one did not run.
    pub ran: bool,
    /// Accounts whose rules or policies could not be applied, with the reason; the run went on with the others,
    /// and what was removed for them before the failure stays removed.
    pub failed_accounts: Vec<(AccountId, String)>,
    /// Each account the run removed something in or failed for, with its figures.
    pub per_account: Vec<(AccountId, RunFigures)>,
}

impl RetentionSummary {
    /// The figures so far, to take the difference an account made.
    fn figures(&self) -> RunFigures {
        RunFigures {
            respondents_removed: self.respondents_removed,
            respondents_erased: self.respondents_erased,
            open_text_answers_removed: self.open_text_answers_removed,
            answer_sets_removed: self.answer_sets_removed,
            survey_respondents_removed: self.survey_respondents_removed,
            failed: false,
        }
    }
}

/// Keeps a run that ran and changed something or could have (not a dry run, not one that found the lock taken),
/// with each account's figures.
pub fn record_run(
    uow: &mut (impl RetentionRepository + ?Sized),
    summary: &RetentionSummary,
    started_at: OffsetDateTime,
    finished_at: OffsetDateTime,
    trigger: RunTrigger,
) -> Result<Option<i64>, DomainError> {
    if !summary.ran || summary.dry_run {
        return Ok(None);
    }
    let run = NewRetentionRun { started_at, finished_at, trigger, figures: summary.per_account.clone() };
    Ok(Some(uow.record_retention_run(&run)?))
}

/// The newest `limit` (1 to 1000) runs with the account's figures.
pub fn runs(
    uow: &mut (impl RetentionRepository + ?Sized),
    account: AccountId,
    limit: i64,
) -> Result<Vec<RetentionRun>, DomainError> {
    if !(1..=1000).contains(&limit) {
        return Err(DomainError::Invalid(vec![crate::error::FieldError::new("limit", "must be between 1 and 1000")]));
    }
    Ok(uow.retention_runs(account, limit)?)
}

/// Applies every rule and policy of every account as of `now`. Holds the engine's lock for the run: with `wait`
/// it waits for a running job to finish, without it gives up at once (`ran` false). Idempotent: a second run
/// at the same instant changes nothing.
pub fn run(
    uow: &mut (impl GovernanceRepository + RetentionRepository + Transactional + ?Sized),
    now: OffsetDateTime,
    dry_run: bool,
    wait: bool,
    progress: &mut dyn FnMut(&str, u64),
) -> Result<RetentionSummary, DomainError> {
    if !uow.lock_retention(wait)? {
        return Ok(RetentionSummary { dry_run, ..Default::default() });
    }
    let result = run_locked(uow, now, dry_run, progress);
    let unlocked = uow.unlock_retention();
    let summary = result?;
    unlocked?;
    Ok(summary)
}

fn run_locked(
    uow: &mut (impl GovernanceRepository + RetentionRepository + Transactional + ?Sized),
    now: OffsetDateTime,
    dry_run: bool,
    progress: &mut dyn FnMut(&str, u64),
) -> Result<RetentionSummary, DomainError> {
    let mut summary = RetentionSummary { dry_run, ran: true, ..Default::default() };
    for account in uow.accounts_with_retention()? {
        let before = summary.figures();
        let applied = apply_rules(uow, account, now, dry_run, progress, &mut summary)
            .and_then(|()| apply_policies(uow, account, now, dry_run, progress, &mut summary));
        let failed = match applied {
            Ok(()) => false,
            // Without the database no account can be worked on: the run stops.
            Err(error @ DomainError::Repo(RepoError::Unavailable(_))) => return Err(error),
            // One account's failure does not keep the others' data past its time.
            Err(error) => {
                summary.failed_accounts.push((account, Chain(&error).to_string()));
                true
            }
        };
        let after = summary.figures();
        let made = RunFigures {
            respondents_removed: after.respondents_removed - before.respondents_removed,
            respondents_erased: after.respondents_erased - before.respondents_erased,
            open_text_answers_removed: after.open_text_answers_removed - before.open_text_answers_removed,
            answer_sets_removed: after.answer_sets_removed - before.answer_sets_removed,
            survey_respondents_removed: after.survey_respondents_removed - before.survey_respondents_removed,
            failed,
        };
        if !made.is_empty() {
            summary.per_account.push((account, made));
        }
    }
    Ok(summary)
}

/// Runs `batch` until it works on fewer than [`BATCH`] rows (once in a dry run), each in its own transaction.
fn repeat<U: Transactional + ?Sized>(
    uow: &mut U,
    dry_run: bool,
    what: &str,
    progress: &mut dyn FnMut(&str, u64),
    mut batch: impl FnMut(&mut U) -> Result<u64, DomainError>,
) -> Result<u64, DomainError> {
    let mut total = 0;
    loop {
        let done = transaction(uow, |tx| batch(tx))?;
        total += done;
        if done > 0 {
            progress(what, total);
        }
        if dry_run || done < BATCH as u64 {
            return Ok(total);
        }
    }
}

fn apply_rules(
    uow: &mut (impl GovernanceRepository + RetentionRepository + Transactional + ?Sized),
    account: AccountId,
    now: OffsetDateTime,
    dry_run: bool,
    progress: &mut dyn FnMut(&str, u64),
    summary: &mut RetentionSummary,
) -> Result<(), DomainError> {
    let rules = uow.list_rules(account)?;
    if rules.is_empty() {
        return Ok(());
    }
    let action = RetentionAction::RemoveRespondentDataWithoutAnswers;
    for (survey, sendout) in uow.sendouts_of_account(account)? {
        let Some(rule) = effective_rule(&rules, survey, sendout, action) else { continue };
        let cutoff = rule.cutoff(now);
        summary.respondents_removed += repeat(uow, dry_run, "respondentsRemoved", progress, |tx| {
            Ok(tx.remove_respondents(account, sendout, cutoff, BATCH, dry_run)?)
        })?;
    }
    Ok(())
}

fn apply_policies(
    uow: &mut (impl GovernanceRepository + RetentionRepository + Transactional + ?Sized),
    account: AccountId,
    now: OffsetDateTime,
    dry_run: bool,
    progress: &mut dyn FnMut(&str, u64),
    summary: &mut RetentionSummary,
) -> Result<(), DomainError> {
    let account_policy = uow.account_policy(account)?;
    for (survey, end, policy) in uow.surveys_for_policies(account)? {
        let deadlines = policy_deadlines(end, policy.as_ref(), account_policy.as_ref());
        if deadlines.complete.is_some_and(|at| at <= now) {
            summary.answer_sets_removed += repeat(uow, dry_run, "answerSetsRemoved", progress, |tx| {
                Ok(tx.remove_answer_sets(account, survey, BATCH, dry_run)?)
            })?;
            summary.survey_respondents_removed += repeat(uow, dry_run, "surveyRespondentsRemoved", progress, |tx| {
                Ok(tx.remove_survey_respondents(account, survey, BATCH, dry_run)?)
            })?;
        } else if deadlines.partial.is_some_and(|at| at <= now) {
            let kept = deadlines.kept_labels.clone();
            summary.respondents_erased += repeat(uow, dry_run, "respondentsErased", progress, |tx| {
                Ok(tx.erase_respondents(account, survey, &kept, BATCH, dry_run)?)
            })?;
            if deadlines.include_open_text {
                summary.open_text_answers_removed += repeat(uow, dry_run, "openTextAnswersRemoved", progress, |tx| {
                    Ok(tx.remove_open_text(account, survey, BATCH, dry_run)?)
                })?;
            }
        }
    }
    Ok(())
}
