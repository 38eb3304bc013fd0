//! The lane's model check: the real lane (its queue, the three states of a ticket, the request's timer, the
//! thread's late check, the shares' turns) on shuttle's threads, mutex and condition variable, run under many
//! schedules that shuttle draws, with the timer and the clock saying "too late" at points it chooses too. Each
//! check asserts a promise under every schedule drawn: every request is answered once, by its own work or by a
//! 503 that ran none; no wake-up is lost (a request that waits untimed is answered, and the lane's threads end
//! when it is dropped: shuttle fails a schedule in which every thread waits); the queue holds no more than its
//! bounds and refuses the rest at once; a share that starts to wait goes before a flooding share's next unit.
//! Run by `scripts/test.sh`: `cargo test -p canvass-http --features lane-model --lib lane::model`.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Poll;

use actix_web::http::StatusCode;
use actix_web::ResponseError;
use canvass_domain::AccountId;
use futures_util::future::join_all;
use shuttle::future::block_on;
use shuttle::sync::mpsc;
use shuttle::thread;

use super::*;

const A: Share = Share::Account(AccountId::new(1));
const B: Share = Share::Account(AccountId::new(2));

/// Schedules drawn per check: about ten seconds each in a debug build on a loaded two-core machine.
const SCHEDULES: usize = 2_000;
/// The PCT scheduler's depth: how many forced preemptions a schedule may have.
const DEPTH: usize = 3;

/// How many times each unit of work ran.
type Runs = Arc<Vec<AtomicUsize>>;

fn runs(count: usize) -> Runs {
    Arc::new((0..count).map(|_| AtomicUsize::new(0)).collect())
}

/// A request of `share` whose work counts its run in `runs[id]` and answers `id`.
async fn counted(lane: &StoreLane, share: Share, runs: &Runs, id: usize) -> Result<usize, Problem> {
    let runs = runs.clone();
    lane.run(share, move || {
        runs[id].fetch_add(1, Ordering::SeqCst);
        Ok(id)
    })
    .await
}

/// Starts a thread that sends `per_thread` requests of `share` at once (ids from `first`) and waits for them all.
fn requester(
    lane: &Arc<StoreLane>,
    share: Share,
    runs: &Runs,
    first: usize,
    per_thread: usize,
) -> thread::JoinHandle<Vec<Result<usize, Problem>>> {
    let (lane, runs) = (lane.clone(), runs.clone());
    thread::spawn(move || block_on(join_all((first..first + per_thread).map(|id| counted(&lane, share, &runs, id)))))
}

/// Polls a request once, from inside a task: its answer, or `Pending` once it waits (its work queued).
async fn poll_once<F: Future>(mut request: Pin<&mut F>) -> Poll<F::Output> {
    std::future::poll_fn(|cx| Poll::Ready(request.as_mut().poll(cx))).await
}

/// The lane, started by a first request on this thread alone, so that no two threads start it at once (its
/// `OnceLock` would block a real thread, which shuttle does not schedule).
fn started(lane: StoreLane) -> Arc<StoreLane> {
    let _first = block_on(lane.run(Share::Public, || Ok(())));
    Arc::new(lane)
}

#[test]
fn every_request_waiting_untimed_is_answered_once_by_its_own_work() {
    shuttle::check_pct(
        || {
            let lane = started(StoreLane::new(2).with_turn_wait(Duration::MAX));
            let runs = runs(6);
            let threads =
                [requester(&lane, A, &runs, 0, 2), requester(&lane, B, &runs, 2, 2), requester(&lane, A, &runs, 4, 2)];
            for (thread, first) in threads.into_iter().zip([0, 2, 4]) {
                let answers: Vec<usize> = thread.join().unwrap().into_iter().map(Result::unwrap).collect();
                assert_eq!(answers, [first, first + 1], "each request gets its own work's answer");
            }
            assert!(runs.iter().all(|run| run.load(Ordering::SeqCst) == 1), "each unit of work ran once");
            assert_eq!(lane.waiting(), 0);
            // Dropped here: the lane's threads must end (one left waiting fails the schedule).
        },
        SCHEDULES,
        DEPTH,
    );
}

#[test]
fn a_request_whose_turn_comes_too_late_is_answered_503_and_its_work_never_runs() {
    shuttle::check_pct(
        || {
            let lane = started(StoreLane::new(1).with_turn_wait(Duration::from_millis(1)));
            let runs = runs(6);
            let threads = [requester(&lane, A, &runs, 0, 3), requester(&lane, B, &runs, 3, 2)];
            // A request that goes away after it queued: its work runs at most once, and leaves no place behind.
            let gone = {
                let (lane, runs) = (lane.clone(), runs.clone());
                thread::spawn(move || {
                    let request = std::pin::pin!(counted(&lane, Share::Public, &runs, 5));
                    block_on(poll_once(request)).is_ready()
                })
            };
            for (thread, first) in threads.into_iter().zip([0, 3]) {
                for (id, answer) in (first..).zip(thread.join().unwrap()) {
                    let ran = runs[id].load(Ordering::SeqCst);
                    match answer {
                        Ok(answered) => assert_eq!((answered, ran), (id, 1), "answered by its own work, run once"),
                        Err(problem) => {
                            assert_eq!(problem.status_code(), StatusCode::SERVICE_UNAVAILABLE);
                            assert_eq!(ran, 0, "a request answered 503 had its work run");
                        }
                    }
                }
            }
            gone.join().unwrap();
            assert!(runs[5].load(Ordering::SeqCst) <= 1);
            assert_eq!(lane.waiting(), 0, "every place in the queue was taken or given back");
        },
        SCHEDULES,
        DEPTH,
    );
}

