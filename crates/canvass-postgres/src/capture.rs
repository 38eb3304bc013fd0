//! Statement capture for the test suite: when `CANVASS_CAPTURE_STATEMENTS` names a file, every connection this
//! crate opens records each distinct statement text it sends (without bind values) in that file, one JSON string
//! per line. `canvass-statements` then checks that each statement touches one account's shard (docs/scaling.md,
//! "Keeping every statement on one shard"). Unset, nothing is installed and nothing is paid.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::{Connection, PgConnection};

/// The variable naming the file that collects the statements.
pub const CAPTURE_VARIABLE: &str = "CANVASS_CAPTURE_STATEMENTS";

/// Diesel's `Display` of a query ends with this, followed by the bind values, which are not captured.
const BINDS_MARKER: &str = " -- binds: ";

struct Capture {
    path: String,
    seen: Mutex<HashSet<String>>,
}

fn capture() -> Option<&'static Capture> {
    static CAPTURE: OnceLock<Option<Capture>> = OnceLock::new();
    CAPTURE
        .get_or_init(|| {
            let path = std::env::var(CAPTURE_VARIABLE).ok().filter(|path| !path.is_empty())?;
            Some(Capture { path, seen: Mutex::new(HashSet::new()) })
        })
        .as_ref()
}

/// Installs the capture on `conn` when [`CAPTURE_VARIABLE`] is set; does nothing otherwise.
pub(crate) fn instrument(conn: &mut PgConnection) {
    if let Some(capture) = capture() {
        conn.set_instrumentation(Recorder { capture });
    }
}

struct Recorder {
    capture: &'static Capture,
}

impl Instrumentation for Recorder {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            let shown = query.to_string();
            let sql = shown.find(BINDS_MARKER).map_or(shown.as_str(), |end| &shown[..end]);
            self.capture.record(sql);
        }
    }
}

impl Capture {
    /// Appends `sql` to the file the first time this process sees it. The line is one `write` on a file opened
    /// for appending, so lines of many processes (the black-box tests run `canvass` too) do not interleave.
    fn record(&self, sql: &str) {
        let Ok(mut seen) = self.seen.lock() else { return };
        if seen.contains(sql) {
            return;
        }
        let Ok(mut line) = serde_json::to_string(sql) else { return };
        line.push('\n');
        let written = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut file| file.write_all(line.as_bytes()));
        if written.is_ok() {
            seen.insert(sql.to_owned());
        }
    }
}
