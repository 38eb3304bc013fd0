//! The HTTP adapter's own logic, in process and without a database: one test binary (`cargo test -p canvass-http
//! --test handlers`) that runs the actix application through `actix_web::test::init_service` over the domain's
//! in-memory store (`canvass_domain::testing::MemoryStore`), one module per concern. What the service answers on a
//! real database is the black-box suite's (`tests/api`, `tests/security`); see "Testing" in docs/ARCHITECTURE.md.
//!
//! The modules sit in `tests/handlers/` (a crate root's own modules would otherwise be looked for beside it, in
//! `tests/`, where cargo takes every file for a test binary of its own).

#[path = "handlers/support.rs"]
mod support;

#[path = "handlers/auth.rs"]
mod auth;
#[path = "handlers/distribution.rs"]
mod distribution;
#[path = "handlers/exports.rs"]
mod exports;
#[path = "handlers/headers.rs"]
mod headers;
#[path = "handlers/idempotency.rs"]
mod idempotency;
#[path = "handlers/insight.rs"]
mod insight;
#[path = "handlers/metrics.rs"]
mod metrics;
#[path = "handlers/openapi_document.rs"]
mod openapi_document;
#[path = "handlers/problems.rs"]
mod problems;
#[path = "handlers/reader_errors.rs"]
mod reader_errors;
#[path = "handlers/respondent_pages.rs"]
mod respondent_pages;
#[path = "handlers/versions.rs"]
mod versions;
