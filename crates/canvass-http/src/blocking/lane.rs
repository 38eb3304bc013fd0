//! The store's lane: as many threads as the store has connections, each taking the oldest waiting request's work
//! from one queue and running it. A thread that finishes a unit of work takes the next one itself, so a connection
//! that frees up goes to the next request at once, in arrival order, and waiting requests wait as futures.
//!
//! It replaced a gate (a semaphore) in front of `web::block`: there, every unit of work that ended woke the next
//! request on an HTTP worker, which only then handed its work to a blocking thread, and each of those hand-overs
//! left a connection idle (docs/benchmarks.md, "The request path at the stack's own cost").

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use canvass_domain::{DomainError, RepoError};
use crossbeam_channel::{Receiver, Sender};
use tokio::sync::oneshot;

use crate::problem::Problem;

/// How long a request waits for its turn at the store before it is answered 503 (as long as the pool waits for
/// a connection).
pub const TURN_WAIT: Duration = Duration::from_secs(5);

/// A unit of work waiting for a thread of the lane.
type Job = Box<dyn FnOnce() + Send>;

/// Threads that run requests' units of work one at a time each, oldest first. Started on first use.
pub struct StoreLane {
    threads: usize,
    turn_wait: Duration,
    queue: OnceLock<Queue>,
}

/// The lane once started: where work is queued, and how many of its threads wait for some.
struct Queue {
    jobs: Sender<Job>,
    idle: Arc<AtomicUsize>,
}

/// Where a queued unit of work stands, when its request keeps a timer on the wait.
const QUEUED: u8 = 0;
const STARTED: u8 = 1;
const GIVEN_UP: u8 = 2;

impl StoreLane {
    /// A lane of `threads` threads (at least one).
    pub fn new(threads: usize) -> Self {
        Self { threads: threads.max(1), turn_wait: TURN_WAIT, queue: OnceLock::new() }
    }

    /// The same lane answering 503 after `turn_wait` instead of [`TURN_WAIT`].
    pub fn with_turn_wait(self, turn_wait: Duration) -> Self {
        Self { turn_wait, ..self }
    }

    /// Runs `work` on a thread of the lane, inside the current tracing span, once the requests queued before it
    /// have had theirs. A request that finds no thread free and waits [`TURN_WAIT`] without one starting its work
    /// answers 503; work whose request is gone before a thread takes it is not run; a panic answers 500.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let queue = self.queue.get_or_init(|| Queue::start(self.threads));
        // A free thread takes the work at once: only a request that has to queue keeps a timer (and a ticket the
        // timer and the thread settle the race on). One that saw a free thread another request took first waits
        // untimed; the thread answers it 503 if its turn came too late.
        let waits = queue.idle.load(Ordering::Acquire) == 0 || !queue.jobs.is_empty();
        let ticket = waits.then(|| Arc::new(AtomicU8::new(QUEUED)));
        let (answer, mut answered) = oneshot::channel();
        let span = tracing::Span::current();
        let (queued_at, turn_wait) = (Instant::now(), self.turn_wait);
        let job_ticket = ticket.clone();
        let job: Job = Box::new(move || {
            let taken = job_ticket.is_none_or(|ticket| {
                ticket.compare_exchange(QUEUED, STARTED, Ordering::AcqRel, Ordering::Acquire).is_ok()
            });
            if !taken || answer.is_closed() {
                return;
            }
            let outcome = match queued_at.elapsed() > turn_wait {
                true => Err(busy(turn_wait)),
                false => catch_unwind(AssertUnwindSafe(|| span.in_scope(work)))
                    .unwrap_or_else(|_| Err(Problem::internal(&"a unit of work panicked"))),
            };
            // The request may be gone by now; then nobody wants the answer.
            let _ = answer.send(outcome);
        });
        queue.jobs.send(job).map_err(|_| Problem::internal(&"the store's lane has stopped"))?;
        let Some(ticket) = ticket else { return settled(answered.await) };
        match actix_web::rt::time::timeout(self.turn_wait, &mut answered).await {
            Ok(outcome) => settled(outcome),
            Err(_) if ticket.compare_exchange(QUEUED, GIVEN_UP, Ordering::AcqRel, Ordering::Acquire).is_ok() => {
                Err(busy(self.turn_wait))
            }
            // A thread took the work just as the wait ran out: it runs, and its answer is the request's.
            Err(_) => settled(answered.await),
        }
    }
}

impl Default for StoreLane {
    /// A lane for a store whose size nobody gave: sixteen threads.
    fn default() -> Self {
        Self::new(16)
    }
}

impl Queue {
    fn start(threads: usize) -> Self {
        let (jobs, taken) = crossbeam_channel::unbounded();
        let idle = Arc::new(AtomicUsize::new(0));
        for number in 0..threads {
            let (taken, idle) = (taken.clone(), idle.clone());
            let started = std::thread::Builder::new()
                .name(format!("canvass-store-{number}"))
                .spawn(move || take_work(&taken, &idle));
            // Fewer threads serve fewer requests at once; with none, every request answers 500 (`run`).
            if let Err(refused) = started {
                tracing::error!(error.message = %refused, "the operating system refused a thread for the store's lane");
            }
        }
        Self { jobs, idle }
    }
}

/// A thread of the lane: runs queued work, oldest first, until the lane is dropped.
fn take_work(taken: &Receiver<Job>, idle: &AtomicUsize) {
    loop {
        idle.fetch_add(1, Ordering::AcqRel);
        let next = taken.recv();
        idle.fetch_sub(1, Ordering::AcqRel);
        match next {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// The work's answer, or 500 when the thread dropped it unanswered (it cannot, short of the lane stopping).
fn settled<T>(outcome: Result<Result<T, Problem>, oneshot::error::RecvError>) -> Result<T, Problem> {
    outcome.unwrap_or_else(|dropped| Err(Problem::internal(&dropped)))
}

/// 503: no thread took the work within `waited`.
fn busy(waited: Duration) -> Problem {
    let cause = format!("every database connection stayed busy for {} ms", waited.as_millis());
    Problem::from(DomainError::from(RepoError::Unavailable(cause)))
}

#[cfg(test)]
mod tests;
