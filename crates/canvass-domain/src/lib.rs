//! The Canvass domain: the model of surveys, question trees, answer sets and accounts, the rules that keep them
//! valid, the use cases that change them, and the ports (repository traits, unit of work, clock) that adapters
//! implement.
//!
//! This crate has no database, web framework or async runtime in it: another Rust service can link it and run
//! every rule and use case against its own adapters. Start with [`use_cases`], which take a [`ports::UnitOfWork`]
//! and a [`ports::Clock`].

pub mod account;
pub mod alert;
pub mod answer;
pub mod audit;
pub mod category;
pub mod chunks;
pub mod clock;
pub mod delivery;
pub mod directory;
pub mod distribution;
pub mod error;
pub mod governance;
pub mod idempotency;
pub mod ids;
pub mod insight;
pub mod language;
pub mod limits;
pub mod paging;
pub mod ports;
pub mod redact;
pub mod survey;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod timestamp;
pub mod use_cases;
pub mod webhook;

pub use error::{Chain, ConflictKind, DomainError, FieldError, RepoError, Resource};
pub use ids::AccountId;
