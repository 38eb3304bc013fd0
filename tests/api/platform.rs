//! What every endpoint shares: health, the OpenAPI document, bad input, length limits, idempotency keys (and their
//! requests carried out once), metrics and unpaged lists streamed in chunks.

pub(crate) mod long_lists;

mod bad_input;
mod health_and_docs;
mod idempotency;
mod idempotency_once;
mod limits;
mod metrics;
mod openapi_document;
