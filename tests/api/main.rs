//! Black-box tests: each starts the real server in-process on its own database and speaks HTTP to it.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod helpers;

mod accounts;
mod answer_writes;
mod answers;
mod auth;
mod bad_input;
mod bgdata;
mod blocklist;
mod browser;
mod browser_defences;
mod copy;
mod delivery;
mod dev_cluster;
mod email_format;
mod erasure;
mod fair_claims;
mod frequency;
mod health_and_docs;
mod holds;
mod idempotency;
mod late_bounces;
mod limits;
mod long_lists;
mod metrics;
mod openapi_document;
mod protection;
mod public_handles;
mod questions;
mod rate_limits;
mod refusals;
mod relays;
mod respondent_page;
mod respondents;
mod retention_engine;
mod retention_policies;
mod retention_rules;
mod sendout_counts;
mod sendouts;
mod surveys;
mod tenancy;
mod tenancy_distribution;
mod twoway_senders;
mod webhooks;
