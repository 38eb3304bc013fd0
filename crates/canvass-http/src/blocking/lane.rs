//! The store's lane: as many threads as the store has connections, each taking the next request's work from the
//! lane's queue and running it. A thread that finishes a unit of work takes the next one itself, so a connection
//! that frees up goes to a waiting request at once, and waiting requests wait as futures.
//!
//! The queue is fair between [`Share`]s (accounts; key look-ups; respondent pages and hooks): each share's work in
//! arrival order, and a freed thread goes to the waiting share that holds the fewest threads (`schedule.rs`), so
//! one account's flood of slow requests delays another's next request by one unit of work at most, not by the
//! whole flood. It is bounded, and work whose request gave up or went away leaves it at once.
//!
//! It replaced a gate (a semaphore) in front of `web::block`: there, every unit of work that ended woke the next
//! request on an HTTP worker, which only then handed its work to a blocking thread, and each of those hand-overs
//! left a connection idle (docs/benchmarks.md, "The request path at the stack's own cost").

mod schedule;
mod sync;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use canvass_domain::{DomainError, RepoError};
use tokio::sync::oneshot;

use self::schedule::{Refused, Schedule, Ticket};
pub use self::schedule::{LANE_QUEUE, SHARE_QUEUE};
use self::sync::{Condvar, Mutex, MutexGuard};
use super::Share;
use crate::problem::Problem;

/// How long a request waits for its turn at the store before it is answered 503 (as long as the pool waits for
/// a connection).
pub const TURN_WAIT: Duration = Duration::from_secs(5);

/// A unit of work waiting for a thread of the lane.
type Job = Box<dyn FnOnce() + Send>;

/// Threads that run requests' units of work one at a time each, fairly between shares. Started on first use.
pub struct StoreLane {
    threads: usize,
    turn_wait: Duration,
    bounds: (usize, usize),
    lane: OnceLock<Arc<Lane>>,
}

/// The lane once started: its queue, and the signal its idle threads wait for.
struct Lane {
    queue: Mutex<Queue>,
    work_queued: Condvar,
}

/// What the lane's mutex guards.
struct Queue {
    schedule: Schedule<Job>,
    /// Threads waiting for work.
    idle: usize,
    /// Set when the lane is dropped: its threads end once nothing waits.
    stopped: bool,
}

impl StoreLane {
    /// A lane of `threads` threads (at least one).
    pub fn new(threads: usize) -> Self {
        Self { threads: threads.max(1), turn_wait: TURN_WAIT, bounds: (SHARE_QUEUE, LANE_QUEUE), lane: OnceLock::new() }
    }

    /// The same lane answering 503 after `turn_wait` instead of [`TURN_WAIT`].
    pub fn with_turn_wait(mut self, turn_wait: Duration) -> Self {
        self.turn_wait = turn_wait;
        self
    }

    /// The same lane queueing at most `per_share` units of work of one share and `in_all` of every share, instead
    /// of [`SHARE_QUEUE`] and [`LANE_QUEUE`].
    pub fn with_queue_bounds(mut self, per_share: usize, in_all: usize) -> Self {
        self.bounds = (per_share, in_all);
        self
    }

    /// Runs `work` for `share` on a thread of the lane, inside the current tracing span, in the share's turn (see
    /// the module documentation). A request whose share's queue, or the lane's, is full answers 503 at once; one
    /// that finds no thread free and waits [`TURN_WAIT`] without one starting its work answers 503, and its work
    /// leaves the queue; work whose request is gone before a thread takes it leaves the queue and is not run; a
    /// panic answers 500.
    pub async fn run<T: Send + 'static>(
        &self,
        share: Share,
        work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let lane = self.lane.get_or_init(|| Lane::start(self.threads, self.bounds));
        let (answer, mut answered) = oneshot::channel();
        let span = tracing::Span::current();
        let (queued_at, turn_wait) = (Instant::now(), self.turn_wait);
        let job: Job = Box::new(move || {
            if answer.is_closed() {
                return;
            }
            let outcome = match sync::late(queued_at, turn_wait) {
                true => Err(busy(turn_wait)),
                false => catch_unwind(AssertUnwindSafe(|| span.in_scope(work)))
                    .unwrap_or_else(|_| Err(Problem::internal(&"a unit of work panicked"))),
            };
            // The request may be gone by now; then nobody wants the answer.
            let _ = answer.send(outcome);
        });
        let (ticket, timed) = lane.push(share, job)?;
        let mut queued = Queued { lane, ticket: Some(ticket) };
        // A request that found a thread free is taken at once and keeps no timer. One that saw a free thread which
        // another share's request took first waits untimed; the thread answers it 503 if its turn came too late.
        if !timed {
            let outcome = answered.await;
            queued.ticket = None;
            return settled(outcome);
        }
        match sync::timeout(self.turn_wait, &mut answered).await {
            Ok(outcome) => {
                queued.ticket = None;
                settled(outcome)
            }
            Err(_) if queued.withdraw() => Err(busy(self.turn_wait)),
            // A thread took the work just as the wait ran out: it runs, and its answer is the request's.
            Err(_) => settled(answered.await),
        }
    }

    /// How many units of work wait for a thread now.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.lane.get().map_or(0, |lane| lane.lock().schedule.waiting())
    }
}

