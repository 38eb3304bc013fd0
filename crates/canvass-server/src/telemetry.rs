//! Logging: one `tracing` subscriber writing to stderr, filtered by `RUST_LOG` (default `info`); in tests only when
//! `TEST_LOG` is set.
//!
//! ureq (the SMS transport) logs request URLs whole at trace level, and the SMS provider's URL may carry its token:
//! whatever `RUST_LOG` asks for, ureq logs at most at debug level, where it prints only scheme and host.

use std::io::IsTerminal;

use tracing_subscriber::field::MakeExt;
use tracing_subscriber::filter::{Directive, LevelFilter};
use tracing_subscriber::fmt::format::{self, FormatFields};
use tracing_subscriber::EnvFilter;

/// Installs the subscriber; a second call does nothing.
pub fn init(default_filter: &str) {
    let filter = filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter)));
    // Colours only on a terminal: a log file or collector gets plain text. Fields are never styled
    // (`plain_fields`).
    let ansi = std::io::stderr().is_terminal();
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .fmt_fields(plain_fields())
        .try_init();
}

/// Fields as `name=value`, space-separated, an event's message first and bare: the default format without its
/// styling. Every request's span has its fields formatted when they are recorded, printed or not, and the
/// default's italic field names went through `nu_ansi_term` even with colours off (3,700 instructions a request,
/// docs/benchmarks.md).
fn plain_fields() -> impl for<'writer> FormatFields<'writer> + Send + Sync + 'static {
    format::debug_fn(|writer, field, value| match field.name() {
        "message" => write!(writer, "{value:?}"),
        name => write!(writer, "{name}={value:?}"),
    })
    .delimited(" ")
}

/// For test processes: installs the subscriber of [`init`] only when `TEST_LOG` is set, so tests are silent unless
/// asked (`TEST_LOG=1 cargo test ...` shows the logs of the servers they start, filtered by `RUST_LOG`).
pub fn init_for_tests() {
    if std::env::var_os("TEST_LOG").is_some() {
        init("info");
    }
}

/// `filter`, with ureq held to debug level when it would log at trace level.
fn filter(filter: EnvFilter) -> EnvFilter {
    if filter.max_level_hint().is_none_or(|level| level >= LevelFilter::TRACE) {
        if let Ok(cap) = "ureq=debug".parse::<Directive>() {
            return filter.add_directive(cap);
        }
    }
    filter
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use tracing::Level;
    use tracing_subscriber::layer::SubscriberExt;

    use super::*;

    fn enabled(spec: &str, target_is_ureq: bool, level: Level) -> bool {
        let subscriber = tracing_subscriber::registry().with(filter(EnvFilter::new(spec)));
        tracing::subscriber::with_default(subscriber, || match (target_is_ureq, level) {
            (true, Level::TRACE) => tracing::enabled!(target: "ureq::run", Level::TRACE),
            (true, _) => tracing::enabled!(target: "ureq::run", Level::DEBUG),
            (false, _) => tracing::enabled!(target: "canvass_server", Level::TRACE),
        })
    }

    /// A log destination the test reads back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn fields_are_written_plain_with_the_message_first() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .without_time()
            .with_target(false)
            .fmt_fields(plain_fields())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let route = "/api/v1/surveys/{surveyId}";
            let span = tracing::info_span!("request", http.route = %route, http.status_code = tracing::field::Empty);
            span.record("http.status_code", 200);
            span.in_scope(|| tracing::warn!(attempt = 2, relay = %"smtp.example", "slow {}", "relay"));
        });
        let line = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        let fields = "request{http.route=/api/v1/surveys/{surveyId} http.status_code=200}: slow relay attempt=2 \
                      relay=smtp.example";
        assert!(line.contains(fields), "{line}");
    }

    #[test]
    fn ureq_never_logs_urls_whole() {
        for spec in ["trace", "info,ureq=trace", "ureq=trace"] {
            assert!(!enabled(spec, true, Level::TRACE), "{spec}");
        }
        assert!(enabled("trace", true, Level::DEBUG));
        assert!(enabled("trace", false, Level::TRACE));
        assert!(!enabled("info", true, Level::DEBUG), "the cap does not turn ureq's debug logs on");
    }
}
