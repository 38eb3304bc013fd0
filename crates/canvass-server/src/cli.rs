//! The command line: `serve`, `worker`, `migrate`, `account create`, `key create`, `key revoke`, `sender add`,
//! `sender list`, `sender remove`, `retention run`, `dsn`. Every command reads `DATABASE_URL`; logs go to stderr, and
//! stdout carries only each command's JSON output. Settings that hold secrets are read as
//! [`secrecy::SecretString`], which never shows in Debug output or logs.
//!
//! `args` holds what clap parses (`crate::settings` turns those options into [`crate::Settings`]); each command runs
//! in a file of its own: `serve`, `worker`, `admin` (`migrate`, `account`, `key`, `sender`), `retention` and `dsn`.

mod admin;
mod args;
mod dsn;
mod retention;
mod serve;
mod worker;

#[cfg(test)]
mod readme;

pub use args::{
    AccountCommand, Cli, Command, KeyCommand, RetentionCommand, SenderCommand, ServeArgs, WorkerArgs, WorkerCommandArgs,
};
pub use dsn::Exit;

use anyhow::anyhow;

use crate::telemetry;

/// Answers what clap could not parse as every other failure is answered: `canvass: <reason>` on stderr and status
/// 1, with clap's usage lines after the reason. `--help` and `--version` print to stdout and succeed.
pub fn usage_error(error: &clap::Error) -> std::process::ExitCode {
    if !error.use_stderr() {
        let _ = error.print();
        return std::process::ExitCode::SUCCESS;
    }
    let rendered = error.render().to_string();
    eprintln!("canvass: {}", rendered.trim_start_matches("error: ").trim_end());
    std::process::ExitCode::FAILURE
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    telemetry::init("info");
    // Read before anything else `serve` and `worker` do, so that a bad one stops them at once; other commands have
    // no limits to share.
    let limits_url = match &cli.command {
        Command::Serve(_) | Command::Worker(_) => limits_url(cli.limits_url.as_ref())?,
        _ => None,
    };
    let database_url = cli.database_url.ok_or_else(|| anyhow!("set DATABASE_URL (or --database-url)"))?;
    match cli.command {
        Command::Serve(args) => serve::serve(database_url, cli.statement_timeout, args, limits_url),
        Command::Worker(args) => worker::worker(&database_url, cli.statement_timeout, args),
        Command::Migrate => admin::migrate(&database_url),
        Command::Account(command) => admin::account(&database_url, command),
        Command::Key(command) => admin::key(&database_url, command),
        Command::Sender(command) => admin::sender(&database_url, command),
        Command::Retention(command) => retention::run(&database_url, command),
        Command::Dsn => dsn::dsn(&database_url),
    }
}

/// The parsed `LIMITS_URL`, if set; an error that names it (never its value) if it is not a Redis URL.
fn limits_url(url: Option<&secrecy::SecretString>) -> anyhow::Result<Option<canvass_limits::LimitsUrl>> {
    use secrecy::ExposeSecret;
    Ok(url.map(|url| canvass_limits::LimitsUrl::parse(url.expose_secret())).transpose()?)
}
