//! Unit tests of the use cases against small in-memory fakes that implement only the ports each flow uses; the
//! SQL behind the real adapter is proven by the black-box suite.

mod accounts;
mod activation;
mod add_batch;
mod answers;
mod bgdata;
mod blocklist;
mod bounces;
mod categories;
mod delivery_round;
mod exports;
mod fakes;
mod frequency;
mod idempotency;
mod idempotency_once;
mod insight;
mod list_chunks;
mod monitoring;
mod page_flow;
mod respondents;
mod retention_engine;
mod retention_policies;
mod retention_rules;
mod senders;
mod sendouts;
mod surveys;
mod twoway;
mod webhook_events;
mod webhooks;