/// A thread whose request holds the lane's one thread until the returned sender is sent to; the receiver hears
/// when it has it.
fn holder(lane: &Arc<StoreLane>) -> (thread::JoinHandle<()>, mpsc::Receiver<()>, mpsc::Sender<()>) {
    let (held, has_held) = mpsc::channel();
    let (release, released) = mpsc::channel::<()>();
    let lane = lane.clone();
    let thread = thread::spawn(move || {
        let work = move || {
            held.send(()).unwrap();
            released.recv().unwrap();
            Ok(())
        };
        block_on(lane.run(Share::Public, work)).unwrap();
    });
    (thread, has_held, release)
}

#[test]
fn the_queue_holds_its_bounds_and_refuses_the_rest_at_once() {
    shuttle::check_random(
        || {
            // One thread, held; at most two units of a share wait, and three in all.
            let lane = Arc::new(StoreLane::new(1).with_turn_wait(Duration::MAX).with_queue_bounds(2, 3));
            let (holding, held, release) = holder(&lane);
            held.recv().unwrap();
            let (queued, has_queued) = mpsc::channel();
            let senders: Vec<_> = [(A, 3), (B, 2), (Share::Public, 1)]
                .into_iter()
                .map(|(share, count)| {
                    let (lane, queued) = (lane.clone(), queued.clone());
                    thread::spawn(move || {
                        block_on(async {
                            let mut waiting = Vec::new();
                            let mut refused = 0;
                            for _ in 0..count {
                                let mut request = Box::pin(lane.run(share, || Ok(())));
                                match poll_once(request.as_mut()).await {
                                    Poll::Ready(answer) => {
                                        let status = answer.expect_err("refused").status_code();
                                        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
                                        refused += 1;
                                    }
                                    Poll::Pending => waiting.push(request),
                                }
                            }
                            queued.send(refused).unwrap();
                            assert!(join_all(waiting).await.into_iter().all(|answer| answer.is_ok()));
                        })
                    })
                })
                .collect();
            let refused: usize = (0..3).map(|_| has_queued.recv().unwrap()).sum();
            assert_eq!((lane.waiting(), refused), (3, 3), "three wait, three are refused at once");
            release.send(()).unwrap();
            holding.join().unwrap();
            senders.into_iter().for_each(|sender| sender.join().unwrap());
            assert_eq!(lane.waiting(), 0);
        },
        SCHEDULES,
    );
}

#[test]
fn a_share_that_starts_to_wait_goes_before_a_flooding_shares_next_unit() {
    shuttle::check_pct(
        || {
            let lane = Arc::new(StoreLane::new(1).with_turn_wait(Duration::MAX));
            let order = Arc::new(shuttle::sync::Mutex::new(Vec::new()));
            let (held, has_held) = mpsc::channel();
            let (release, released) = mpsc::channel::<()>();
            let gate = Arc::new(shuttle::sync::Mutex::new(Some((held, released))));
            let flood = {
                let (lane, order) = (lane.clone(), order.clone());
                thread::spawn(move || {
                    let requests = (0..4).map(|_| {
                        let (order, gate) = (order.clone(), gate.clone());
                        lane.run(A, move || {
                            order.lock().unwrap().push(A);
                            // The first of A's units to run holds the thread until B has queued.
                            let first = gate.lock().unwrap().take();
                            if let Some((held, released)) = first {
                                held.send(()).unwrap();
                                released.recv().unwrap();
                            }
                            Ok(())
                        })
                    });
                    assert!(block_on(join_all(requests)).into_iter().all(|answer| answer.is_ok()));
                })
            };
            has_held.recv().unwrap();
            let newcomer = {
                let (lane, order) = (lane.clone(), order.clone());
                thread::spawn(move || {
                    let mut request = Box::pin(lane.run(B, move || {
                        order.lock().unwrap().push(B);
                        Ok(())
                    }));
                    block_on(async {
                        assert!(poll_once(request.as_mut()).await.is_pending(), "B waits: A holds the thread");
                        release.send(()).unwrap();
                        assert!(request.await.is_ok());
                    });
                })
            };
            flood.join().unwrap();
            newcomer.join().unwrap();
            assert_eq!(*order.lock().unwrap(), [A, B, A, A, A], "B's unit goes right after the one A had running");
        },
        SCHEDULES,
        DEPTH,
    );
}
