//! Idle connections: the server keeps one open for `KEEP_ALIVE` (75 s unless set) for the client's next request,
//! so a client that pauses for seconds between requests reuses its connection, and closes it after that.
//! Spoken over a plain TCP stream (on a blocking thread), so that the test sees the connection itself: a pooling
//! client would open a new one without saying.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

fn connect(app: &TestApp) -> BufReader<TcpStream> {
    let stream = TcpStream::connect(app.address.trim_start_matches("http://")).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    BufReader::new(stream)
}

/// Sends `GET /health/live` on the connection and reads the whole answer: its status, or `None` when the server
/// had closed the connection.
fn live(stream: &mut BufReader<TcpStream>) -> Option<u16> {
    stream.get_mut().write_all(b"GET /health/live HTTP/1.1\r\nHost: canvass.test\r\n\r\n").ok()?;
    let mut status_line = String::new();
    if stream.read_line(&mut status_line).ok()? == 0 {
        return None;
    }
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if stream.read_line(&mut header).ok()? == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            }
        }
    }
    stream.read_exact(&mut vec![0; length]).ok()?;
    status_line.split_whitespace().nth(1).and_then(|status| status.parse().ok())
}

/// Two requests on one connection with `idle` between them: the statuses, `None` where the connection was closed.
async fn two_requests(app: &TestApp, idle: Duration) -> (Option<u16>, Option<u16>) {
    let mut stream = connect(app);
    tokio::task::spawn_blocking(move || {
        let first = live(&mut stream);
        std::thread::sleep(idle);
        (first, live(&mut stream))
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn a_connection_idle_for_longer_than_five_seconds_serves_the_next_request() {
    let app = spawn_app().await;
    // actix's own keep-alive, 5 s, closed the connection in between.
    let answered = two_requests(&app, Duration::from_secs(6)).await;
    assert_eq!(answered, (Some(200), Some(200)), "the same connection, after six idle seconds");
}

#[tokio::test]
async fn keep_alive_closes_a_connection_idle_for_longer_than_it() {
    let app = spawn_app_with(|settings| settings.keep_alive = Duration::from_secs(1)).await;
    let answered = two_requests(&app, Duration::from_secs(3)).await;
    assert_eq!(answered, (Some(200), None), "closed by the server after a second idle");
}
