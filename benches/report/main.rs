//! Benchmark: a survey's report at 100,000 answer sets. Run with `just bench --bench report`.
//!
//! The benchmark starts its own PostgreSQL cluster and the real `canvass serve` (release build) on it, fills a
//! survey of six pages (32 items: five of each answering type, a Matrix and a Ranking) with `BENCH_INSIGHT_SETS`
//! answer sets (default 100,000) as the insight benchmark does (`../insight/fill.rs`), and measures in one run the
//! report as PDF and as HTML and one item's chart as PNG: the median time per request (target for the PDF: under
//! 2 s), the server's peak resident memory during each (target: at most 96 MiB), and the statements one report
//! runs (captured from the server log) run alone by pgbench with one client, so the rendering's share shows as
//! the ratio.
//!
//! Each side runs `BENCH_ROUNDS` times (default 5) after one warm-up; the medians are compared. pgbench runs for
//! `BENCH_SECONDS` (default 10). Needs `psql` and `pgbench`. With `BENCH_HOLD=<file>` it writes the database's URL,
//! the server's address, the key and the survey into the file once filled, and waits until the file is removed.

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
#[path = "../insight/fill.rs"]
#[expect(dead_code)]
mod fill;
#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;
#[path = "../read_paths/pgbench.rs"]
mod pgbench;

use std::path::PathBuf;
use std::time::Instant;

use cluster::Cluster;
use support::{canvass_binary, env_number, memory, reset_peak, serve};

/// Six pages: 32 items.
const PAGES: usize = 6;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// A GET of the API with the key: (status, bytes).
fn get(runtime: &tokio::runtime::Runtime, client: &reqwest::Client, url: &str, key: &str) -> (u16, usize) {
    runtime.block_on(async {
        let response = client.get(url).header("X-API-KEY", key).send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.bytes().await.unwrap().len())
    })
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
    let data = fill::fill(&base, &database_url, count, PAGES);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let survey = data.survey;
    let rating = data.items.iter().find(|(_, kind)| kind == "Rating").unwrap().0;
    if let Some(hold) = std::env::var_os("BENCH_HOLD") {
        // For a look at the data: the database, the server and the key stay until the file named is removed.
        std::fs::write(&hold, format!("{database_url}\n{base}\n{}\n{survey}\n", data.key)).unwrap();
        while std::path::Path::new(&hold).exists() {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-report-{}", std::process::id()));

    let mut measured = Vec::new();
    for (name, path) in [
        ("report as PDF", format!("/surveys/{survey}/report?format=pdf")),
        ("report as HTML", format!("/surveys/{survey}/report?format=html")),
        ("one chart as PNG", format!("/surveys/{survey}/items/{rating}/chart?format=png")),
    ] {
        let url = format!("{base}/api/v1{path}");
        let (status, bytes) = get(&runtime, &client, &url, &data.key);
        assert_eq!(status, 200, "GET {path}");
        let statements = capture::capture(&mut admin, &cluster.log, name, || {
            get(&runtime, &client, &url, &data.key);
        });
        reset_peak(pid);
        let times: Vec<f64> = (0..rounds)
            .map(|_| {
                let started = Instant::now();
                get(&runtime, &client, &url, &data.key);
                started.elapsed().as_secs_f64()
            })
            .collect();
        let peak = memory(pid).1;
        let script = pgbench::script(&statements);
        let database = pgbench::run(&database_url, &script, 1, seconds, &work.join(name)).map(|load| 1.0 / load.rate);
        measured.push((name, bytes, statements.len(), median(times), database, peak));
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&work);

    println!("report at {count} answer sets of {} items, medians of {rounds} rounds:", data.items.len());
    println!(
        "  {:<18} {:>9} {:>10} {:>9} {:>9} {:>7} {:>9}  target (PDF < 2,000 ms; peak ≤ 96 MiB)",
        "request", "KiB", "statements", "HTTP ms", "SQL ms", "ratio", "peak MiB"
    );
    for (name, bytes, statements, service, database, peak) in measured {
        let time_verdict = if !name.contains("PDF") || service < 2.0 { "" } else { "time not met " };
        let memory_verdict = if peak <= 96.0 { "met" } else { "memory not met" };
        let (sql, ratio) = match database {
            Ok(database) => (format!("{:.1}", database * 1e3), format!("{:.2}", service / database)),
            Err(error) => (error, String::new()),
        };
        println!(
            "  {name:<18} {:>9.1} {statements:>10} {:>9.1} {sql:>9} {ratio:>7} {peak:>9.1}  {time_verdict}{memory_verdict}",
            bytes as f64 / 1024.0,
            service * 1e3
        );
    }
}
