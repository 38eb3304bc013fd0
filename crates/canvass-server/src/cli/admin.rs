//! The administrative commands, `migrate`, `account`, `key` and `sender`, and the helpers every one-shot command
//! shares: one connection, one unit of work, one line of JSON on stdout.

use anyhow::{anyhow, Context};
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::{accounts, senders};
use canvass_domain::{AccountId, DomainError};
use canvass_postgres::PgStore;
use diesel::{Connection, PgConnection};
use serde_json::json;

use super::args::{AccountCommand, KeyCommand, SenderCommand};

/// `canvass migrate`: applies the pending migrations; prints {"applied"}.
pub(super) fn migrate(database_url: &str) -> anyhow::Result<()> {
    let mut conn = connect(database_url)?;
    let applied = canvass_postgres::run_migrations(&mut conn).map_err(|e| anyhow!(e))?;
    tracing::info!(migrations.applied = applied.len(), "migrations applied");
    print_json(&json!({ "applied": applied }))
}

/// Refuses to go on while the database lacks migrations this binary embeds: `serve` and `worker` would otherwise
/// start, fail every delivery round and answer every key 401 (no `users` table), and only `/health/ready` would
/// say why.
pub(super) fn require_migrated(database_url: &str) -> anyhow::Result<()> {
    let mut conn = connect(database_url)?;
    let pending = canvass_postgres::pending_migrations(&mut conn).map_err(|e| anyhow!(e))?;
    if pending > 0 {
        anyhow::bail!("the database lacks {pending} of this version's migrations: run `canvass migrate` first");
    }
    Ok(())
}

/// Runs an `account` subcommand.
pub(super) fn account(database_url: &str, command: AccountCommand) -> anyhow::Result<()> {
    match command {
        AccountCommand::Create { name, email } => {
            let created = with_uow(database_url, |uow| accounts::create_account(uow, &SystemClock, &name, &email))?;
            print_json(&json!({
                "accountId": created.account_id.get(),
                "userId": created.user_id.get(),
                "apiKey": created.api_key.secret(),
            }))
        }
    }
}

/// Runs a `key` subcommand.
pub(super) fn key(database_url: &str, command: KeyCommand) -> anyhow::Result<()> {
    match command {
        KeyCommand::Create { user } => {
            let (key, found) = with_uow(database_url, |uow| {
                let key = accounts::create_key(uow, &SystemClock, user)?;
                let found = accounts::authenticate(uow, &SystemClock, key.secret())?;
                Ok((key, found))
            })?;
            let caller = found.ok_or_else(|| anyhow!("the new key cannot be read back"))?;
            print_json(&json!({ "accountId": caller.account_id.get(), "userId": user.get(), "apiKey": key.secret() }))
        }
        KeyCommand::Revoke { key_prefix } => {
            let revoked = with_uow(database_url, |uow| accounts::revoke_key(uow, &SystemClock, &key_prefix))?;
            print_json(&json!({ "revoked": revoked }))
        }
    }
}

/// Runs a `sender` subcommand.
pub(super) fn sender(database_url: &str, command: SenderCommand) -> anyhow::Result<()> {
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

fn connect(database_url: &str) -> anyhow::Result<PgConnection> {
    PgConnection::establish(database_url).context("cannot connect to the database")
}

/// Runs `work` on a unit of work of a store over one connection, opened for this command.
pub(super) fn with_uow<T>(
    database_url: &str,
    work: impl FnOnce(&mut dyn UnitOfWork) -> Result<T, DomainError>,
) -> anyhow::Result<T> {
    let store = PgStore::connect_one(database_url).context("cannot connect to the database")?;
    // The error with its sources: `canvass: store failure: relation "users" does not exist`.
    store.with_uow(work).map_err(anyhow::Error::new)
}

/// Prints a command's output: one line of JSON on stdout.
pub(super) fn print_json(value: &serde_json::Value) -> anyhow::Result<()> {
    println!("{value}");
    Ok(())
}
