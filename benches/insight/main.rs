//! Benchmark: what came back, at 100,000 answer sets. Run with `just bench --bench insight`.
//!
//! The benchmark starts its own PostgreSQL cluster (scripts/pg-cluster.sh) and the real `canvass serve` (release
//! build) on it, fills a survey of twelve items (a Matrix and a Ranking among them) with `BENCH_INSIGHT_SETS` answer sets (default 100,000) from as many
//! respondents of one sendout (`fill.rs`), and measures in one run:
//! 1. the CSV export against PostgreSQL's own `COPY (SELECT ...) TO STDOUT WITH CSV` of the same rows pivoted the
//!    same way, run by psql, as rows per second (target: the export at least half of COPY's rate), and the server's
//!    peak resident memory during each export format (target: at most 64 MiB);
//! 2. the survey's results (whole, broken down by a background label of 20 groups, and filtered by a condition on
//!    the rating) and 3. the sendout's statistics against the statements one request runs (captured from the
//!    server log), run alone by pgbench with one client, as time per request (target: at most twice the SQL).
//!
//! Each side runs `BENCH_ROUNDS` times (default 5) after one warm-up; the medians are compared. pgbench runs for
//! `BENCH_SECONDS` (default 10). Needs `psql` and `pgbench`.

#![expect(clippy::unwrap_used, clippy::expect_used)]

/// The benches' shared support (`benches/support.rs`), reached from this folder.
#[path = ".."]
mod benches {
    #[expect(dead_code)]
    pub mod support;
}
use benches::support;

