//! The lane's promises: arrival order within a share, a share's turn while another floods the lane, a freed thread
//! for the share that holds fewer, every thread for a share alone, 503 for a request whose turn does not come or
//! whose share's queue is full, no work (and no place in the queue) for a request that gave up or is gone, a
//! thread that outlives a panic.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use actix_web::http::StatusCode;
use actix_web::ResponseError;
use canvass_domain::AccountId;
use futures_util::future::{join, join_all};
use futures_util::FutureExt;

use super::*;

const A: Share = Share::Account(AccountId::new(1));
const B: Share = Share::Account(AccountId::new(2));

/// A request whose work has taken a thread of the lane, and holds it until `release` is sent to.
type Held<'a> = Pin<Box<dyn Future<Output = Result<(), Problem>> + 'a>>;

/// Work of `share` that has taken a thread of the lane (this waits until it has) and holds it until `release` is
/// sent to.
fn hold(lane: &StoreLane, share: Share) -> (Held<'_>, mpsc::Sender<()>) {
    let (release, released) = mpsc::channel::<()>();
    let (started, has_started) = mpsc::channel::<()>();
    let mut held: Held<'_> = Box::pin(lane.run(share, move || {
        let _ = started.send(());
        let _ = released.recv();
        Ok(())
    }));
    assert!((&mut held).now_or_never().is_none(), "the work holds its thread");
    has_started.recv().unwrap();
    (held, release)
}

/// Work of `share` that writes `label` into `order` when it runs.
fn note<'a>(
    lane: &'a StoreLane,
    share: Share,
    order: &Arc<Mutex<Vec<String>>>,
    label: String,
) -> impl std::future::Future<Output = Result<(), Problem>> + 'a {
    let order = order.clone();
    lane.run(share, move || {
        order.lock().unwrap().push(label);
        Ok(())
    })
}

#[actix_web::test]
async fn one_thread_runs_a_shares_queued_work_in_arrival_order() {
    let lane = StoreLane::new(1);
    let order = Arc::new(Mutex::new(Vec::new()));
    let (held, release) = hold(&lane, A);
    let waiting = join_all((0..20).map(|number| note(&lane, A, &order, number.to_string())));
    release.send(()).unwrap();
    let (first, rest) = join(held, waiting).await;
    assert!(first.is_ok() && rest.iter().all(Result::is_ok));
    assert_eq!(*order.lock().unwrap(), (0..20).map(|n| n.to_string()).collect::<Vec<_>>());
}

#[actix_web::test]
async fn work_of_another_account_runs_next_however_much_one_account_has_queued() {
    let lane = StoreLane::new(1);
    let order = Arc::new(Mutex::new(Vec::new()));
    let (held, release) = hold(&lane, A);
    let mut flood: Vec<_> = (0..20).map(|number| Box::pin(note(&lane, A, &order, format!("a{number}")))).collect();
    for queued in &mut flood {
        assert!(queued.now_or_never().is_none(), "queued behind the held thread");
    }
    let mut other = Box::pin(note(&lane, B, &order, "b".into()));
    assert!((&mut other).now_or_never().is_none());
    release.send(()).unwrap();
    let (_, (flooded, other)) = join(held, join(join_all(flood), other)).await;
    assert!(other.is_ok() && flooded.iter().all(Result::is_ok));
    let order = order.lock().unwrap();
    assert_eq!(order.len(), 21);
    // A held the thread; B's one turn comes before A's next.
    assert_eq!(order[..2], ["b", "a0"]);
}

#[actix_web::test]
async fn a_freed_thread_goes_to_the_waiting_account_that_holds_fewer_threads() {
    let lane = StoreLane::new(2);
    let order = Arc::new(Mutex::new(Vec::new()));
    let (first, release_first) = hold(&lane, A);
    let (second, release_second) = hold(&lane, A);
    let mut own = Box::pin(note(&lane, A, &order, "a".into()));
    assert!((&mut own).now_or_never().is_none(), "A holds both threads");
    let mut other = Box::pin(note(&lane, B, &order, "b".into()));
    assert!((&mut other).now_or_never().is_none());
    release_first.send(()).unwrap();
    // A still holds a thread and B none: the freed one is B's, though A's work came first.
    let (first, other) = join(first, other).await;
    assert!(first.is_ok() && other.is_ok());
    release_second.send(()).unwrap();
    let (second, own) = join(second, own).await;
    assert!(second.is_ok() && own.is_ok());
    assert_eq!(*order.lock().unwrap(), ["b", "a"]);
}

