//! The command line: `serve`, `worker`, `migrate`, `account create`, `key create`, `key revoke`, `sender add`,
//! `sender list`, `sender remove`, `retention run`, `dsn`. Every command reads `DATABASE_URL`; logs go to stderr, and stdout carries only each command's JSON
//! output. Settings that hold secrets are read as [`SecretString`], which never shows in Debug output or logs.

use std::sync::Arc;

use anyhow::{anyhow, Context};
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use canvass_domain::use_cases::bounces::{self, ReportOutcome};
use canvass_domain::use_cases::senders;
use canvass_domain::{AccountId, DomainError};
use canvass_postgres::PgStore;
use clap::{Args, Parser, Subcommand};
use diesel::{Connection, PgConnection};
use secrecy::SecretString;
use serde_json::json;

use crate::{demo, telemetry, Application, Settings};

/// Canvass: survey distribution and response service.
#[derive(Debug, Parser)]
#[command(name = "canvass", version)]
pub struct Cli {
    /// PostgreSQL URL of the service's database.
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    pub database_url: Option<String>,
    /// The longest one SQL statement may run, e.g. `30s`, `2m` (`serve` and `worker`).
    #[arg(long, env = "STATEMENT_TIMEOUT", global = true, default_value = "30s", value_parser = positive_interval)]
    pub statement_timeout: std::time::Duration,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API.
    Serve(ServeArgs),
    /// Apply pending database migrations.
    Migrate,
    /// Manage accounts.
    #[command(subcommand)]
    Account(AccountCommand),
    /// Manage API keys.
    #[command(subcommand)]
    Key(KeyCommand),
    /// Manage the SMS sender numbers of accounts (TWOWAY sendouts send from and receive replies on them).
    #[command(subcommand)]
    Sender(SenderCommand),
    /// Data retention.
    #[command(subcommand)]
    Retention(RetentionCommand),
    /// Run only the delivery worker: send due invitations and reminders.
    Worker(WorkerCommandArgs),
    /// Record one delivery status notification (a late bounce) read from stdin; prints {"permanentFailures","ignored"}.
    Dsn,
}

/// Reads an interval such as `30s`, `2m` or `1h` that must not be zero.
fn positive_interval(text: &str) -> Result<std::time::Duration, String> {
    let interval = crate::retention::parse_interval(text)?;
    if interval.is_zero() {
        return Err("must be more than 0s".into());
    }
    Ok(interval)
}

/// Reads a secret setting; it stays out of Debug output and logs.
fn secret(text: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(text.to_owned()))
}

