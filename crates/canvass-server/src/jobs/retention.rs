//! Running the retention engine: once from the command line, and on a timer inside the server.

use std::sync::Arc;
use std::time::Duration;

use canvass_domain::governance::RunTrigger;
use canvass_domain::ports::{Store, StoreExt, UnitOfWork};
use canvass_domain::use_cases::retention::{self, RetentionSummary};
use canvass_domain::use_cases::{audit, idempotency};
use canvass_domain::{Chain, DomainError};
use canvass_metrics::Metrics;
use serde_json::json;
use time::OffsetDateTime;

/// Reads an interval such as `5d`, `1h`, `30m`, `90s` or `0`.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let number: u64 = number.parse().map_err(|_| format!("`{text}` is not an interval such as 1h, 30m or 90s"))?;
    let unit_seconds = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("`{text}`: the unit must be s, m, h or d")),
    };
    // At most ten years: beyond that the setting is a typo, and time arithmetic would overflow.
    match number.checked_mul(unit_seconds) {
        Some(seconds) if seconds <= 10 * 366 * 86_400 => Ok(Duration::from_secs(seconds)),
        _ => Err(format!("`{text}` is longer than ten years")),
    }
}

/// Runs the engine once as of `now`; with `wait` it waits for a job another process is running. Progress goes
/// to stderr as counts only. A run that ran, and was no dry run, is kept with its figures per account
/// (`GET /data-retention/runs`), started by `trigger`.
pub fn run_once(
    uow: &mut dyn UnitOfWork,
    now: OffsetDateTime,
    dry_run: bool,
    wait: bool,
    trigger: RunTrigger,
) -> Result<RetentionSummary, DomainError> {
    let started_at = OffsetDateTime::now_utc();
    let mut progress = |what: &str, total: u64| {
        if total >= retention::BATCH as u64 {
            tracing::info!(retention.step = what, retention.rows = total, "retention progress");
        }
    };
    let summary = retention::run(uow, now, dry_run, wait, &mut progress)?;
    retention::record_run(uow, &summary, started_at, OffsetDateTime::now_utc(), trigger)?;
    if summary.ran {
        tracing::info!(
            retention.respondents_removed = summary.respondents_removed,
            retention.respondents_erased = summary.respondents_erased,
            retention.open_text_answers_removed = summary.open_text_answers_removed,
            retention.answer_sets_removed = summary.answer_sets_removed,
            retention.survey_respondents_removed = summary.survey_respondents_removed,
            retention.dry_run = dry_run,
            retention.accounts_failed = summary.failed_accounts.len(),
            "retention run finished"
        );
    }
    for (account, error) in &summary.failed_accounts {
        tracing::error!(account.id = account.get(), error.message = %error, "retention failed for an account");
    }
    Ok(summary)
}

/// The one-line JSON summary `canvass retention run` prints.
pub fn summary_json(summary: &RetentionSummary, now: OffsetDateTime) -> serde_json::Value {
    json!({
        "respondentsRemoved": summary.respondents_removed,
        "respondentsErased": summary.respondents_erased,
        "openTextAnswersRemoved": summary.open_text_answers_removed,
        "answerSetsRemoved": summary.answer_sets_removed,
        "surveyRespondentsRemoved": summary.survey_respondents_removed,
        "dryRun": summary.dry_run,
        "accountsFailed": summary.failed_accounts.len(),
        "asOf": now.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
    })
}

/// Deletes the idempotency keys of every account that have expired as of `now` (docs/idempotency.md), logging
/// how many or why it could not.
pub fn purge_idempotency_keys(store: &dyn Store, now: OffsetDateTime) {
    match store.with_uow(|uow| idempotency::purge(uow, now)) {
        Ok(0) => {}
        Ok(purged) => tracing::info!(idempotency.keys_purged = purged, "expired idempotency keys purged"),
        Err(error) => tracing::error!(error.message = %Chain(&error), "purging expired idempotency keys failed"),
    }
}

/// Deletes every account's audit events older than `days` as of `now`, logging how many or why it could not.
pub fn purge_audit_events(store: &dyn Store, now: OffsetDateTime, days: u32) {
    match store.with_uow(|uow| audit::purge(uow, now, days)) {
        Ok(0) => {}
        Ok(purged) => tracing::info!(audit.events_purged = purged, "audit events past their retention purged"),
        Err(error) => tracing::error!(error.message = %Chain(&error), "purging old audit events failed"),
    }
}

/// Runs the engine every `interval` on the blocking pool, then purges expired idempotency keys and audit events
/// older than `audit_days`. A run that finds
/// another job holding the lock skips. Each run that ran is counted in `metrics`: `failed` when it failed, whole
/// or for some account.
pub fn spawn_timer(store: Arc<dyn Store>, interval: Duration, audit_days: u32, metrics: Arc<Metrics>) {
    actix_web::rt::spawn(async move {
        let mut ticker = actix_web::rt::time::interval(interval);
        ticker.tick().await;
        loop {
            ticker.tick().await;
            let store = store.clone();
            let outcome = actix_web::rt::task::spawn_blocking(move || {
                let now = OffsetDateTime::now_utc();
                let summary = store
                    .with_uow(|uow| run_once(uow, now, false, false, RunTrigger::Timer))
                    .map_err(|e| Chain(&e).to_string());
                purge_idempotency_keys(store.as_ref(), now);
                purge_audit_events(store.as_ref(), now, audit_days);
                summary
            })
            .await;
            match outcome {
                Ok(Ok(summary)) if !summary.ran => tracing::info!("retention run skipped: another run holds the lock"),
                // Failed accounts were logged by run_once.
                Ok(Ok(summary)) => metrics.count_retention_run(run_outcome(&summary)),
                Ok(Err(error)) => {
                    metrics.count_retention_run(Err(0));
                    tracing::error!(error.message = %error, "retention run failed");
                }
                Err(error) => {
                    metrics.count_retention_run(Err(0));
                    tracing::error!(error.message = %error, "retention task panicked");
                }
            }
        }
    });
}

/// How a run that ran counts: `Ok` with the respondents it removed (by a rule, or with their survey by a
/// complete delete), or `Err` with them when it failed for an account.
fn run_outcome(summary: &RetentionSummary) -> Result<u64, u64> {
    let removed = summary.respondents_removed + summary.survey_respondents_removed;
    if summary.failed_accounts.is_empty() {
        Ok(removed)
    } else {
        Err(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_read_units() {
        assert_eq!(parse_interval("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_interval("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_interval("0"), Ok(Duration::ZERO));
        assert!(parse_interval("soon").is_err());
        assert_eq!(parse_interval("5d"), Ok(Duration::from_secs(5 * 86_400)));
        assert!(parse_interval("5w").is_err());
        assert!(parse_interval("99999999999999d").is_err(), "an overflow is refused, not wrapped");
    }

    #[test]
    fn a_run_counts_every_respondent_it_removed_and_fails_when_an_account_failed() {
        let mut summary =
            RetentionSummary { respondents_removed: 2, survey_respondents_removed: 3, ran: true, ..Default::default() };
        assert_eq!(run_outcome(&summary), Ok(5));
        summary.failed_accounts.push((canvass_domain::AccountId::new(7), "timeout".into()));
        assert_eq!(run_outcome(&summary), Err(5));
    }
}
