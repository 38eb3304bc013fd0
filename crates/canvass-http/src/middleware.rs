//! The layers every request passes through, outermost first: the request layer (`request`), which resolves the
//! route once and with it opens the request's span with redacted paths (`logging`), decides what the request is
//! (`area`: API, page or other, never from the raw path text), writes the security headers
//! (`headers`) and counts the request in the metrics (`metric_labels`); the API guard on `/api` paths, which
//! authenticates the request and counts it against its key's rate (`api_guard`, `auth`, `key_limits`) and handles
//! `Idempotency-Key` (`idempotency`); and the respondent pages' guard against guessed links
//! (`crate::pages::guard`) on page paths. `on_paths` runs a layer only on the paths it concerns.

pub mod api_guard;
pub mod area;
pub mod auth;
pub mod headers;
pub mod idempotency;
pub mod key_limits;
pub mod logging;
mod metric_labels;
pub mod on_paths;
pub mod request;
