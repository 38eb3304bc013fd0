//! The command line as clap reads it: the commands, their options and the parsers of their values.

use clap::{Args, Parser, Subcommand};
use secrecy::SecretString;

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
    /// Redis URL of the limits every process of the service shares (`serve` and `worker`): redis://host:6379/0,
    /// rediss://… for TLS. Without it each process keeps its own.
    #[arg(long, env = "LIMITS_URL", global = true, hide_env_values = true, value_parser = secret)]
    pub limits_url: Option<SecretString>,
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
    let interval = crate::jobs::retention::parse_interval(text)?;
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
    /// The sender (From) of alert emails; without it `alerts@` the host of PUBLIC_URL (`alerts@localhost` when
    /// that is an IP address).
    #[arg(long, env = "ALERT_SENDER", value_parser = email_address)]
    pub alert_sender: Option<String>,
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
    /// The key of the open links' cookies: at least 64 random bytes in base64 (openssl rand -base64 64), the same
    /// on every server of the service; without it each process draws its own, and a browser that meets another
    /// process (or this one restarted) is not recognised.
    #[arg(long, env = "COOKIE_KEY", hide_env_values = true)]
    pub cookie_key: Option<canvass_http::CookieKey>,
    /// Starts of one open link that one client address may make within a minute; one more answers 429.
    #[arg(long, env = "OPEN_LINK_STARTS_PER_MINUTE", default_value = "60", value_parser = clap::value_parser!(u32).range(1..))]
    pub open_link_starts_per_minute: u32,
    /// How often the retention job runs in the server, e.g. `1h`, `30m`, `90s` (`0` turns it off).
    #[arg(long, env = "RETENTION_INTERVAL", default_value = "1h", value_parser = crate::jobs::retention::parse_interval)]
    pub retention_interval: std::time::Duration,
    /// Days the audit log keeps an event; the retention job removes older ones.
    #[arg(long, env = "AUDIT_RETENTION_DAYS", default_value = "400", value_parser = clap::value_parser!(u32).range(1..=36_600))]
    pub audit_retention_days: u32,
    /// Requests per second one API key may make; bursts may reach ten times this (then 429).
    #[arg(long, env = "RATE_LIMIT_PER_KEY", default_value = "100")]
    pub rate_limit_per_key: std::num::NonZeroU32,
    /// The longest a request body may take to arrive whole, e.g. `10s` (then 408).
    #[arg(long, env = "BODY_READ_TIMEOUT", default_value = "10s", value_parser = positive_interval)]
    pub body_read_timeout: std::time::Duration,
    /// The reverse proxies (comma-separated addresses and CIDR ranges) whose X-Forwarded-For/Forwarded name a
    /// request's client, for the failed-guess limits of the respondent pages; the nearest address they recorded
    /// that is not itself one of them is the client's. Empty: the socket's peer is the client.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: canvass_http::TrustedProxies,
    /// Trust loopback peers as proxies (127.0.0.0/8 and ::1), as if they were in TRUSTED_PROXIES.
    #[arg(long, env = "TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// How long an idle client connection stays open for its next request, e.g. `75s`, `2m` (a bare number is
    /// seconds; more than 0).
    #[arg(long, env = "KEEP_ALIVE", default_value = "75s", value_parser = positive_interval)]
    pub keep_alive: std::time::Duration,
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

/// An email address, as a sendout's sender must be one.
fn email_address(value: &str) -> Result<String, String> {
    canvass_domain::distribution::check_contact(canvass_domain::distribution::DispatchType::Email, value)
        .map(|()| value.trim().to_owned())
        .map_err(str::to_owned)
}

#[cfg(test)]
mod tests {
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
        assert_eq!(args.keep_alive, crate::settings::DEFAULT_KEEP_ALIVE, "75 s unless told otherwise");
        let settings = args.delivery.delivery_settings();
        assert!(!format!("{settings:?}").contains("relay-password"));
        assert!(!format!("{settings:?}").contains("sms-url-token"));

        assert_eq!(settings.smtp_url.unwrap().expose_secret(), "smtps://canvass:relay-password@mail.example:465");
    }

    #[test]
    fn keep_alive_takes_seconds_or_an_interval_and_refuses_zero() {
        let keep_alive = |value: &str| {
            let parsed = Cli::try_parse_from(["canvass", "serve", "--keep-alive", value]);
            parsed.map(|cli| {
                let Command::Serve(args) = cli.command else { panic!("serve") };
                args.keep_alive
            })
        };
        assert_eq!(keep_alive("90").unwrap(), std::time::Duration::from_secs(90));
        assert_eq!(keep_alive("2m").unwrap(), std::time::Duration::from_secs(120));
        assert!(keep_alive("0").is_err());
        assert!(keep_alive("soon").is_err());
    }

    #[test]
    fn trusted_proxies_take_addresses_and_ranges_and_the_old_switch_trusts_loopback() {
        let trusted = |flags: &[&str]| {
            let words = ["canvass", "serve"].iter().chain(flags).copied();
            Cli::try_parse_from(words).map(|cli| {
                let Command::Serve(args) = cli.command else { panic!("serve") };
                args.into_settings(String::new(), std::time::Duration::ZERO).protection.trusted_proxies
            })
        };
        let loopback: std::net::IpAddr = [127, 0, 0, 1].into();
        let office: std::net::IpAddr = [10, 1, 2, 3].into();
        assert!(trusted(&[]).unwrap().is_empty(), "none unless told");
        let ranges = trusted(&["--trusted-proxies", "10.0.0.0/8, 2001:db8::1"]).unwrap();
        assert!(ranges.contains(office) && !ranges.contains(loopback));
        let both = trusted(&["--trusted-proxies", "10.0.0.0/8", "--trust-forwarded-for"]).unwrap();
        assert!(both.contains(office) && both.contains(loopback) && both.contains([0u16, 0, 0, 0, 0, 0, 0, 1].into()));
        let refused = trusted(&["--trusted-proxies", "10.0.0.0/8,proxy.internal"]).unwrap_err().to_string();
        assert!(refused.contains("proxy.internal"), "{refused}");
    }
}
