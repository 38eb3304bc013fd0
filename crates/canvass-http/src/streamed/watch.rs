//! The idle timeout of a streamed body: once a piece is handed to actix, the next must be asked for within the
//! timeout. actix asks for the next piece once the one before has gone out to the socket; a client that reads
//! nothing leaves it unasked for, and the body (a chunk of rows, a writer, an export's slot and temporary files)
//! would be held as long as the client keeps its connection open. A watcher beside the body closes such a
//! connection: actix then drops the body and everything it holds.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use canvass_metrics::Metrics;
use futures_util::Stream;

use super::peer::Peer;
use super::ListBroken;

/// What the body and its watcher share.
struct Watch {
    /// When the last piece was handed to actix and not yet followed by a request for the next; `None` while
    /// actix asks (or the body works on the next piece).
    handed_at: Cell<Option<Instant>>,
    /// Whether the watcher found the body unread for the timeout.
    stalled: Cell<bool>,
    /// The connection, held by the body only: once the body is dropped, nothing keeps the socket open.
    peer: Peer,
}

/// A streamed body under the idle timeout.
pub(super) struct Watched<S> {
    body: Pin<Box<S>>,
    watch: Rc<Watch>,
    name: &'static str,
}

/// `body`, whose connection `peer` is closed once a piece of it stays unasked-for `idle`.
pub(super) fn watched<S>(name: &'static str, body: S, peer: Peer, idle: Duration, metrics: Arc<Metrics>) -> Watched<S>
where
    S: Stream<Item = Result<Bytes, ListBroken>> + 'static,
{
    let watch = Rc::new(Watch { handed_at: Cell::new(None), stalled: Cell::new(false), peer });
    let watched = Rc::downgrade(&watch);
    let span = tracing::Span::current();
    // The watcher holds the body's state (and with it the socket) weakly: it ends at its next look once the body
    // is dropped, and never keeps a connection open that actix closed.
    actix_web::rt::spawn(async move {
        let mut wait = idle;
        loop {
            actix_web::rt::time::sleep(wait).await;
            let Some(watch) = watched.upgrade() else { return };
            match watch.handed_at.get().map(|at| at.elapsed()) {
                Some(unread) if unread >= idle => {
                    watch.stalled.set(true);
                    metrics.count_idle_close();
                    span.in_scope(|| {
                        tracing::warn!(
                            list.name = name,
                            idle.seconds = idle.as_secs(),
                            "a streamed body was not read for its idle timeout; its connection is closed"
                        );
                    });
                    watch.peer.close();
                    return;
                }
                Some(unread) => wait = idle - unread,
                None => wait = idle,
            }
        }
    });
    Watched { body: Box::pin(body), watch, name }
}

impl<S> Stream for Watched<S>
where
    S: Stream<Item = Result<Bytes, ListBroken>>,
{
    type Item = Result<Bytes, ListBroken>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.watch.handed_at.set(None);
        if self.watch.stalled.get() {
            // Without a socket to close (a connection that is not TCP), the body ends at its next turn.
            self.watch.stalled.set(false);
            return Poll::Ready(Some(Err(ListBroken(self.name))));
        }
        let polled = self.body.as_mut().poll_next(cx);
        if let Poll::Ready(Some(Ok(_))) = &polled {
            self.watch.handed_at.set(Some(Instant::now()));
        }
        polled
    }
}