#[path = "../read_paths/capture.rs"]
mod capture;
#[path = "../read_paths/cluster.rs"]
mod cluster;
mod fill;
#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;
#[path = "../read_paths/pgbench.rs"]
mod pgbench;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cluster::Cluster;
use support::{canvass_binary, env_number, memory, reset_peak, serve};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs `once` after a warm-up `rounds` times; the median of its seconds.
fn timed(rounds: u64, mut once: impl FnMut()) -> f64 {
    once();
    median(
        (0..rounds)
            .map(|_| {
                let started = Instant::now();
                once();
                started.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

/// A GET of the API, its whole body read in the pieces it arrives in: (status, bytes, lines).
struct Api {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
    base: String,
    key: String,
}

impl Api {
    fn get(&self, path: &str) -> (u16, usize, usize) {
        self.runtime.block_on(async {
            let url = format!("{}/api/v1{path}", self.base);
            let mut response = self.client.get(url).header("X-API-KEY", &self.key).send().await.unwrap();
            let status = response.status().as_u16();
            let (mut bytes, mut lines) = (0, 0);
            while let Some(piece) = response.chunk().await.unwrap() {
                bytes += piece.len();
                lines += piece.iter().filter(|b| **b == b'\n').count();
            }
            (status, bytes, lines)
        })
    }
}

/// psql running `sql` with its output thrown away; its lines when `count` (else 0).
fn psql(url: &str, sql: &str, count: bool) -> usize {
    let mut command = Command::new("psql");
    command.args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]);
    if count {
        let output = command.output().expect("psql runs");
        assert!(output.status.success(), "psql: {}", String::from_utf8_lossy(&output.stderr));
        return output.stdout.iter().filter(|b| **b == b'\n').count();
    }
    let status = command.stdout(Stdio::null()).status().expect("psql runs");
    assert!(status.success(), "psql failed");
    0
}

fn main() {
    let count = env_number("BENCH_INSIGHT_SETS", 100_000) as usize;
    let rounds = env_number("BENCH_ROUNDS", 5);
    let seconds = env_number("BENCH_SECONDS", 10);
    let binary = canvass_binary();
    let cluster = Cluster::start();
    let mut admin = cluster.connect();
    cluster::exec(&mut admin, "CREATE DATABASE bench");
    let database_url = cluster.database_url("bench");
    let mut conn = diesel::Connection::establish(&database_url).unwrap();
    canvass_postgres::run_migrations(&mut conn).unwrap();
    let (server, base) = serve(&binary, &database_url);
    let pid = server.0.id();
    let data = fill::fill(&base, &database_url, count, 2);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // A new connection per request: pgbench's runs in between outlast the server's keep-alive.
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let api = Api { runtime, client, base, key: data.key.clone() };
    let (survey, sendout) = (data.survey, data.sendout);

    // 1. Exports, against COPY.
    let export = |query: &str| format!("/surveys/{survey}/answers/export?{query}");
    let copy = fill::copy_sql(&data);
    let copy_lines = psql(&database_url, &copy, true);
    let copy_seconds = timed(rounds, || {
        psql(&database_url, &copy, false);
    });
    let mut exports = Vec::new();
    for (name, query) in [
        ("CSV, codes, ids (as COPY)", "format=csv&values=codes&header=ids"),
        ("CSV, labels, texts", "format=csv"),
        ("XLSX", "format=xlsx"),
        ("JSON Lines", "format=jsonl"),
    ] {
        let path = export(query);
        let (status, bytes, lines) = api.get(&path);
        assert_eq!(status, 200, "GET {path}");
        reset_peak(pid);
        let time = timed(rounds, || {
            api.get(&path);
        });
        exports.push((name, time, bytes, lines, memory(pid).1));
    }

    // 2 and 3. Results and statistics, against their statements alone.
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-insight-{}", std::process::id()));
    let mut aggregates = Vec::new();
    let (label, rating) = (data.label, data.items.iter().find(|(_, kind)| kind == "Rating").unwrap().0);
    for (name, path) in [
        ("results", format!("/surveys/{survey}/results")),
        ("results by team (20 groups)", format!("/surveys/{survey}/results?breakdownBy=bg:{label}")),
        ("results where rating > 6", format!("/surveys/{survey}/results?where={rating}:gt:6")),
        ("statistics", format!("/surveys/{survey}/sendouts/{sendout}/statistics")),
    ] {
        let (status, _, _) = api.get(&path);
        assert_eq!(status, 200, "GET {path}");
        let statements = capture::capture(&mut admin, &cluster.log, name, || {
            api.get(&path);
        });
        let script = pgbench::script(&statements);
        if std::env::var_os("BENCH_SHOW_SQL").is_some() {
            println!("-- {name} --\n{script}");
        }
        let service = timed(rounds, || {
            api.get(&path);
        });
        let database = pgbench::run(&database_url, &script, 1, seconds, &work.join(name)).map(|load| 1.0 / load.rate);
        aggregates.push((name, statements.len(), service, database));
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&work);
    std::thread::sleep(Duration::from_millis(100));

    println!("insight at {count} answer sets of {} items, medians of {rounds} rounds:", data.items.len());
    let copy_rate = count as f64 / copy_seconds;
    println!(
        "  psql COPY ... TO STDOUT WITH CSV: {:.0} ms, {copy_rate:.0} rows/s ({copy_lines} lines)",
        copy_seconds * 1e3
    );
    println!(
        "  {:<28} {:>9} {:>11} {:>9} {:>10} {:>11} {:>8}  target (≥ 0.5 of COPY for CSV; peak ≤ 64 MiB)",
        "export", "ms", "rows/s", "MiB", "lines", "/ COPY", "peak MiB"
    );
    for (name, time, bytes, lines, peak) in &exports {
        let rate = count as f64 / time;
        let ratio = rate / copy_rate;
        let rate_verdict = if !name.starts_with("CSV") || ratio >= 0.5 { "" } else { "rate not met " };
        let memory_verdict = if *peak <= 64.0 { "met" } else { "memory not met" };
        println!(
            "  {name:<28} {:>9.0} {rate:>11.0} {:>9.1} {lines:>10} {ratio:>11.2} {peak:>8.1}  {rate_verdict}{memory_verdict}",
            time * 1e3,
            *bytes as f64 / 1048576.0
        );
    }
    println!(
        "  {:<28} {:>10} {:>11} {:>11} {:>7}  target (≤ 2)",
        "aggregate", "statements", "HTTP ms", "SQL ms", "ratio"
    );
    for (name, statements, service, database) in &aggregates {
        match database {
            Ok(database) => {
                let ratio = service / database;
                let verdict = if ratio <= 2.0 { "met" } else { "not met" };
                println!(
                    "  {name:<28} {statements:>10} {:>11.1} {:>11.1} {ratio:>7.2}  {verdict}",
                    service * 1e3,
                    database * 1e3
                );
            }
            Err(error) => println!("  {name:<28} {statements:>10} {:>11.1} {error}", service * 1e3),
        }
    }
}