/// How messages are sent (`serve` and `worker`).
#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The mail relay: smtp://host:port, smtp://user:password@host:587?tls=required,
    /// smtp://host:587?tls=opportunistic or smtps://user:password@host:465; without it messages are written as
    /// files to --outbox-dir.
    #[arg(long, env = "SMTP_URL", hide_env_values = true, value_parser = secret)]
    pub smtp_url: Option<SecretString>,
    /// A PEM file of certificates trusted for the relay besides the system's roots (a relay with a private CA).
    #[arg(long, env = "SMTP_CA_FILE")]
    pub smtp_ca_file: Option<std::path::PathBuf>,
    /// The envelope sender (Return-Path) of every email, where relays send bounces: a mailbox piped into
    /// `canvass dsn`. Without it bounces go to each sendout's sender address.
    #[arg(long, env = "BOUNCE_ADDRESS")]
    pub bounce_address: Option<String>,
    /// SMTP sessions one worker keeps open and sends through at once.
    #[arg(long, env = "DELIVERY_CONCURRENCY", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub delivery_concurrency: u16,
    /// The SMS provider's HTTP endpoint (receives JSON; it may carry the provider's token, and is logged only as
    /// scheme and host); without it text messages are written to --outbox-dir.
    #[arg(long, env = "SMS_URL", hide_env_values = true, value_parser = secret)]
    pub sms_url: Option<SecretString>,
    /// Where the development transports write messages.
    #[arg(long, env = "OUTBOX_DIR", default_value = ".canvass/outbox")]
    pub outbox_dir: std::path::PathBuf,
    /// Base URL of respondents' survey links (default for `worker`: http://127.0.0.1:8080).
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Seconds a claimed message stays reserved for this worker; after a crash it is sent again once they pass.
    #[arg(long, env = "DELIVERY_LEASE_SECONDS", default_value_t = 300)]
    pub lease_seconds: u64,
    /// Let webhook URLs name private, loopback and link-local addresses (a receiver on the same host or network).
    #[arg(long, env = "WEBHOOK_ALLOW_PRIVATE")]
    pub webhook_allow_private: bool,
    /// Messages per second all workers on the database hand the relay together (e.g. 14 for a new Amazon SES
    /// account, 0.5 for a Microsoft 365 mailbox); without it, as fast as the relay takes them.
    #[arg(long, env = "DELIVERY_RATE", value_parser = positive_rate)]
    pub delivery_rate: Option<f64>,
    /// Messages per UTC day over all workers (e.g. 10000 for Microsoft 365); the rest wait for the next day.
    #[arg(long, env = "DELIVERY_DAILY_LIMIT", value_parser = clap::value_parser!(u64).range(1..))]
    pub delivery_daily_limit: Option<u64>,
    /// How long a message that keeps failing transiently is retried (only time it could have been sent counts),
    /// e.g. `5d`, `1h`, `90s`; then it becomes Failed.
    #[arg(long, env = "DELIVERY_MAX_AGE", default_value = "5d", value_parser = positive_interval)]
    pub delivery_max_age: std::time::Duration,
    /// The longest wait between two tries of a message after a transient failure, e.g. `1h`, `10m`.
    #[arg(long, env = "DELIVERY_MAX_BACKOFF", default_value = "1h", value_parser = positive_interval)]
    pub delivery_max_backoff: std::time::Duration,
    /// The bearer token GET /metrics requires (Authorization: Bearer <token>); without it the metrics are served
    /// to anyone who reaches the port.
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true, value_parser = secret)]
    pub metrics_token: Option<SecretString>,
}

/// Options of `worker`: how messages are sent, and where the worker alone serves its metrics.
#[derive(Debug, Args)]
pub struct WorkerCommandArgs {
    /// How messages are sent.
    #[command(flatten)]
    pub delivery: WorkerArgs,
    /// Where `canvass worker` serves GET /metrics (e.g. 127.0.0.1:9187); `serve` has its own on its port. An
    /// address that cannot be bound stops the start before anything is sent.
    #[arg(long, env = "METRICS_BIND")]
    pub metrics_bind: Option<String>,
}

/// Reads a rate of messages per second: a positive number.
fn positive_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if rate.is_finite() && rate > 0.0 => Ok(rate),
        _ => Err(format!("`{text}` is not a positive number of messages per second, such as 14 or 0.5")),
    }
}

impl WorkerArgs {
    fn delivery(&self) -> crate::delivery::DeliverySettings {
        crate::delivery::DeliverySettings {
            smtp_url: self.smtp_url.clone(),
            smtp_ca_file: self.smtp_ca_file.clone(),
            bounce_address: self.bounce_address.clone(),
            concurrency: usize::from(self.delivery_concurrency),
            sms_url: self.sms_url.clone(),
            outbox_dir: self.outbox_dir.clone(),
            poll: std::time::Duration::from_secs(1),
            lease: std::time::Duration::from_secs(self.lease_seconds.max(1)),
            rate: self.delivery_rate,
            daily_limit: self.delivery_daily_limit,
            max_age: self.delivery_max_age,
            max_backoff: self.delivery_max_backoff,
        }
    }
}

