//! Many servers, one service: three `canvass serve` and two `canvass worker` processes over one database, sharing
//! their limits through one Redis (`LIMITS_URL`), the servers behind a round-robin proxy. What the contract lets
//! one server let through, the three let through together: a key's burst, an open link's starts, guesses at links;
//! 2,000 invitations arrive once each at the shared `DELIVERY_RATE`. Redis killed: the API answers, unknown links
//! answer 503 with `Retry-After`, known ones open, the gauge says so; Redis back: the limits count again, without a
//! restart.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use canvass_sinks::SmtpSink;
use canvass_testdb::TestRedis;
use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{canvass_binary, contacts, spawn_app, RunsBinary, TestApp, PUBLIC};
use crate::round_robin::RoundRobin;

/// RATE_LIMIT_PER_KEY of the servers: a burst of 20.
const PER_SECOND: u32 = 2;
const BURST: u32 = 10 * PER_SECOND;
/// OPEN_LINK_STARTS_PER_MINUTE of the servers.
const STARTS: usize = 6;
/// DELIVERY_RATE of every process.
const RATE: usize = 150;
const INVITATIONS: usize = 2_000;

/// Processes killed (and waited for) when the test ends, however it ends.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for child in &mut self.0 {
            drop(child.kill());
            drop(child.wait());
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `canvass serve` on `app`'s database at `address`.
fn serve(app: &TestApp, address: SocketAddr, envs: &[(&str, &str)]) -> Child {
    Command::new(canvass_binary())
        .arg("serve")
        .env("DATABASE_URL", app.db.url())
        .env("BIND", address.to_string())
        .envs(envs.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// A client without a pool: every request a connection of its own, so the proxy hands each to the next server.
fn one_request_per_connection() -> reqwest::Client {
    reqwest::Client::builder().pool_max_idle_per_host(0).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

async fn wait_until_ready(client: &reqwest::Client, servers: &[SocketAddr]) {
    let started = Instant::now();
    for server in servers {
        let url = format!("http://{server}/health/ready");
        while !client.get(&url).send().await.is_ok_and(|answer| answer.status() == StatusCode::OK) {
            assert!(started.elapsed() < Duration::from_secs(60), "{server} did not get ready");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

async fn status(request: reqwest::RequestBuilder) -> StatusCode {
    request.send().await.unwrap().status()
}

/// The value of the gauge `canvass_limits_backend_up` on `server`.
async fn backend_up(client: &reqwest::Client, server: SocketAddr) -> String {
    let text = client.get(format!("http://{server}/metrics")).send().await.unwrap().text().await.unwrap();
    let line = text.lines().find(|line| line.starts_with("canvass_limits_backend_up ")).unwrap_or_default();
    line.rsplit(' ').next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn three_servers_and_two_workers_keep_one_services_limits_and_pace() {
    let app = spawn_app().await;
    let mut redis = TestRedis::start();
    let sink = SmtpSink::start("", "");
    let servers: Vec<SocketAddr> = (0..3).map(|_| SocketAddr::from(([127, 0, 0, 1], free_port()))).collect();
    let proxy = RoundRobin::start(servers.clone()).await;
    let (limits, rate, starts) = (redis.url(), RATE.to_string(), STARTS.to_string());
    let per_second = PER_SECOND.to_string();
    let delivery = [
        ("LIMITS_URL", limits.as_str()),
        ("SMTP_URL", sink.url.as_str()),
        ("DELIVERY_RATE", rate.as_str()),
        ("DELIVERY_CONCURRENCY", "2"),
    ];
    let mut serving = delivery.to_vec();
    serving.extend([
        ("PUBLIC_URL", proxy.url.as_str()),
        ("RATE_LIMIT_PER_KEY", per_second.as_str()),
        ("OPEN_LINK_STARTS_PER_MINUTE", starts.as_str()),
        ("COOKIE_KEY", "c2FtZS1rZXktZm9yLWV2ZXJ5LXNlcnZlci1vZi10aGUtc2VydmljZS1zaXh0eS1mb3VyLWJ5dGVzLWF0LWxlYXN0IQ=="),
        ("RETENTION_INTERVAL", "0"),
        ("WORKERS", "1"),
    ]);
    let mut processes = Processes(servers.iter().map(|server| serve(&app, *server, &serving)).collect());
    processes.0.extend((0..2).map(|_| app.worker(&["--public-url", PUBLIC], &delivery)));
    let client = one_request_per_connection();
    wait_until_ready(&client, &servers).await;

    // A key's burst holds across the three, within 10% (and what the rate refilled meanwhile).
    let surveys = format!("{}/api/v1/surveys", proxy.url);
    let began = Instant::now();
    let mut let_through = 0u32;
    for _ in 0..3 * BURST {
        let answer = client.get(&surveys).header("X-API-KEY", &app.key).send().await.unwrap();
        let_through += u32::from(answer.status() == StatusCode::OK);
    }
    let refilled = (began.elapsed().as_secs_f64() * f64::from(PER_SECOND)).ceil() as u32;
    assert!(let_through >= BURST, "{let_through} of a burst of {BURST}");
    assert!(f64::from(let_through) <= f64::from(BURST + refilled) * 1.1, "{let_through}: each server its own burst?");

    // An open link's starts from one address: the limit holds across the three.
    let survey = app.post("/surveys", json!({"name": "Town hall"})).await.expect(201)["surveyId"].as_i64().unwrap();
    let link = app.post(&format!("/surveys/{survey}/sendouts"), json!({"name": "Poster", "type": "LINK"})).await;
    let link = link.expect(201);
    let base = format!("/surveys/{survey}/sendouts/{}", link["sendoutId"]);
    app.post(&format!("{base}/activate"), json!({})).await.expect(200);
    let handle = link["openLink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let start = format!("{}/s/{handle}", proxy.url);
    let mut started = Vec::new();
    for _ in 0..=STARTS {
        started.push(client.post(&start).send().await.unwrap());
    }
    let statuses: Vec<u16> = started.iter().map(|answer| answer.status().as_u16()).collect();
    assert_eq!(statuses, [303, 303, 303, 303, 303, 303, 429], "{STARTS} starts a minute from one address");
    let known = started[0].headers()["location"].to_str().unwrap().to_owned();

    // Made-up links: 31 counted across the three, then 429 (as on one server).
    let made_up = |n: usize| format!("{}/r/{:040x}", proxy.url, 0xbad_0000 + n);
    let mut guesses = Vec::new();
    for n in 0..33 {
        guesses.push(status(client.get(made_up(n))).await.as_u16());
    }
    assert_eq!(guesses.iter().position(|status| *status == 429), Some(31), "30 a minute, then 429: {guesses:?}");
    assert!(guesses[..31].iter().all(|status| *status == 404) && guesses[32] == 429, "{guesses:?}");

    // 2,000 invitations through five delivering processes, once each, at the shared rate.
    let invitations = app.activated(&contacts("invited", INVITATIONS)).await;
    app.all_sent(&invitations, Duration::from_secs(120)).await;
    let mut arrivals: Vec<SystemTime> = sink.received().iter().map(|received| received.at).collect();
    arrivals.sort_unstable();
    let mut recipients: Vec<String> =
        sink.messages().iter().map(|m| crate::harness::header(m, "To:").to_owned()).collect();
    recipients.sort_unstable();
    recipients.dedup();
    assert_eq!((arrivals.len(), recipients.len()), (INVITATIONS, INVITATIONS), "every invitation once");
    // In any 10 seconds the shared pace grants at most DELIVERY_RATE x 10 + the bucket's DELIVERY_CONCURRENCY,
    // whatever order the five processes' takes reach its row in. The relay's clock sees hand-overs, not grants: five
    // processes on two cores hand over up to a second after their grant (a session opening, a scheduler's turn), so
    // a second's worth more, and a round's slots per process, may arrive together.
    let most = RATE * 10 + 2 + RATE + 5 * 2;
    for (first, since) in arrivals.iter().enumerate() {
        let within =
            arrivals[first..].iter().take_while(|at| at.duration_since(*since).is_ok_and(|d| d.as_secs() < 10));
        let within = within.count();
        assert!(within <= most, "{within} invitations in the 10 s from arrival {first}");
    }
    let span = arrivals[INVITATIONS - 1].duration_since(arrivals[0]).unwrap();
    // At least the time the pace needs for all but the bursts, less two seconds of hand-over latency at the ends
    // (five processes at DELIVERY_RATE each would take under 3 s).
    let least = Duration::from_secs_f64((INVITATIONS - 5 * 2 - 2 * RATE) as f64 / RATE as f64);
    assert!(span >= least, "{span:?} for {INVITATIONS} at {RATE} a second: the rate is shared");

    // Redis goes away: the API answers, unknown links 503 with Retry-After, known ones open; the gauge says so.
    redis.stop();
    let key = app.key.clone();
    for _ in 0..3 {
        assert_eq!(status(client.get(&surveys).header("X-API-KEY", &key)).await, StatusCode::OK);
    }
    for server in &servers {
        let unknown = client.get(format!("http://{server}/r/{:040x}", 0xdead)).send().await.unwrap();
        assert_eq!(unknown.status(), StatusCode::SERVICE_UNAVAILABLE, "{server}");
        assert!(unknown.headers().contains_key("retry-after"));
        let opened = client.get(format!("http://{server}{known}")).send().await.unwrap();
        assert_eq!(opened.status(), StatusCode::OK, "a known link opens on {server}");
        assert_eq!(backend_up(&client, *server).await, "0", "{server}");
    }

    // Redis back: guesses count again without a restart (an unknown link is a 404 again, then the gauge is 1).
    redis.resume();
    let waited = Instant::now();
    while status(client.get(made_up(100))).await != StatusCode::NOT_FOUND {
        assert!(waited.elapsed() < Duration::from_secs(20), "the shared limits did not resume");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for server in &servers {
        while status(client.get(format!("http://{server}/r/{:040x}", 0xbeef))).await != StatusCode::NOT_FOUND {
            assert!(waited.elapsed() < Duration::from_secs(20), "{server} did not resume");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(backend_up(&client, *server).await, "1", "{server}");
    }
}

#[test]
fn an_unparsable_limits_url_stops_serve_and_worker_at_start_naming_it() {
    for command in ["serve", "worker"] {
        let output = Command::new(canvass_binary())
            .arg(command)
            .env("DATABASE_URL", "postgres://127.0.0.1:1/none")
            .env("LIMITS_URL", "http://user:hunter2@redis.example")
            .env("BIND", "127.0.0.1:0")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{command}");
        assert!(stderr.contains("LIMITS_URL") && !stderr.contains("hunter2"), "{command}: {stderr}");
    }
}
