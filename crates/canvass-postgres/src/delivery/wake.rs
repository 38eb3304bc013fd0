//! The wake-up of idle delivery workers: an activation that queues invitations sends `NOTIFY canvass_outbox` with
//! its commit, and every worker listens on a connection of its own, so the first round starts at once instead of
//! at the worker's next poll. What a worker hears is only a hint to look now: the poll still runs, so a lost
//! notification (the listener reconnecting, a worker started after the commit) costs at most one poll's wait.
//!
//! Listening costs no round trip: [`OutboxListener::heard`] reads what the connection's socket already holds
//! (libpq's `PQconsumeInput`, which does not block). `NOTIFY` runs on the node the application is connected to,
//! the coordinator under Citus, as `LISTEN` does, so workers hear it there too.

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, RunQueryDsl};

/// The channel: a constant, never built from input.
const LISTEN: &str = "LISTEN canvass_outbox";
const NOTIFY: &str = "NOTIFY canvass_outbox";

/// How long one connection attempt of a listener may take, when its URL does not say.
const CONNECT_TIMEOUT_SECONDS: u32 = 5;

/// How long a listener whose connection failed waits before it connects again.
const RECONNECT_AFTER: Duration = Duration::from_secs(5);

/// Sends the wake-up with the transaction that queued messages (at once outside one).
pub(crate) fn notify(conn: &mut PgConnection) -> diesel::QueryResult<()> {
    diesel::sql_query(NOTIFY).execute(conn).map(drop)
}

/// A delivery worker's ear for activations: a connection of its own that listens on `canvass_outbox`.
pub struct OutboxListener {
    /// The database URL (it may hold a password: this type has no `Debug`).
    url: String,
    conn: Option<PgConnection>,
    /// When a failed connection may be tried again.
    retry_at: Option<Instant>,
}

impl OutboxListener {
    /// A listener on `database_url`, connected on first use, giving up a connection attempt after
    /// [`CONNECT_TIMEOUT_SECONDS`] unless the URL sets its own `connect_timeout` (so a database host that does not
    /// answer never holds a stopping worker for long).
    pub fn new(database_url: &str) -> Self {
        Self { url: with_connect_timeout(database_url), conn: None, retry_at: None }
    }

    /// Whether an activation was heard since the last call; drains every notification waiting. A connection that
    /// fails is dropped, its error answered once (for the caller to log), and tried again after a few seconds;
    /// until then nothing is heard and the worker's poll alone finds the work.
    pub fn heard(&mut self) -> Result<bool, String> {
        let Some(conn) = self.connection()? else {
            return Ok(false);
        };
        let heard = conn.notifications_iter().try_fold(false, |_, notification| notification.map(|_| true));
        heard.map_err(|error| {
            self.failed();
            error.to_string()
        })
    }

    fn failed(&mut self) {
        self.conn = None;
        self.retry_at = Some(Instant::now() + RECONNECT_AFTER);
    }

    /// The listening connection, connected now when there is none and it may be tried; `None` while it waits.
    fn connection(&mut self) -> Result<Option<&mut PgConnection>, String> {
        if self.conn.is_none() && self.retry_at.is_none_or(|at| Instant::now() >= at) {
            let connected = PgConnection::establish(&self.url).and_then(|mut conn| {
                diesel::sql_query(LISTEN).execute(&mut conn).map_err(connection_error)?;
                Ok(conn)
            });
            match connected {
                Ok(conn) => (self.conn, self.retry_at) = (Some(conn), None),
                Err(error) => {
                    self.failed();
                    return Err(error.to_string());
                }
            }
        }
        Ok(self.conn.as_mut())
    }
}

/// `url` with libpq's `connect_timeout` added when it has none: a URI (`postgres://…`) gains a query parameter, a
/// key/value connection string a pair. The URL is never parsed further (it may hold a password).
fn with_connect_timeout(url: &str) -> String {
    if url.contains("connect_timeout") {
        return url.to_owned();
    }
    let pair = format!("connect_timeout={CONNECT_TIMEOUT_SECONDS}");
    if !url.contains("://") {
        return format!("{url} {pair}");
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}{pair}")
}

fn connection_error(error: diesel::result::Error) -> diesel::ConnectionError {
    diesel::ConnectionError::CouldntSetupConfiguration(error)
}

#[cfg(test)]
mod tests {
    use super::with_connect_timeout;

    #[test]
    fn a_connect_timeout_is_added_unless_the_url_has_one() {
        assert_eq!(with_connect_timeout("postgres://u:p@db/canvass"), "postgres://u:p@db/canvass?connect_timeout=5");
        assert_eq!(
            with_connect_timeout("postgres://db/canvass?sslmode=require"),
            "postgres://db/canvass?sslmode=require&connect_timeout=5"
        );
        assert_eq!(with_connect_timeout("host=db dbname=canvass"), "host=db dbname=canvass connect_timeout=5");
        assert_eq!(with_connect_timeout("postgres://db/c?connect_timeout=2"), "postgres://db/c?connect_timeout=2");
    }
}
