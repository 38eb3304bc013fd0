//! `canvass dsn`: one delivery status notification from stdin, recorded as `POST /inbound/dsn` does, with the
//! sysexits statuses a mail system's pipe transport understands.

use canvass_domain::clock::SystemClock;
use canvass_domain::use_cases::bounces::{self, ReportOutcome};
use serde_json::json;

use super::admin::{print_json, with_uow};

/// The largest notification `canvass dsn` reads, as `/inbound/dsn` takes.
const DSN_LIMIT: u64 = 1024 * 1024;

/// A failure that exits with a status of its own: `canvass dsn` speaks sysexits to a mail system's pipe
/// transport, which tries again later after 75 and gives up after 65.
#[derive(Debug)]
pub struct Exit {
    /// The exit status.
    pub status: u8,
    /// What went wrong.
    pub reason: String,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Exit {}

/// `EX_DATAERR`: the input is wrong, and will be wrong next time too.
const EX_DATAERR: u8 = 65;
/// `EX_TEMPFAIL`: try again later.
const EX_TEMPFAIL: u8 = 75;

/// `canvass dsn`: reads the notification from stdin and records it; prints {"permanentFailures","ignored"}.
pub(super) fn dsn(database_url: &str) -> anyhow::Result<()> {
    let exit = |status: u8, reason: String| anyhow::Error::new(Exit { status, reason });
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(std::io::stdin(), DSN_LIMIT + 1), &mut raw)
        .map_err(|e| exit(EX_TEMPFAIL, format!("cannot read the notification from stdin: {e}")))?;
    if raw.len() as u64 > DSN_LIMIT {
        return Err(exit(EX_DATAERR, "the notification on stdin is over 1 MiB".into()));
    }
    let report = canvass_dsn::parse_report(&raw).map_err(|e| exit(EX_DATAERR, e.to_string()))?;
    let outcome = with_uow(database_url, |uow| bounces::record_report(uow, &SystemClock, &report))
        .map_err(|e| exit(EX_TEMPFAIL, format!("{e:#}")))?;
    match outcome {
        ReportOutcome::Recorded { permanent_failures, ignored } => {
            print_json(&json!({ "permanentFailures": permanent_failures, "ignored": ignored }))
        }
        ReportOutcome::InFlight => Err(exit(
            EX_TEMPFAIL,
            "the message this report is about is still being sent; hand the report over again later".into(),
        )),
    }
}
