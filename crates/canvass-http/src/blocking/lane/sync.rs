//! What the lane is built of: threads, a mutex and a condition variable, the timer of a request waiting its turn,
//! and the clock a thread reads to answer a turn that came too late. In a build served they are std's and tokio's;
//! under the `lane-model` feature (the model check, `model.rs`) they are shuttle's, which the check schedules, and
//! the timer and the clock say "too late" at points the check chooses.

use std::future::Future;
use std::time::{Duration, Instant};

#[cfg(not(feature = "lane-model"))]
pub use std::sync::{Condvar, Mutex, MutexGuard};
#[cfg(not(feature = "lane-model"))]
pub use std::thread;

#[cfg(feature = "lane-model")]
pub use shuttle::sync::{Condvar, Mutex, MutexGuard};
#[cfg(feature = "lane-model")]
pub use shuttle::thread;

/// A request's wait for its turn ran out.
pub struct Elapsed;

/// Whether a unit of work queued at `queued_at` waited longer than `turn_wait`.
#[cfg(not(feature = "lane-model"))]
pub fn late(queued_at: Instant, turn_wait: Duration) -> bool {
    queued_at.elapsed() > turn_wait
}

/// `future`'s output, or [`Elapsed`] once `wait` has passed.
#[cfg(not(feature = "lane-model"))]
pub async fn timeout<F: Future>(wait: Duration, future: F) -> Result<F::Output, Elapsed> {
    actix_web::rt::time::timeout(wait, future).await.map_err(|_| Elapsed)
}

/// In the model: either, as the check chooses, unless `turn_wait` is [`Duration::MAX`] (never late).
#[cfg(feature = "lane-model")]
pub fn late(_queued_at: Instant, turn_wait: Duration) -> bool {
    use shuttle::rand::Rng;
    turn_wait != Duration::MAX && shuttle::rand::thread_rng().gen_bool(0.5)
}

/// In the model: the timer fires after none to two of the check's scheduling points, unless `wait` is
/// [`Duration::MAX`] (it never fires).
#[cfg(feature = "lane-model")]
pub async fn timeout<F: Future>(wait: Duration, future: F) -> Result<F::Output, Elapsed> {
    use futures_util::future::{select, Either};
    use shuttle::rand::Rng;
    if wait == Duration::MAX {
        return Ok(future.await);
    }
    let points = shuttle::rand::thread_rng().gen_range(0..3);
    let fires = async move {
        for _ in 0..points {
            shuttle::future::yield_now().await;
        }
    };
    match select(std::pin::pin!(future), std::pin::pin!(fires)).await {
        Either::Left((output, _)) => Ok(output),
        Either::Right(_) => Err(Elapsed),
    }
}
