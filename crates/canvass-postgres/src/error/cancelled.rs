//! Statements cancelled by `statement_timeout` (SQLSTATE 57014), recognised in the server's own words. diesel
//! reports them as `Unknown` without the SQLSTATE, and the server writes the message in its `lc_messages`, so each
//! pool learns the text once, from the server, by letting a statement of its own time out
//! ([`learn_cancellation`]); a message is a cancellation when it is one of the texts learned.

use std::sync::Mutex;

use diesel::result::{DatabaseErrorKind, Error};
use diesel::{Connection, PgConnection, RunQueryDsl};

/// The server's words for a statement timeout under `lc_messages = 'C'`: known before anything is learned (a
/// store over one connection has no timeout and learns nothing).
const IN_ENGLISH: &str = "canceling statement due to statement timeout";

/// The texts learned from servers, one per language met.
static LEARNED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether `message` is a server's message for a statement cancelled by `statement_timeout`.
pub(super) fn is_cancellation(message: &str) -> bool {
    message == IN_ENGLISH || LEARNED.lock().is_ok_and(|learned| learned.iter().any(|known| known == message))
}

/// Learns how the server of `conn` words a statement timeout: a statement that sleeps for a second under a
/// timeout of one millisecond, in a transaction of its own that is rolled back. Fails only when the connection
/// does.
pub(crate) fn learn_cancellation(conn: &mut PgConnection) -> Result<(), Error> {
    let slept = conn.transaction(|conn| {
        diesel::sql_query("SET LOCAL statement_timeout = 1").execute(conn)?;
        diesel::sql_query("SELECT pg_sleep(1)").execute(conn)
    });
    match slept {
        Err(Error::DatabaseError(DatabaseErrorKind::Unknown, info)) => {
            remember(info.message());
            Ok(())
        }
        Err(other) => Err(other),
        // The timeout did not fire (it always does): there is nothing to learn.
        Ok(_) => Ok(()),
    }
}

fn remember(message: &str) {
    if let Ok(mut learned) = LEARNED.lock() {
        if message != IN_ENGLISH && !learned.iter().any(|known| known == message) {
            learned.push(message.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_learned_text_is_a_cancellation_and_others_are_not() {
        let german = "Storniere Anfrage wegen Zeitüberschreitung der Anweisung (test)";
        assert!(is_cancellation(IN_ENGLISH));
        assert!(!is_cancellation(german));
        remember(german);
        assert!(is_cancellation(german));
        assert!(!is_cancellation("Syntaxfehler bei »SELEC«"));
    }
}
