//! Keeps every SQL statement of the application routable to one shard (issue 14, docs/scaling.md "Keeping every
//! statement on one shard"): the statements captured while the test suite ran are parsed with `sqlparser`, and
//! - each reference to an account table must be pinned to one account in its scope ([`pinning`]);
//! - an `INSERT … SELECT` into an account table must join the account tables it reads on `account_id`, which Citus
//!   needs to push it down to the shards ("complex joins are only supported when all distributed tables are
//!   co-located and joined on their distribution columns"; [`pinning`], its `colocation` module);
//! - no statement may return an anonymous record, `(a, b)` or `ROW(…)`, which a Citus coordinator cannot read back
//!   from a worker ("input of anonymous composite types is not implemented"; [`records`]).

pub mod allowlist;
pub mod distribute;
pub mod normal;
pub mod pinning;
pub mod records;
pub mod tables;

pub use pinning::{check_sql, Finding};
