//! The outbox backlog `/metrics` shows: an all-accounts count, so it is read at most once every
//! [`BACKLOG_FRESH_FOR`] however many scrape, by one scrape at a time, on the blocking pool rather than the store's
//! lane (where anonymous scrapers would take turns from accounts). Scrapes in between are served the last reading.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use canvass_domain::use_cases::monitoring::Backlog;

use crate::blocking;
use crate::problem::Problem;

/// How long a reading of the backlog is served before a scrape reads it again, unless the protection says otherwise
/// (`Protection::backlog_reading_ttl`).
pub const BACKLOG_FRESH_FOR: Duration = Duration::from_secs(5);

/// The last reading of the backlog, and the turn to read it again.
pub struct BacklogCache {
    fresh_for: Duration,
    last: Mutex<Option<Reading>>,
    reading: tokio::sync::Mutex<()>,
}

/// A reading: when it was taken, and the backlog (`None`: the store could not be asked, so the gauges are left out).
#[derive(Debug, Clone, Copy)]
struct Reading {
    at: Instant,
    backlog: Option<Backlog>,
}

impl BacklogCache {
    /// No reading yet; each is served for `fresh_for`.
    pub fn new(fresh_for: Duration) -> Self {
        Self { fresh_for, last: Mutex::new(None), reading: tokio::sync::Mutex::new(()) }
    }

    /// The backlog as last read, reading it with `read` on the blocking pool when that reading is older than the
    /// cache's `fresh_for` (a failed read is remembered as long, so a store that is down is asked once a period).
    /// While one scrape reads, the others are served the reading before, or wait for this one if there is none.
    pub async fn get(&self, read: impl FnOnce() -> Result<Backlog, Problem> + Send + 'static) -> Option<Backlog> {
        if let Some(fresh) = self.fresh() {
            return fresh.backlog;
        }
        let Ok(_turn) = self.reading.try_lock() else {
            if let Some(last) = self.last() {
                return last.backlog;
            }
            let _waited = self.reading.lock().await;
            return self.last().and_then(|last| last.backlog);
        };
        // Another scrape may have read between the look and the turn.
        if let Some(fresh) = self.fresh() {
            return fresh.backlog;
        }
        let backlog = match blocking::in_span(read).await {
            Ok(backlog) => Some(backlog),
            Err(problem) => {
                tracing::warn!(problem.kind = problem.kind.name(), "metrics served without the outbox backlog");
                None
            }
        };
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(Reading { at: Instant::now(), backlog });
        backlog
    }

    fn last(&self) -> Option<Reading> {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn fresh(&self) -> Option<Reading> {
        self.last().filter(|last| last.at.elapsed() < self.fresh_for)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use futures_util::future::join_all;

    use super::*;

    /// A read that counts itself and answers a backlog of as many pending messages as reads so far.
    fn counting(reads: &Arc<AtomicU64>) -> impl FnOnce() -> Result<Backlog, Problem> + Send + 'static {
        let reads = reads.clone();
        move || {
            let pending = reads.fetch_add(1, Ordering::SeqCst) + 1;
            std::thread::sleep(Duration::from_millis(20));
            Ok(Backlog { pending, held: 0, oldest_due_age: time::Duration::ZERO })
        }
    }

    #[actix_web::test]
    async fn scrapes_within_the_period_read_once_and_a_later_scrape_reads_again() {
        let cache = BacklogCache::new(Duration::from_millis(300));
        let reads = Arc::new(AtomicU64::new(0));
        let at_once = join_all((0..16).map(|_| cache.get(counting(&reads)))).await;
        assert!(at_once.iter().all(|backlog| backlog.map(|b| b.pending) == Some(1)), "{at_once:?}");
        assert_eq!(cache.get(counting(&reads)).await.map(|b| b.pending), Some(1));
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(cache.get(counting(&reads)).await.map(|b| b.pending), Some(2));
        assert_eq!(reads.load(Ordering::SeqCst), 2);
    }

    #[actix_web::test]
    async fn a_failed_read_leaves_the_gauges_out_and_is_not_retried_within_the_period() {
        let cache = BacklogCache::new(Duration::from_secs(60));
        let reads = Arc::new(AtomicU64::new(0));
        for _ in 0..3 {
            let reads = reads.clone();
            let backlog = cache
                .get(move || {
                    reads.fetch_add(1, Ordering::SeqCst);
                    Err(Problem::unavailable())
                })
                .await;
            assert_eq!(backlog, None);
        }
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }
}