#[actix_web::test]
async fn an_account_alone_has_every_thread() {
    let lane = StoreLane::new(4);
    let (inside, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let all = (0..4).map(|_| {
        let (inside, most) = (inside.clone(), most.clone());
        lane.run(A, move || {
            let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            // Each waits (a while at most) until all four are inside.
            let until = Instant::now() + Duration::from_secs(2);
            while inside.load(Ordering::SeqCst) < 4 && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(())
        })
    });
    assert!(join_all(all).await.iter().all(Result::is_ok));
    assert_eq!(most.load(Ordering::SeqCst), 4);
}

#[actix_web::test]
async fn a_request_whose_turn_does_not_come_in_time_answers_503_and_its_work_leaves_the_queue() {
    let lane = StoreLane::new(1).with_turn_wait(Duration::from_millis(50));
    let ran = Arc::new(AtomicBool::new(false));
    let (held, release) = hold(&lane, A);
    let late = {
        let ran = ran.clone();
        lane.run(B, move || {
            ran.store(true, Ordering::SeqCst);
            Ok(())
        })
    };
    assert_eq!(late.await.expect_err("no thread was free").status_code(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(lane.waiting(), 0, "given up while the thread is still held, and out of the queue");
    release.send(()).unwrap();
    held.await.unwrap();
    // The thread is free again: the next work runs, and the late one did not before it.
    lane.run(B, || Ok(())).await.expect("the lane serves on");
    assert!(!ran.load(Ordering::SeqCst));
}

#[actix_web::test]
async fn work_of_a_request_gone_before_its_turn_leaves_the_queue_and_is_not_run() {
    let lane = StoreLane::new(1);
    let ran = Arc::new(AtomicBool::new(false));
    let (held, release) = hold(&lane, A);
    let gone = {
        let ran = ran.clone();
        lane.run(A, move || {
            ran.store(true, Ordering::SeqCst);
            Ok(())
        })
    };
    assert!(gone.now_or_never().is_none(), "queued behind the held thread, then dropped");
    assert_eq!(lane.waiting(), 0);
    release.send(()).unwrap();
    held.await.unwrap();
    lane.run(A, || Ok(())).await.unwrap();
    assert!(!ran.load(Ordering::SeqCst));
}

#[actix_web::test]
async fn a_share_whose_queue_is_full_answers_503_at_once_and_other_shares_still_queue() {
    let lane = StoreLane::new(1).with_queue_bounds(3, 5);
    let (held, release) = hold(&lane, A);
    let mut queued: Vec<_> = (0..3).map(|_| Box::pin(lane.run(A, || Ok(())))).collect();
    for waiting in &mut queued {
        assert!(waiting.now_or_never().is_none());
    }
    let refused = lane.run(A, || Ok(())).now_or_never().expect("answered without waiting");
    assert_eq!(refused.expect_err("A's queue is full").status_code(), StatusCode::SERVICE_UNAVAILABLE);
    let mut others: Vec<_> = (0..2).map(|_| Box::pin(lane.run(B, || Ok(())))).collect();
    for waiting in &mut others {
        assert!(waiting.now_or_never().is_none(), "B still has room");
    }
    let lane_full = lane.run(Share::Public, || Ok(())).now_or_never().expect("answered without waiting");
    assert_eq!(lane_full.expect_err("five wait").status_code(), StatusCode::SERVICE_UNAVAILABLE);
    release.send(()).unwrap();
    held.await.unwrap();
    let (queued, others) = join(join_all(queued), join_all(others)).await;
    assert!(queued.iter().chain(&others).all(Result::is_ok));
}

#[actix_web::test]
async fn a_panicking_unit_of_work_answers_500_and_its_thread_serves_on() {
    let lane = StoreLane::new(1);
    let panicked = lane.run::<()>(A, || panic!("a bug in a use case")).await;
    assert_eq!(panicked.expect_err("a panic is no answer").status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(lane.run(A, || Ok(7)).await.unwrap(), 7);
}
