//! The embedded migrations of the top-level `migrations/` folder.

use diesel::migration::MigrationVersion;
use diesel::PgConnection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

/// Every migration, embedded at build time.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations");

/// Applies the pending migrations; returns the versions applied.
pub fn run_migrations(conn: &mut PgConnection) -> Result<Vec<String>, Box<dyn std::error::Error + Send + Sync>> {
    let applied: Vec<MigrationVersion<'_>> = conn.run_pending_migrations(MIGRATIONS)?;
    Ok(applied.iter().map(ToString::to_string).collect())
}

/// How many embedded migrations the database has not applied yet.
pub fn pending_migrations(conn: &mut PgConnection) -> Result<usize, Box<dyn std::error::Error + Send + Sync>> {
    Ok(conn.pending_migrations(MIGRATIONS)?.len())
}
