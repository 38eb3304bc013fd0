//! Sinks for tests and benchmarks: an SMTP server, an SMS provider endpoint and a webhook receiver on local ports
//! that keep what they receive and refuse chosen recipients or requests, permanently or for now.

#![expect(clippy::unwrap_used)]

mod dsn;
mod http;
mod smtp;
mod tls;
mod webhook;

pub use dsn::postfix_dsn;
pub use http::SmsSink;
pub use smtp::{Received, SmtpSink, SmtpSinkBuilder};
pub use tls::TestCa;
pub use webhook::{WebhookRequest, WebhookSink};
