//! What every endpoint shares: health, the OpenAPI document, bad input, length limits, idempotency keys (and their
//! requests carried out once), metrics, idle connections kept open, and unpaged lists streamed in chunks.

pub(crate) mod long_lists;

mod bad_input;
mod health_and_docs;
mod idempotency;
mod idempotency_once;
mod keep_alive;
mod limits;
mod metrics;
mod openapi_document;
