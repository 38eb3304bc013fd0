//! Two `canvass worker` processes keeping one `DELIVERY_RATE` between them (the relay's clock says so: the sink
//! records when each message arrived), and `canvass worker` alone serving its metrics on `METRICS_BIND` (bound
//! before anything is sent; an option of `worker` only).

use std::time::{Duration, Instant, SystemTime};

use canvass_sinks::SmtpSink;

use crate::harness::{contacts, spawn_app, RunsBinary, PUBLIC};

#[tokio::test]
async fn two_workers_keep_one_shared_rate() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let base = app.activated(&contacts("paced", 150)).await;
    let envs = [("SMTP_URL", sink.url.as_str()), ("DELIVERY_CONCURRENCY", "2"), ("DELIVERY_RATE", "10")];
    let mut workers = [app.worker(&["--public-url", PUBLIC], &envs), app.worker(&["--public-url", PUBLIC], &envs)];
    app.all_sent(&base, Duration::from_secs(90)).await;
    for running in &mut workers {
        running.kill().unwrap();
        running.wait().unwrap();
    }
    let mut arrivals: Vec<SystemTime> = sink.received().iter().map(|received| received.at).collect();
    arrivals.sort_unstable();
    assert_eq!(arrivals.len(), 150, "every message once");
    // In any 10 seconds at most DELIVERY_RATE x 10 + DELIVERY_CONCURRENCY per worker.
    let most = 10 * 10 + 2 * 2;
    for (first, start) in arrivals.iter().enumerate() {
        let window = arrivals[first..]
            .iter()
            .take_while(|at| at.duration_since(*start).is_ok_and(|after| after < Duration::from_secs(10)))
            .count();
        assert!(window <= most, "{window} messages in the 10 s from arrival {first}");
    }
    let span = arrivals[149].duration_since(arrivals[0]).unwrap();
    assert!(span < Duration::from_secs(40), "the pace is kept, not starved: {span:?} for 150 at 10 a second");
}

#[tokio::test]
async fn a_worker_alone_serves_its_metrics_on_metrics_bind() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    let base = app.activated(&contacts("metered", 3)).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let bind = format!("127.0.0.1:{port}");
    let envs = [("SMTP_URL", sink.url.as_str()), ("METRICS_BIND", bind.as_str()), ("METRICS_TOKEN", "scrape-me")];
    let mut worker = app.worker(&["--public-url", PUBLIC], &envs);
    app.all_sent(&base, Duration::from_secs(30)).await;
    let client = reqwest::Client::new();
    let url = format!("http://{bind}/metrics");
    let started = Instant::now();
    let anonymous = loop {
        match client.get(&url).send().await {
            Ok(response) => break response,
            Err(_) if started.elapsed() < Duration::from_secs(10) => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(error) => panic!("the worker serves no metrics on {bind}: {error}"),
        }
    };
    assert_eq!(anonymous.status().as_u16(), 401, "METRICS_TOKEN guards the worker's metrics too");
    let scraped = client.get(&url).bearer_auth("scrape-me").send().await.unwrap();
    assert_eq!(scraped.status().as_u16(), 200);
    let text = scraped.text().await.unwrap();
    worker.kill().unwrap();
    worker.wait().unwrap();
    for line in [
        "canvass_delivery_messages_total{channel=\"email\",outcome=\"sent\"} 3",
        "canvass_relay_up 1",
        "canvass_outbox_held 0",
        "canvass_outbox_pending 0",
        "canvass_delivery_pace_per_second inf",
    ] {
        assert!(text.lines().any(|served| served == line), "{line} in:\n{text}");
    }
}

#[tokio::test]
async fn a_worker_whose_metrics_address_is_taken_stops_before_sending() {
    let app = spawn_app().await;
    let sink = SmtpSink::start("", "");
    app.activated(&contacts("unmetered", 2)).await;
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let bind = taken.local_addr().unwrap().to_string();
    let envs = [("SMTP_URL", sink.url.as_str()), ("METRICS_BIND", bind.as_str())];
    let worker = app.worker(&["--public-url", PUBLIC], &envs);
    let output = tokio::task::spawn_blocking(move || worker.wait_with_output()).await.unwrap().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the start fails: {stderr}");
    assert!(stderr.contains(&format!("METRICS_BIND {bind}")), "the error names the address: {stderr}");
    assert_eq!(sink.count(), 0, "nothing was sent");
}

#[test]
fn serve_does_not_offer_the_workers_metrics_address() {
    let help = |command: &str| {
        let output = std::process::Command::new(crate::harness::canvass_binary()).args([command, "--help"]).output();
        String::from_utf8(output.unwrap().stdout).unwrap()
    };
    assert!(help("worker").contains("--metrics-bind"));
    assert!(!help("serve").contains("--metrics-bind"), "serve serves /metrics on its own port");
}
