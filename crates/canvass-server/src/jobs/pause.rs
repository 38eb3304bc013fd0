//! The delivery worker's pause between rounds that found nothing more to do: the poll's wait, cut short when the
//! worker's listener hears an activation (`canvass_postgres::OutboxListener`), so a sendout's first round starts
//! within a few milliseconds of its activation's commit, in this process or any other.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use canvass_postgres::OutboxListener;

/// How often a pausing worker reads what its listener heard (a read of its socket, no round trip).
const LISTEN_EVERY: Duration = Duration::from_millis(20);

/// What ended a pause.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// The poll's wait ran out, or an activation was heard: time for a round.
    Round,
    /// The worker was asked to stop (`wake`'s sender dropped).
    Stop,
}

/// Waits up to `poll`, ending early when `listener` hears an activation or `wake` says stop. A listener that
/// cannot listen is logged (once per failure) and the pause is the poll's.
pub(crate) fn pause(poll: Duration, wake: &Receiver<()>, listener: &mut OutboxListener) -> Resume {
    let until = Instant::now() + poll;
    loop {
        match listener.heard() {
            Ok(true) => return Resume::Round,
            Ok(false) => {}
            Err(error) => tracing::warn!(error.message = %error, "the delivery worker cannot listen for activations"),
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Resume::Round;
        }
        match wake.recv_timeout(left.min(LISTEN_EVERY)) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return Resume::Stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    /// A listener that cannot connect (nothing listens on port 1): it hears nothing.
    fn deaf() -> OutboxListener {
        OutboxListener::new("postgres://canvass@127.0.0.1:1/canvass?connect_timeout=1")
    }

    #[test]
    fn a_worker_that_cannot_listen_pauses_for_the_poll() {
        let (_wake, woken) = mpsc::channel();
        let started = Instant::now();
        assert_eq!(pause(Duration::from_millis(120), &woken, &mut deaf()), Resume::Round);
        assert!(started.elapsed() >= Duration::from_millis(120), "the whole poll, with nothing heard");
    }

    #[test]
    fn a_dropped_wake_stops_the_pause_at_once() {
        let (wake, woken) = mpsc::channel::<()>();
        drop(wake);
        let started = Instant::now();
        assert_eq!(pause(Duration::from_secs(30), &woken, &mut deaf()), Resume::Stop);
        assert!(started.elapsed() < Duration::from_secs(10), "not the poll's 30 s");
    }
}
