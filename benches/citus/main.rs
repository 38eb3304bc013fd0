//! Benchmark: the same paths on a three-node Citus cluster and on plain PostgreSQL, in one run, each as a ratio
//! Citus / plain (docs/scaling.md, "Measured on a real cluster"). Run with `just bench --bench citus`.
//!
//! It starts a plain PostgreSQL cluster (scripts/pg-cluster.sh) and a Citus coordinator with two workers
//! (scripts/citus.sh, the same server settings plus Citus), makes one database on each (on Citus: on every node,
//! migrated and distributed with docs/citus-distribute.sql), and on each runs the release `canvass serve` and
//! `canvass worker`:
//! 1. a batch of 1,000 respondents (`POST .../respondents/batch`), the median of `BENCH_ROUNDS` (default 10);
//! 2. `GET /surveys/{id}` and `GET /surveys/{id}/questions` (4 pages of 5 items) under wrk, `BENCH_CONNECTIONS`
//!    connections (default 8) for `BENCH_SECONDS` (default 5);
//! 3. a delivery round of `BENCH_MESSAGES` invitations (default 20,000) to Postfix's `smtp-sink`, with
//!    `BENCH_CONCURRENCY` SMTP sessions (default 8), from the worker's start to the last message sent.
//!
//! Needs citus.so (`scripts/citus.sh install`; without it the benchmark says so and exits), wrk and Postfix.

#![expect(clippy::unwrap_used)]

/// The benches' shared support (`benches/support.rs`), reached from this folder.
#[path = ".."]
mod benches {
    #[expect(dead_code)]
    pub mod support;
}
use benches::support;

#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;

mod nodes;

use std::path::Path;
use std::time::{Duration, Instant};

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use canvass_testdb::TestDatabase;
use load::{Load, Request};
use serde_json::{json, Value};
use support::smtp::{postfix_tool, start_sink};
use support::worker::canvass_worker;
use support::{canvass_binary, serve, survey_body};

/// One backend's figures.
struct Figures {
    batch: Duration,
    survey: Load,
    tree: Load,
    delivery: f64,
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    if !nodes::citus_installed() {
        println!(
            "citus.so is not installed: see docs/scaling.md, \"Testing on a real Citus cluster\"; nothing measured"
        );
        return;
    }
    let binary = canvass_binary();
    let smtp_sink = postfix_tool("smtp-sink");
    let (_sink, sink_port) = start_sink(&smtp_sink);
    let plain = nodes::Nodes::plain();
    let citus = nodes::Nodes::citus();
    let work = std::env::temp_dir().join(format!("canvass-bench-citus-{}", std::process::id()));
    let figures = [&plain, &citus].map(|nodes| measure(&binary, nodes, sink_port, &work));
    let _ = std::fs::remove_dir_all(&work);

    let [p, c] = &figures;
    let messages = env_number("BENCH_MESSAGES", 20_000);
    println!("Citus (coordinator + 2 workers, {} shards a table) against plain PostgreSQL, one run:", nodes::SHARDS);
    println!("  {:<40} {:>14} {:>14} {:>12}", "path", "plain", "Citus", "Citus/plain");
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "  {:<40} {:>11.1} ms {:>11.1} ms {:>12.2}",
        "batch of 1,000 respondents (median)",
        ms(p.batch),
        ms(c.batch),
        c.batch.as_secs_f64() / p.batch.as_secs_f64()
    );
    for (name, plain, citus) in [("GET survey", &p.survey, &c.survey), ("GET questions (tree)", &p.tree, &c.tree)] {
        println!(
            "  {:<40} {:>10.0} r/s {:>10.0} r/s {:>12.2}   (time per request; p99 {:.1} / {:.1} ms)",
            name,
            plain.rate,
            citus.rate,
            plain.rate / citus.rate,
            plain.p99_ms,
            citus.p99_ms
        );
    }
    println!(
        "  {:<40} {:>10.0} m/s {:>10.0} m/s {:>12.2}   (time per message)",
        format!("delivery of {messages} to smtp-sink"),
        p.delivery,
        c.delivery,
        p.delivery / c.delivery
    );
}

/// Runs every path on a fresh database of `nodes`.
fn measure(binary: &Path, nodes: &nodes::Nodes, sink_port: u16, work: &Path) -> Figures {
    let rounds = env_number("BENCH_ROUNDS", 10);
    let connections = env_number("BENCH_CONNECTIONS", 8);
    let seconds = env_number("BENCH_SECONDS", 5) as u64;
    let db = TestDatabase::on(&nodes.coordinator, nodes.workers.clone());
    let (server, base) = serve(binary, db.url());
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let key = db.store().with_uow(create).unwrap().api_key.secret().to_owned();
    let api = format!("{base}/api/v1");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let post = |path: String, body: Value| -> Value {
        let request = client.post(format!("{api}{path}")).header("X-API-KEY", &key).json(&body);
        let response = runtime.block_on(request.send()).unwrap();
        assert!(response.status().is_success(), "POST {path}: {}", response.status());
        runtime.block_on(response.json()).unwrap()
    };
    let survey = post("/surveys".into(), survey_body("Bench"))["surveyId"].as_i64().unwrap();
    let sendout_body = json!({"name": "Wave", "type": "EMAIL", "sendDate": "2030-01-01",
        "sender": "hr@bench.example", "subject": "Your view", "message": "Hello: {{surveyLink}}"});

    let mut batches: Vec<Duration> = (0..=rounds)
        .map(|round| {
            let sendout = post(format!("/surveys/{survey}/sendouts"), sendout_body.clone())["sendoutId"].clone();
            let people: Vec<Value> = (0..1000)
                .map(|n| json!({"contactDetails": format!("person{n}.r{round}@bench.example"), "sendMail": true}))
                .collect();
            let path = format!("/surveys/{survey}/sendouts/{sendout}/respondents/batch");
            let started = Instant::now();
            let added = post(path, json!({"surveyRespondents": people}));
            let elapsed = started.elapsed();
            assert_eq!(added["added"].as_array().unwrap().len(), 1000);
            elapsed
        })
        .skip(1) // the first round warms caches and connections
        .collect();
    batches.sort();

    let get = |path: String, name: &str| {
        let url = format!("{api}{path}");
        let request = Request { method: "GET", url: &url, key: &key, body: None };
        load::wrk(&request, connections, seconds, &work.join(name)).unwrap()
    };
    let survey_load = get(format!("/surveys/{survey}"), "survey");
    let tree = get(format!("/surveys/{survey}/questions"), "tree");
    drop(server);

    let messages = env_number("BENCH_MESSAGES", 20_000);
    let sessions = env_number("BENCH_CONCURRENCY", 8);
    let delivery_db = TestDatabase::on(&nodes.coordinator, nodes.workers.clone());
    let delivery = canvass_worker(binary, sink_port, delivery_db, messages, sessions).total;
    Figures { batch: batches[batches.len() / 2], survey: survey_load, tree, delivery }
}
