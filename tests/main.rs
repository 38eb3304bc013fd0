//! The black-box suite, one test binary (`cargo test --test blackbox`): each test starts the real server in-process
//! on its own database (crates/dev/canvass-testdb). Where each kind of test lives, and what it may touch, is the
//! TESTING section of docs/ARCHITECTURE.md:
//!
//! - [`api`]: the HTTP contract, one folder per area of the product. HTTP only: no domain, no adapter, no SQL.
//! - [`security`]: authentication, tenancy, protection, browser defences, rate limits. HTTP only as well.
//! - [`system`]: the whole system: the delivery and webhook workers against the sinks, the retention engine, the
//!   browser, outages, states planted with SQL, and the scripts. These may drive the workers and poke the database.
//! - [`helpers`]: starting the server, the operator's actions (accounts, keys, sender numbers) and a JSON client.
#![expect(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

mod api;
mod security;
mod system;
