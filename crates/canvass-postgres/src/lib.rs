//! The PostgreSQL adapter: implements the domain's ports with diesel 2 on an r2d2 pool, and carries the embedded
//! migrations of the top-level `migrations/` folder.
//!
//! A request takes one pooled connection, wraps it in a [`PgUnitOfWork`] and runs a whole use case on it.

mod accounts;
mod answer_writes;
mod answers;
mod blocklist;
mod capture;
mod categories;
mod claim;
mod counts;
mod erasure;
mod error;
mod governance;
mod holds;
mod idempotency;
mod invitations;
mod keys;
mod migrate;
mod named;
mod outbox;
mod outcomes;
mod pace;
mod pool;
pub mod prepared;
mod release;
mod respondent_page;
mod respondents;
mod retention;
mod schema;
mod senders;
mod sendout_delivery;
mod sendouts;
mod store;
mod survey_tree;
mod surveys;
mod unit_of_work;
mod webhooks;

pub use capture::CAPTURE_VARIABLE;
pub use error::map_diesel_error;
pub use migrate::{pending_migrations, run_migrations, MIGRATIONS};
pub use pool::{connect_pool_with_timeout, PgManager, PgPool, PoolConnection, PoolError};
pub use store::PgStore;
pub use unit_of_work::PgUnitOfWork;
