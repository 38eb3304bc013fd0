//! Keeps every SQL statement of the application routable to one shard (issue 14, docs/scaling.md "Keeping every
//! statement on one shard"): the statements captured while the test suite ran are parsed with `sqlparser`, and
//! each reference to an account table must be pinned to one account in its scope.

pub mod allowlist;
pub mod distribute;
pub mod normal;
pub mod pinning;
pub mod tables;

pub use pinning::{check_sql, Finding};
