//! The PostgreSQL adapter: implements the domain's ports with diesel 2 on an r2d2 pool, and carries the embedded
//! migrations of the top-level `migrations/` folder.
//!
//! A request takes one pooled connection, wraps it in a [`PgUnitOfWork`] and runs a whole use case on it.
//!
//! The SQL of each port lives in the module of the domain area whose `ports.rs` declares it: `account`,
//! `category`, `survey` (with the whole-tree read), `answer` (answer sets, their one-statement writes, the
//! respondent page), `distribution` (sendouts, respondents, the blocklist, releasing, sender numbers, the counts a
//! sendout row keeps), `delivery` (the outbox, its claim, a round's outcomes, holds, the shared pace),
//! `governance` (frequency, rules, policies, the retention engine, erasure), `idempotency`, `insight` (a
//! sendout's statistics, a survey's results), `webhook`. The rest is the plumbing they share: `pool`, `store`,
//! `unit_of_work`, `error`, `schema`, `named`, `keys`, `prepared`, `capture`, `migrate`.

mod account;
mod alert;
mod answer;
mod audit;
mod capture;
mod category;
mod delivery;
mod directory;
mod distribution;
mod error;
mod governance;
mod idempotency;
mod insight;
mod keys;
mod migrate;
mod named;
mod pool;
pub mod prepared;
mod schema;
mod store;
mod survey;
mod unit_of_work;
mod webhook;

pub use capture::CAPTURE_VARIABLE;
pub use delivery::wake::OutboxListener;
pub use error::map_diesel_error;
pub use migrate::{pending_migrations, run_migrations, MIGRATIONS};
pub use pool::{connect_pool_with_timeout, PgManager, PgPool, PoolConnection, PoolError};
pub use store::PgStore;
pub use survey::TreeCache;
pub use unit_of_work::PgUnitOfWork;
