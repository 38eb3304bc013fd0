//! The lane's promises: arrival order, 503 for a request whose turn does not come, no work for a request that is
//! gone, a thread that outlives a panic.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use actix_web::http::StatusCode;
use actix_web::ResponseError;
use futures_util::future::{join, join_all};
use futures_util::FutureExt;

use super::*;

/// Work that holds the lane's only thread until `release` is sent to.
fn hold(lane: &StoreLane) -> (impl std::future::Future<Output = Result<(), Problem>> + '_, mpsc::Sender<()>) {
    let (release, released) = mpsc::channel::<()>();
    (
        lane.run(move || {
            let _ = released.recv();
            Ok(())
        }),
        release,
    )
}

#[actix_web::test]
async fn one_thread_runs_queued_work_in_arrival_order() {
    let lane = StoreLane::new(1);
    let order = Arc::new(Mutex::new(Vec::new()));
    let (held, release) = hold(&lane);
    let mut held = Box::pin(held);
    assert!((&mut held).now_or_never().is_none(), "the first work holds the thread");
    let queued = (0..20).map(|number| {
        let order = order.clone();
        lane.run(move || {
            order.lock().unwrap().push(number);
            Ok(())
        })
    });
    let waiting = join_all(queued);
    release.send(()).unwrap();
    let (first, rest) = join(held, waiting).await;
    assert!(first.is_ok() && rest.iter().all(Result::is_ok));
    assert_eq!(*order.lock().unwrap(), (0..20).collect::<Vec<_>>());
}

#[actix_web::test]
async fn a_request_whose_turn_does_not_come_in_time_answers_503_and_its_work_never_runs() {
    let lane = StoreLane::new(1).with_turn_wait(Duration::from_millis(50));
    let ran = Arc::new(AtomicBool::new(false));
    let slow = lane.run(|| {
        std::thread::sleep(Duration::from_millis(300));
        Ok(())
    });
    let late = {
        let ran = ran.clone();
        lane.run(move || {
            ran.store(true, Ordering::SeqCst);
            Ok(())
        })
    };
    let (slow, late) = join(slow, late).await;
    assert!(slow.is_ok());
    assert_eq!(late.expect_err("no thread was free for 300 ms").status_code(), StatusCode::SERVICE_UNAVAILABLE);
    // The thread is free again: the next work runs, and the late one did not before it.
    lane.run(|| Ok(())).await.expect("the lane serves on");
    assert!(!ran.load(Ordering::SeqCst));
}

#[actix_web::test]
async fn work_of_a_request_gone_before_its_turn_is_not_run() {
    let lane = StoreLane::new(1);
    let ran = Arc::new(AtomicBool::new(false));
    let (held, release) = hold(&lane);
    let mut held = Box::pin(held);
    assert!((&mut held).now_or_never().is_none());
    let gone = {
        let ran = ran.clone();
        lane.run(move || {
            ran.store(true, Ordering::SeqCst);
            Ok(())
        })
    };
    assert!(gone.now_or_never().is_none(), "queued behind the held thread, then dropped");
    release.send(()).unwrap();
    held.await.unwrap();
    lane.run(|| Ok(())).await.unwrap();
    assert!(!ran.load(Ordering::SeqCst));
}

#[actix_web::test]
async fn a_panicking_unit_of_work_answers_500_and_its_thread_serves_on() {
    let lane = StoreLane::new(1);
    let panicked = lane.run::<()>(|| panic!("a bug in a use case")).await;
    assert_eq!(panicked.expect_err("a panic is no answer").status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(lane.run(|| Ok(7)).await.unwrap(), 7);
}
