//! The server's jobs: the delivery and webhook workers (in `canvass serve` and alone as `canvass worker`, with
//! the worker's own `/metrics`), and the retention engine's timer and single run.

pub mod delivery;
mod pause;
pub mod retention;
pub mod webhooks;
pub(crate) mod worker_metrics;
pub(crate) mod workers;
