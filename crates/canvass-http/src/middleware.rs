//! The layers a request passes through, outermost first: the request layer (`request`), on every request, which
//! resolves the route once (`route`, never from the raw path text) and with it opens the request's span with
//! redacted paths (`logging`), writes the security headers every answer carries (`headers`) and counts the request
//! in the metrics (`metric_labels`); the API guard, wrapped on the `/api` scope (`crate::routes::api_scope`), which
//! authenticates the request, checks its key's permission for the operation (`permissions`, read from the OpenAPI
//! document), counts it against its key's rate (`api_guard`, `auth`, `key_limits`) and handles
//! `Idempotency-Key` (`idempotency`); and the respondent pages' guard against guessed links
//! (`crate::pages::guard`), wrapped on the pages' resources.

pub mod api_guard;
pub mod auth;
pub mod headers;
pub mod idempotency;
pub mod key_limits;
pub mod logging;
mod metric_labels;
pub mod permissions;
pub mod request;
pub mod route;