/// `retention` subcommands.
#[derive(Debug, Subcommand)]
pub enum RetentionCommand {
    /// Apply every retention rule and policy as of --now; prints one JSON summary line. Waits for a running job.
    Run {
        /// The instant to apply them as of (RFC 3339; default: now).
        #[arg(long)]
        now: Option<String>,
        /// Report what would be removed and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Database connections in the pool, which is also how many requests reach the database at once (default: two
    /// per core, at least 4; raise it when the database has cores of its own to spare).
    #[arg(long, env = "DATABASE_POOL_SIZE", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub pool_size: Option<u32>,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "WORKERS")]
    pub workers: Option<usize>,
    /// Delivery: relay, development outbox and the links' base URL (default: http://<bind address>).
    #[command(flatten)]
    pub delivery: WorkerArgs,
    /// The shared secret the SMS provider sends with TWOWAY replies to /sms/inbound (X-Canvass-Sms-Secret).
    #[arg(long, env = "SMS_INBOUND_SECRET", hide_env_values = true, value_parser = secret)]
    pub sms_inbound_secret: Option<SecretString>,
    /// The secret the relay's bounce mailbox sends with delivery status notifications to /inbound/dsn
    /// (X-Canvass-Inbound-Secret); without it that endpoint answers 404.
    #[arg(long, env = "INBOUND_SECRET", hide_env_values = true, value_parser = secret)]
    pub inbound_secret: Option<SecretString>,
    /// How often the retention job runs in the server, e.g. `1h`, `30m`, `90s` (`0` turns it off).
    #[arg(long, env = "RETENTION_INTERVAL", default_value = "1h", value_parser = crate::retention::parse_interval)]
    pub retention_interval: std::time::Duration,
    /// Requests per second one API key may make; bursts may reach ten times this (then 429).
    #[arg(long, env = "RATE_LIMIT_PER_KEY", default_value = "100")]
    pub rate_limit_per_key: std::num::NonZeroU32,
    /// The longest a request body may take to arrive whole, e.g. `10s` (then 408).
    #[arg(long, env = "BODY_READ_TIMEOUT", default_value = "10s", value_parser = positive_interval)]
    pub body_read_timeout: std::time::Duration,
    /// Take respondents' client addresses (for the failed-guess limits) from X-Forwarded-For/Forwarded; set only
    /// behind a reverse proxy that writes those headers.
    #[arg(long, env = "TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// Make sure a demo account with a sample survey exists and print a fresh key for it.
    #[arg(long)]
    pub demo: bool,
}

/// `account` subcommands.
#[derive(Debug, Subcommand)]
pub enum AccountCommand {
    /// Create an account, its first user and a key; prints {"accountId","userId","apiKey"}.
    Create {
        /// Name of the account.
        #[arg(long)]
        name: String,
        /// Email address of its first user.
        #[arg(long)]
        email: String,
    },
}

/// `key` subcommands.
#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Make a new key for a user; prints {"accountId","userId","apiKey"}.
    Create {
        /// The user's id.
        #[arg(long)]
        user: canvass_domain::ids::UserId,
    },
    /// Revoke the keys that start with a prefix (the first 16 characters, `cvs_` included); prints {"revoked"}.
    Revoke {
        /// The key's first 16 characters.
        #[arg(long)]
        key_prefix: String,
    },
}

/// `sender` subcommands.
#[derive(Debug, Subcommand)]
pub enum SenderCommand {
    /// Provision an E.164 number to an account; a number belongs to at most one account. Prints {"accountId","sms"}.
    Add {
        /// The account's id.
        #[arg(long)]
        account: i64,
        /// The number, E.164 (+4790000001).
        #[arg(long)]
        sms: String,
    },
    /// The account's numbers, in the order they were added; prints [{"sms","createdAt"}].
    List {
        /// The account's id.
        #[arg(long)]
        account: i64,
    },
    /// Take a number from an account: replies to it reach no one any more. Prints {"accountId","sms","removed"}.
    Remove {
        /// The account's id.
        #[arg(long)]
        account: i64,
        /// The number, E.164.
        #[arg(long)]
        sms: String,
    },
}