impl Default for StoreLane {
    /// A lane for a store whose size nobody gave: sixteen threads.
    fn default() -> Self {
        Self::new(16)
    }
}

impl Drop for StoreLane {
    fn drop(&mut self) {
        if let Some(lane) = self.lane.get() {
            lane.lock().stopped = true;
            lane.work_queued.notify_all();
        }
    }
}

impl Lane {
    fn start(threads: usize, (per_share, in_all): (usize, usize)) -> Arc<Self> {
        let queue = Queue { schedule: Schedule::bounded(per_share, in_all), idle: 0, stopped: false };
        let lane = Arc::new(Self { queue: Mutex::new(queue), work_queued: Condvar::new() });
        for number in 0..threads {
            let serving = lane.clone();
            let started =
                sync::thread::Builder::new().name(format!("canvass-store-{number}")).spawn(move || serving.serve());
            // Fewer threads serve fewer requests at once; with none, requests wait their turn out and answer 503.
            if let Err(refused) = started {
                tracing::error!(error.message = %refused, "the operating system refused a thread for the store's lane");
            }
        }
        lane
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // The lock is never held while work runs, and nothing under it panics.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `job` for `share`: its ticket, and whether the request must keep a timer (no thread was free for it).
    fn push(&self, share: Share, job: Job) -> Result<(Ticket, bool), Problem> {
        let mut queue = self.lock();
        let timed = queue.schedule.waiting() >= queue.idle;
        let ticket = queue.schedule.push(share, job).map_err(|refused| full(&refused))?;
        drop(queue);
        self.work_queued.notify_one();
        Ok((ticket, timed))
    }

    /// A thread of the lane: runs the work the schedule gives it, until the lane is dropped.
    fn serve(&self) {
        let mut queue = self.lock();
        loop {
            if let Some((share, job)) = queue.schedule.next() {
                drop(queue);
                job();
                queue = self.lock();
                queue.schedule.done(share);
                continue;
            }
            if queue.stopped {
                return;
            }
            queue.idle += 1;
            queue = self.work_queued.wait(queue).unwrap_or_else(PoisonError::into_inner);
            queue.idle -= 1;
        }
    }
}

/// A request's place in the queue, taken back if the request goes away before a thread takes its work.
struct Queued<'a> {
    lane: &'a Lane,
    ticket: Option<Ticket>,
}

impl Queued<'_> {
    /// Takes the work out of the queue; false when a thread has it already.
    fn withdraw(&mut self) -> bool {
        let Some(ticket) = self.ticket.take() else { return false };
        let withdrawn = self.lane.lock().schedule.withdraw(ticket);
        // Dropped outside the lock: the work's captured request goes with it.
        withdrawn.is_some()
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.withdraw();
    }
}

/// The work's answer, or 500 when the thread dropped it unanswered (it cannot, short of the lane stopping).
fn settled<T>(outcome: Result<Result<T, Problem>, oneshot::error::RecvError>) -> Result<T, Problem> {
    outcome.unwrap_or_else(|dropped| Err(Problem::internal(&dropped)))
}

/// 503: no thread took the work within `waited`.
fn busy(waited: Duration) -> Problem {
    unavailable(format!("every database connection stayed busy for {} ms", waited.as_millis()))
}

/// 503: the work could not even queue.
fn full(refused: &Refused) -> Problem {
    unavailable(match refused {
        Refused::ShareFull => "the queue of the request's share at the store's lane is full".to_owned(),
        Refused::LaneFull => "the store's lane's queue is full".to_owned(),
    })
}

fn unavailable(cause: String) -> Problem {
    Problem::from(DomainError::from(RepoError::Unavailable(cause.into())))
}

#[cfg(test)]
#[cfg(feature = "lane-model")]
mod model;
#[cfg(test)]
#[cfg(not(feature = "lane-model"))]
mod tests;
