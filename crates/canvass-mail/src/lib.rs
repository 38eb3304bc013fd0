//! The mail adapter: implements the domain's [`Mailer`](canvass_domain::delivery::Mailer) port over SMTP to a relay
//! (`SMTP_URL`: plain, STARTTLS or TLS, with AUTH; mail-send's sessions, messages built by mail-builder), or into
//! `.eml` files for development. The delivery status notifications that relays send back are read by `canvass-dsn`.

mod file;
mod message;
mod relay;
mod smtp;
mod staged;
mod tls;

pub use file::FileMailer;
pub use relay::{Relay, Security};
pub use smtp::SmtpMailer;
