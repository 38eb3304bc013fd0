//! The PostgreSQL adapter against a real database, in one test binary: each test makes its own database
//! (crates/dev/canvass-testdb) and drives the adapter through the domain's ports, or reads the schema with SQL. Tests
//! about what SQL the adapter sends, what it stores and what the schema allows live here, nowhere else.
#![expect(clippy::unwrap_used)]

mod alert_claims;
mod answer_exports;
mod backlog_tallies;
mod citus_keys;
mod delivery_records;
mod enum_columns;
mod erasure_copies;
mod erasure_patterns;
mod fair_claims;
mod idempotency;
mod insight;
mod joined_transactions;
mod keyed_requests;
mod one_statement;
mod outbox_keys;
mod outbox_wake;
mod pool_recovery;
mod public_handles;
mod queued_marks;
mod repositories;
mod respondent_language;
mod support;
mod translations;
