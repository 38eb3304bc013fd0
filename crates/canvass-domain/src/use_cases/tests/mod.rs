//! Unit tests of the use cases against small in-memory fakes that implement only the ports each flow uses; the
//! SQL behind the real adapter is proven by the black-box suite.

mod activation;
mod add_batch;
mod delivery_round;
mod fakes;
mod idempotency;
mod list_chunks;
mod monitoring;
mod page_flow;
mod retention_engine;
mod webhook_events;
