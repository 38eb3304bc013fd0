//! `GET /metrics` without a token: its backlog gauges span every account, so scrapes, however many, read the store
//! at most once every few seconds.

use actix_web::test::TestRequest;
use futures_util::future::join_all;

use crate::support::TestApp;

#[actix_web::test]
async fn scrapes_within_a_few_seconds_read_the_backlog_once() {
    let app = TestApp::new().await;
    let before = app.lends();
    let scrapes = join_all((0..16).map(|_| app.call(TestRequest::get().uri("/metrics")))).await;
    for _ in 0..4 {
        app.call(TestRequest::get().uri("/metrics")).await;
    }
    assert!(scrapes.iter().all(|scrape| scrape.status.as_u16() == 200));
    assert_eq!(app.lends() - before, 1, "twenty scrapes, one reading of the backlog");
}
