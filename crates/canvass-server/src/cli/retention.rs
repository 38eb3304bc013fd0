//! `canvass retention run`: every retention rule and policy applied once, over one connection.

use anyhow::Context;

use super::admin::{print_json, with_uow};
use super::args::RetentionCommand;
use canvass_domain::governance::RunTrigger;

/// Runs a `retention` subcommand; it fails when any account's retention failed.
pub(super) fn run(database_url: &str, command: RetentionCommand) -> anyhow::Result<()> {
    let RetentionCommand::Run { now, dry_run } = command;
    let now = match now {
        None => time::OffsetDateTime::now_utc(),
        Some(text) => time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339)
            .with_context(|| format!("--now {text} is not an RFC 3339 date-time"))?,
    };
    let summary =
        with_uow(database_url, |uow| crate::jobs::retention::run_once(uow, now, dry_run, true, RunTrigger::Command))?;
    print_json(&crate::jobs::retention::summary_json(&summary, now))?;
    match summary.failed_accounts.len() {
        0 => Ok(()),
        failed => anyhow::bail!("retention failed for {failed} account(s); the log names them"),
    }
}
