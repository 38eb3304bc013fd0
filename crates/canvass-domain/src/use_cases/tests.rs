//! Unit tests of the use cases against the one in-memory store (`crate::testing::Memory`), seeded for each flow; the
//! SQL behind the real adapter is proven by the black-box suite.

mod accounts;
mod activation;
mod add_batch;
mod answers;
mod bgdata;
mod blocklist;
mod bounces;
mod categories;
mod contact_import;
mod contact_lists;
mod contacts;
mod delivery_round;
mod exports;
mod frequency;
mod idempotency;
mod idempotency_once;
mod insight;
mod list_chunks;
mod monitoring;
mod open_links;
mod page_flow;
mod questionnaire;
mod quotas;
mod respondents;
mod retention_engine;
mod retention_policies;
mod retention_rules;
mod seeds;
mod senders;
mod sendouts;
mod surveys;
mod translations;
mod twoway;
mod webhook_events;
mod webhooks;