/// Runs a `sender` subcommand.
fn sender(database_url: &str, command: SenderCommand) -> anyhow::Result<()> {
    match command {
        SenderCommand::Add { account, sms } => {
            let account = AccountId::new(account);
            let number = with_uow(database_url, |uow| senders::add(uow, &SystemClock, account, &sms))?;
            print_json(&json!({ "accountId": account.get(), "sms": number.as_str() }))
        }
        SenderCommand::List { account } => {
            let numbers = with_uow(database_url, |uow| senders::list(uow, AccountId::new(account)))?;
            let numbers: Vec<_> = numbers
                .into_iter()
                .map(|sender| {
                    let created = sender.created_at.format(&time::format_description::well_known::Rfc3339);
                    json!({ "sms": sender.number, "createdAt": created.unwrap_or_default() })
                })
                .collect();
            print_json(&json!(numbers))
        }
        SenderCommand::Remove { account, sms } => {
            with_uow(database_url, |uow| senders::remove(uow, AccountId::new(account), &sms))?;
            print_json(&json!({ "accountId": account, "sms": sms.trim(), "removed": true }))
        }
    }
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    telemetry::init("info");
    let database_url = cli.database_url.ok_or_else(|| anyhow!("set DATABASE_URL (or --database-url)"))?;
    match cli.command {
        Command::Serve(args) => serve(database_url, cli.statement_timeout, args),
        Command::Migrate => {
            let mut conn = connect(&database_url)?;
            let applied = canvass_postgres::run_migrations(&mut conn).map_err(|e| anyhow!(e))?;
            tracing::info!(migrations.applied = applied.len(), "migrations applied");
            print_json(&json!({ "applied": applied }))
        }
        Command::Account(AccountCommand::Create { name, email }) => {
            let created = with_uow(&database_url, |uow| accounts::create_account(uow, &SystemClock, &name, &email))?;
            print_json(&json!({
                "accountId": created.account_id.get(),
                "userId": created.user_id.get(),
                "apiKey": created.api_key.secret(),
            }))
        }
        Command::Key(KeyCommand::Create { user }) => {
            let (key, found) = with_uow(&database_url, |uow| {
                let key = accounts::create_key(uow, &SystemClock, user)?;
                let found = accounts::authenticate(uow, key.secret())?;
                Ok((key, found))
            })?;
            let caller = found.ok_or_else(|| anyhow!("the new key cannot be read back"))?;
            print_json(&json!({ "accountId": caller.account_id.get(), "userId": user.get(), "apiKey": key.secret() }))
        }
        Command::Worker(WorkerCommandArgs { delivery: args, metrics_bind }) => {
            let channels = crate::delivery::channels(&args.delivery())?;
            let pool = canvass_postgres::connect_pool_with_timeout(
                &database_url,
                crate::delivery::POOL_SIZE,
                cli.statement_timeout,
            )
            .context("cannot connect to the database")?;
            let public_url = args.public_url.clone().unwrap_or_else(|| "http://127.0.0.1:8080".into());
            let store = canvass_postgres::PgStore::new(pool);
            let public_url = public_url.trim_end_matches('/').to_owned();
            let webhook_pool = canvass_postgres::connect_pool_with_timeout(&database_url, 1, cli.statement_timeout)
                .context("cannot connect to the database")?;
            let webhook_store = canvass_postgres::PgStore::new(webhook_pool);
            let settings = args.delivery();
            actix_web::rt::System::new().block_on(async {
                // Alone, the worker serves /metrics on METRICS_BIND when it is set, with a connection of its own;
                // the address is bound before anything is sent, so a taken one stops the start.
                let metrics = metrics_bind.as_ref().map(|_| Arc::new(canvass_metrics::Metrics::new()));
                let served = match (&metrics_bind, &metrics) {
                    (Some(bind), Some(metrics)) => {
                        let pool = canvass_postgres::connect_pool_with_timeout(&database_url, 1, cli.statement_timeout)
                            .context("cannot connect to the database")?;
                        let store = canvass_postgres::PgStore::new(pool);
                        let token = args.metrics_token.clone();
                        let server = crate::worker_metrics::serve(bind, Arc::clone(metrics), store, token)
                            .with_context(|| format!("cannot serve the worker's metrics on METRICS_BIND {bind}"))?;
                        Some(server)
                    }
                    _ => None,
                };
                let handle = served.as_ref().map(actix_web::dev::Server::handle);
                if let Some(server) = served {
                    actix_web::rt::spawn(server);
                }
                let webhooks = crate::webhooks::spawn(webhook_store, args.webhook_allow_private, settings.poll)?;
                let worker = crate::delivery::spawn(crate::delivery::WorkerParts {
                    store,
                    channels,
                    public_url,
                    settings,
                    metrics,
                })?;
                tracing::info!("delivery worker started");
                let waited = stop_signal().await.context("cannot wait for SIGTERM or SIGINT");
                if let Some(handle) = handle {
                    handle.stop(true).await;
                }
                tracing::info!("stopping: the round in flight is finished first");
                worker.stop();
                webhooks.stop();
                waited
            })
        }
        Command::Dsn => dsn(&database_url),
        Command::Sender(command) => sender(&database_url, command),
        Command::Retention(RetentionCommand::Run { now, dry_run }) => {
            let now = match now {
                None => time::OffsetDateTime::now_utc(),
                Some(text) => time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339)
                    .with_context(|| format!("--now {text} is not an RFC 3339 date-time"))?,
            };
            let summary = with_uow(&database_url, |uow| crate::retention::run_once(uow, now, dry_run, true))?;
            print_json(&crate::retention::summary_json(&summary, now))?;
            match summary.failed_accounts.len() {
                0 => Ok(()),
                failed => anyhow::bail!("retention failed for {failed} account(s); the log names them"),
            }
        }
        Command::Key(KeyCommand::Revoke { key_prefix }) => {
            let revoked = with_uow(&database_url, |uow| accounts::revoke_key(uow, &SystemClock, &key_prefix))?;
            print_json(&json!({ "revoked": revoked }))
        }
    }
}

