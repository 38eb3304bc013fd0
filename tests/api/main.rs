//! Black-box tests: each starts the real server in-process on its own database and speaks HTTP to it.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod helpers;

mod accounts;
mod answers;
mod auth;
mod bad_input;
mod cli;
mod copy;
mod health_and_docs;
mod questions;
mod surveys;
mod tenancy;
