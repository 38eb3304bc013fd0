//! The layers every request passes through, outermost first: request spans with redacted paths (`logging`), the
//! metrics (`observe`), security headers (`headers`), the API guard that authenticates `/api` requests and counts
//! them against their key's rate (`api_guard`, `auth`, `key_limits`), `Idempotency-Key` (`idempotency`), and the
//! respondent pages' guard against guessed links (`crate::pages::guard`).

pub mod api_guard;
pub mod auth;
pub mod headers;
pub mod idempotency;
pub mod key_limits;
pub mod logging;
mod metric_labels;
pub mod observe;