fn serve(database_url: String, statement_timeout: std::time::Duration, args: ServeArgs) -> anyhow::Result<()> {
    if args.demo {
        let demo = with_uow(&database_url, |uow| demo::ensure_demo(uow, &SystemClock))?;
        let host = args.bind.rsplit_once(':').map_or("127.0.0.1", |(host, _)| host);
        let host = if host == "0.0.0.0" { "127.0.0.1" } else { host };
        let port = args.bind.rsplit_once(':').map_or("8080", |(_, port)| port);
        let base = format!("http://{host}:{port}");
        print_json(&json!({
            "accountId": demo.account_id.get(),
            "apiKey": demo.api_key.secret(),
            "baseUrl": format!("{base}/api/v1"),
            "docsUrl": format!("{base}/docs/"),
        }))?;
        eprintln!(
            "\nCanvass demo is starting.\n  API key:  {}\n  Base URL: {base}/api/v1\n  Docs:     {base}/docs/\n  Try:      curl -H 'X-API-KEY: {}' {base}/api/v1/surveys\n",
            demo.api_key.secret(),
            demo.api_key.secret()
        );
    }
    let settings = Settings {
        database_url,
        bind: args.bind,
        pool_size: args.pool_size.unwrap_or_else(crate::settings::default_pool_size),
        workers: args.workers,
        public_url: args.delivery.public_url.clone(),
        retention_interval: args.retention_interval,
        sms_inbound_secret: args.sms_inbound_secret,
        inbound_secret: args.inbound_secret,
        webhook_allow_private: args.delivery.webhook_allow_private,
        delivery: Some(args.delivery.delivery()),
        statement_timeout,
        protection: canvass_http::Protection {
            rate_limit_per_key: args.rate_limit_per_key,
            body_read_timeout: args.body_read_timeout,
            trust_forwarded_for: args.trust_forwarded_for,
            ..canvass_http::Protection::default()
        },
        metrics_token: args.delivery.metrics_token,
    };
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(&settings)?;
        tracing::info!(http.port = app.port(), "serving");
        app.run_until_stopped().await.context("server failed")
    })
}

