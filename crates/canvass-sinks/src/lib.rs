//! Sinks for tests and benchmarks: an SMTP server and an SMS provider endpoint on local ports that keep what
//! they receive and refuse chosen recipients, permanently or for now.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod dsn;
mod http;
mod smtp;
mod tls;

pub use dsn::postfix_dsn;
pub use http::SmsSink;
pub use smtp::{Received, SmtpSink, SmtpSinkBuilder};
pub use tls::TestCa;
