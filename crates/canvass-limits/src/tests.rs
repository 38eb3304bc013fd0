//! The scripts on a real, private Redis: a burst counted down and refused with a wait, windows that block past
//! their allowed number and free in time, a budget a failure gave kept for the waits after it, a start refused
//! when its window is full, and a Redis that goes away and comes back.

use std::time::Duration;

use canvass_testdb::TestRedis;

use super::*;

fn window(key: &str, allowed: u32, span: Duration) -> Window<'_> {
    Window { key, allowed, span }
}

#[tokio::test]
async fn a_burst_is_counted_down_then_refused_with_a_wait_and_another_key_has_its_own() {
    let redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    let mut grants = Vec::new();
    for _ in 0..4 {
        grants.push(limits.take_request("a", 1, 3, 1).await.unwrap());
    }
    assert_eq!(
        grants.iter().map(|grant| (grant.granted, grant.remaining)).collect::<Vec<_>>(),
        [(1, 2), (1, 1), (1, 0), (0, 0)]
    );
    let wait = grants[3].retry_after;
    assert!(wait > Duration::from_millis(900) && wait <= Duration::from_secs(1), "{wait:?}");
    assert!(grants[2].reset > Duration::from_millis(2900) && grants[2].reset <= Duration::from_secs(3));
    assert_eq!(limits.take_request("b", 1, 3, 1).await.unwrap().remaining, 2);
    let fast = limits.take_request("c", 2_000_000_000, 1, 1).await.unwrap();
    assert_eq!(fast.granted, 1, "a rate over a million a second still lets requests through");
    assert!(limits.is_up());
}

#[tokio::test]
async fn cells_taken_ahead_are_as_many_as_are_free_and_spent_from_the_burst() {
    let redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    let first = limits.take_request("k", 1, 10, 4).await.unwrap();
    assert_eq!((first.granted, first.remaining), (4, 6));
    let second = limits.take_request("k", 1, 10, 8).await.unwrap();
    assert_eq!((second.granted, second.remaining), (6, 0), "only what is left");
    let refused = limits.take_request("k", 1, 10, 8).await.unwrap();
    assert_eq!(refused.granted, 0);
    assert!(refused.retry_after > Duration::from_millis(900) && refused.retry_after <= Duration::from_secs(1));
}

#[tokio::test]
async fn a_window_blocks_past_its_allowed_number_until_the_oldest_leave_it() {
    let redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    let span = Duration::from_millis(600);
    let guesses = window("t:1", 2, span);
    for _ in 0..3 {
        assert_eq!(limits.wait(&[guesses]).await.unwrap(), None);
        limits.record(guesses).await.unwrap();
    }
    let wait = limits.wait(&[guesses, window("other", 5, span)]).await.unwrap().unwrap();
    assert!(wait <= span, "{wait:?}");
    tokio::time::sleep(wait + Duration::from_millis(20)).await;
    assert_eq!(limits.wait(&[guesses]).await.unwrap(), None, "free once the oldest left the window");
}

#[tokio::test]
async fn the_budget_a_failure_gave_holds_for_the_waits_after_it() {
    let redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    let span = Duration::from_secs(60);
    for _ in 0..4 {
        limits.record(window("login:7", 5, span)).await.unwrap();
    }
    assert_eq!(limits.wait(&[window("login:7", 1, span)]).await.unwrap(), None, "the page's budget of 5 holds");
    limits.record(window("login:7", 3, span)).await.unwrap();
    assert!(limits.wait(&[window("login:7", 10, span)]).await.unwrap().is_some(), "the smaller budget now holds");
}

#[tokio::test]
async fn a_start_is_refused_once_its_window_is_full_and_counts_nothing_then() {
    let redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    let starts = window("starts", 1, Duration::from_secs(60));
    assert_eq!(limits.take(starts).await.unwrap(), None);
    assert_eq!(limits.take(starts).await.unwrap(), None);
    let refused = limits.take(starts).await.unwrap().unwrap();
    assert!(refused <= Duration::from_secs(60) && refused > Duration::from_secs(59), "{refused:?}");
    assert!(limits.take(starts).await.unwrap().is_some());
}

#[tokio::test]
async fn a_redis_that_goes_away_is_unreachable_and_counts_again_when_it_is_back() {
    let mut redis = TestRedis::start();
    let limits = SharedLimits::open(&LimitsUrl::parse(&redis.url()).unwrap()).unwrap();
    assert!(limits.take_request("k", 10, 10, 1).await.is_ok());
    redis.stop();
    assert_eq!(limits.take_request("k", 10, 10, 1).await, Err(Unreachable));
    assert!(!limits.is_up());
    redis.resume();
    let mut back = Err(Unreachable);
    for _ in 0..50 {
        back = limits.take_request("k", 10, 10, 1).await;
        if back.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(back.map(|grant| grant.remaining), Ok(9), "a fresh Redis: a whole burst");
    assert!(limits.is_up());
}

#[test]
fn a_url_that_is_not_redis_is_refused_without_its_password() {
    for url in ["http://user:hunter2@example.com", "redis://user:hunter2@[::1", "hunter2"] {
        let error = LimitsUrl::parse(url).unwrap_err().to_string();
        assert!(error.starts_with("LIMITS_URL is not a Redis URL") && !error.contains("hunter2"), "{error}");
    }
    let parsed = LimitsUrl::parse("redis://:hunter2@127.0.0.1:6379/0").unwrap();
    assert_eq!(format!("{parsed:?}"), "LimitsUrl(..)");
}