/// Waits for SIGTERM or SIGINT (Ctrl-C).
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        let (mut terminate, mut interrupt) = (signal(SignalKind::terminate())?, signal(SignalKind::interrupt())?);
        std::future::poll_fn(|cx| match (terminate.poll_recv(cx), interrupt.poll_recv(cx)) {
            (std::task::Poll::Pending, std::task::Poll::Pending) => std::task::Poll::Pending,
            _ => std::task::Poll::Ready(()),
        })
        .await;
        Ok(())
    }
    #[cfg(not(unix))]
    {
        actix_web::rt::signal::ctrl_c().await
    }
}

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

/// `canvass dsn`: one delivery status notification from stdin, recorded as `POST /inbound/dsn` does.
fn dsn(database_url: &str) -> anyhow::Result<()> {
    let exit = |status: u8, reason: String| anyhow::Error::new(Exit { status, reason });
    let mut raw = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(std::io::stdin(), DSN_LIMIT + 1), &mut raw)
        .map_err(|e| exit(EX_TEMPFAIL, format!("cannot read the notification from stdin: {e}")))?;
    if raw.len() as u64 > DSN_LIMIT {
        return Err(exit(EX_DATAERR, "the notification on stdin is over 1 MiB".into()));
    }
    let report = canvass_mail::dsn::parse_report(&raw).map_err(|e| exit(EX_DATAERR, e.to_string()))?;
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

fn connect(database_url: &str) -> anyhow::Result<PgConnection> {
    PgConnection::establish(database_url).context("cannot connect to the database")
}

/// Runs `work` on a unit of work of a store over one connection, opened for this command.
fn with_uow<T>(
    database_url: &str,
    work: impl FnOnce(&mut dyn UnitOfWork) -> Result<T, DomainError>,
) -> anyhow::Result<T> {
    let store = PgStore::connect_one(database_url).context("cannot connect to the database")?;
    store.with_uow(work).map_err(|error| anyhow!("{error}"))
}

fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    println!("{value}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use secrecy::ExposeSecret;

    #[test]
    fn secrets_never_show_in_debug_output() {
        let cli = Cli::try_parse_from([
            "canvass",
            "serve",
            "--smtp-url",
            "smtps://canvass:relay-password@mail.example:465",
            "--sms-inbound-secret",
            "sms-secret-value",
            "--inbound-secret",
            "dsn-secret-value",
            "--sms-url",
            "https://sms.example/send?token=sms-url-token",
            "--metrics-token",
            "metrics-token-value",
        ])
        .unwrap();
        let shown = format!("{cli:?}");
        for secret in ["relay-password", "sms-secret-value", "dsn-secret-value", "sms-url-token", "metrics-token-value"]
        {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        let Command::Serve(args) = cli.command else { panic!("serve") };
        assert_eq!(
            args.delivery.metrics_token.as_ref().map(|token| token.expose_secret()),
            Some("metrics-token-value")
        );
        let settings = args.delivery.delivery();
        assert!(!format!("{settings:?}").contains("relay-password"));
        assert!(!format!("{settings:?}").contains("sms-url-token"));

        assert_eq!(settings.smtp_url.unwrap().expose_secret(), "smtps://canvass:relay-password@mail.example:465");
    }
}
