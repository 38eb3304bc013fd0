//! Sinks for tests and benchmarks: an SMTP server and an SMS provider endpoint on local ports that keep what
//! they receive and refuse chosen recipients, permanently or for now.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod http;
mod smtp;

pub use http::SmsSink;
pub use smtp::SmtpSink;
