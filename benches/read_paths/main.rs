//! Benchmark: the read paths of the API, and answer posting, under concurrent HTTP load against PostgreSQL's own
//! speed on the same SQL, in one run. Run with `just bench --bench read_paths`.
//!
//! The benchmark starts its own PostgreSQL cluster (scripts/pg-cluster.sh) and the real `canvass serve` (release
//! build) on it, and fills one survey of 4 pages of 5 items with `BENCH_ANSWER_SETS` answer sets (default 20,000)
//! and a sendout of `BENCH_RESPONDENTS` respondents (default 5,000). For each endpoint it then
//! 1. captures the statements one request runs, with their parameters, from the cluster's statement log;
//! 2. runs wrk against the endpoint with `BENCH_CONNECTIONS` connections (default 32) for `BENCH_SECONDS`
//!    (default 10), the API key cached;
//! 3. runs pgbench (`-M prepared`, as many clients) on exactly those statements for as long;
//!
//! and reports both rates, their ratio and the 99th percentile latencies. GET survey and the question tree are also
//! measured against a bare actix-web + diesel server on the adapter's own statements (`bare.rs`, a process of its
//! own): straight to `web::block`, behind a FIFO gate, and on Canvass's own store lane, in `BENCH_ANCHOR_ROUNDS`
//! alternating rounds (default 3; the medians are reported): what remains between Canvass and the anchor on the same
//! lane is Canvass's own cost per request. While
//! each endpoint is under load it reads the server's peak resident memory (VmHWM, reset before the load), and
//! holds the highest to the target of 64 MiB. Needs `wrk` and `pgbench`.
//! `BENCH_DB_VIA=socket` and `BENCH_DB_SSLMODE` choose how the servers and pgbench connect (connection.rs).
//! `BENCH_ONLY=survey,questions` measures only the endpoints whose name contains `survey` or `questions`.
//! A third survey of 200 items (20 Matrix items of 10 rows among them) gives two more: its question tree, and the
//! respondent page of its first page (ten Matrix items), whose median latency is held to 5 ms.
//! A survey of 100 items in one language and the same survey in twelve give two more respondent pages, the second
//! shown in Finnish, whose medians are held to 1.2x of each other; and a PUT of a translation of all 100 items,
//! whose median is held to 50 ms. A page of 30 items with a `displayWhen` each, in a survey of 20 rules, against
//! the same page without logic (`logic.rs`; `BENCH_ONLY=logic`), held to 1.2x. A completion posted to a survey of
//! three quotas that it meets, against one to a survey without quotas (`BENCH_ONLY=POST`), held to 1.3x.

#![expect(clippy::unwrap_used, clippy::expect_used)]

/// The benches' shared support (`benches/support.rs`), reached from this folder.
#[path = ".."]
mod benches {
    #[expect(dead_code)]
    pub mod support;
}
use benches::support;

mod anchor;
mod bare;
mod capture;
mod cluster;
mod connection;
mod cpu;
mod fill;
mod languages;
mod load;
mod logic;
mod pgbench;

use std::path::PathBuf;
use std::time::Duration;

use cluster::Cluster;
use load::{Load, Request};
use support::{canvass_binary, env_number, memory, reset_peak, serve};

/// The figures of one endpoint.
struct Figures {
    name: &'static str,
    statements: usize,
    service: Result<Load, String>,
    database: Result<Load, String>,
    /// CPU µs per request under wrk: the server's and PostgreSQL's; then PostgreSQL's per pgbench transaction.
    cpu: [f64; 3],
    /// The server's peak resident memory (MiB) while the endpoint was under load.
    peak: f64,
}

/// CPU µs per request of `during` spent by the server (`server` pid) and by PostgreSQL, with the load's rate.
fn measured<T>(
    server: Option<u32>,
    postmaster: u32,
    seconds: u64,
    during: impl FnOnce() -> Result<Load, T>,
) -> (Result<Load, T>, [f64; 2]) {
    let before = (server.map_or(0.0, cpu::process), cpu::postgres(postmaster));
    let load = during();
    // Backends that exited are counted once the postmaster has reaped them.
    std::thread::sleep(Duration::from_millis(200));
    let after = (server.map_or(0.0, cpu::process), cpu::postgres(postmaster));
    let requests = load.as_ref().map_or(f64::NAN, |l| l.rate * seconds as f64);
    let per_request = |spent: f64| spent / requests * 1e6;
    let cpu = [per_request(after.0 - before.0), per_request(after.1 - before.1)];
    (load, cpu)
}

fn show(load: &Result<Load, String>) -> (String, String) {
    match load {
        Ok(load) => (format!("{:.0}", load.rate), format!("{:.1}", load.p99_ms)),
        Err(_) => ("-".into(), "-".into()),
    }
}

fn main() {
    bare::serve_if_asked();
    let seconds = env_number("BENCH_SECONDS", 10);
    let connections = env_number("BENCH_CONNECTIONS", 32) as usize;
    let answer_sets = env_number("BENCH_ANSWER_SETS", 20_000) as usize;
    let respondents = env_number("BENCH_RESPONDENTS", 5_000) as usize;
    let binary = canvass_binary();
    let cluster = Cluster::start();
    let mut admin = cluster.connect();
    cluster::exec(&mut admin, "CREATE DATABASE bench");
    let database_url = cluster.database_url("bench");
    let mut conn = diesel::Connection::establish(&database_url).unwrap();
    canvass_postgres::run_migrations(&mut conn).unwrap();
    let load_url = connection::load_url(&cluster, "bench");
    let (server, base) = serve(&binary, &load_url);
    let pid = server.0.id();
    let data = fill::fill(&base, &database_url, answer_sets, respondents);
    let (anchor_server, anchor_base) = bare::start(&load_url, data.account);
    let anchor_pid = anchor_server.0.id();
    let rounds = env_number("BENCH_ANCHOR_ROUNDS", 3).max(1) as usize;
    let mut anchored = Vec::new();
    let api = format!("{base}/api/v1");
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let wanted = |name: &str| only.split(',').any(|part| name.contains(part));
    let endpoints: Vec<_> = fill::endpoints(&data).into_iter().filter(|e| wanted(e.name)).collect();
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-read-{}", std::process::id()));

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    // A new connection per request: the loads in between outlast the server's keep-alive.
    let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let mut figures = Vec::new();
    let postmaster = cpu::postmaster_of(capture::backend_pid(&mut admin));
    for endpoint in &endpoints {
        let url = if endpoint.page { format!("{base}{}", endpoint.path) } else { format!("{api}{}", endpoint.path) };
        let send = || {
            let mut request = client.request(endpoint.method.parse().unwrap(), &url).header("X-API-KEY", &data.key);
            if let Some(body) = &endpoint.body {
                request = request.header("Content-Type", "application/json").body(body.clone());
            }
            let response = runtime.block_on(request.send()).unwrap();
            assert!(response.status().is_success(), "{} {}: {}", endpoint.method, endpoint.path, response.status());
            runtime.block_on(response.bytes()).unwrap();
        };
        send(); // warm: the key is cached and the statements prepared on a connection
        let statements = capture::capture(&mut admin, &cluster.log, endpoint.name, send);
        if std::env::var_os("BENCH_SHOW_SQL").is_some() {
            println!("-- {} --\n{}", endpoint.name, pgbench::script(&statements));
        }
        let request = Request { method: endpoint.method, url: &url, key: &data.key, body: endpoint.body.as_deref() };
        let dir = work.join(endpoint.name);
        reset_peak(pid);
        let (service, [server_cpu, database_cpu]) = if endpoint.anchored {
            let same_json = |target: &str| {
                let url = format!("{anchor_base}/{target}/api/v1{}", endpoint.path);
                let response = runtime.block_on(client.get(&url).send()).unwrap();
                assert!(response.status().is_success(), "the anchor at {url}: {}", response.status());
                runtime.block_on(response.bytes()).unwrap()
            };
            let ours = runtime.block_on(client.get(&url).header("X-API-KEY", &data.key).send()).unwrap();
            let ours = runtime.block_on(ours.bytes()).unwrap();
            let same =
                anchor::TARGETS.iter().filter_map(|target| target.prefix).all(|prefix| same_json(prefix) == ours);
            assert!(same, "{}: not the same JSON", endpoint.name);
            let mut samples: [Vec<anchor::Sample>; 4] = Default::default();
            for _ in 0..rounds {
                for (target, samples) in anchor::TARGETS.iter().zip(&mut samples) {
                    let (url, pid) = match target.prefix {
                        None => (url.clone(), pid),
                        Some(prefix) => (format!("{anchor_base}/{prefix}/api/v1{}", endpoint.path), anchor_pid),
                    };
                    let request = Request { url: &url, ..request };
                    let (load, cpu) =
                        measured(Some(pid), postmaster, seconds, || load::wrk(&request, connections, seconds, &dir));
                    samples.push(anchor::Sample { load: load.unwrap(), cpu });
                }
            }
            let figures = anchor::Figures::of(endpoint.name, samples);
            let canvass = figures.targets[0];
            anchored.push(figures);
            (Ok(canvass.load), canvass.cpu)
        } else {
            measured(Some(pid), postmaster, seconds, || load::wrk(&request, connections, seconds, &dir))
        };
        let (_, peak) = memory(pid);
        let script = pgbench::script(&statements);
        let (database, [_, pgbench_cpu]) =
            measured(None, postmaster, seconds, || pgbench::run(&load_url, &script, connections, seconds, &dir));
        let cpu = [server_cpu, database_cpu, pgbench_cpu];
        figures.push(Figures { name: endpoint.name, statements: statements.len(), service, database, cpu, peak });
    }
    // Two respondent pages in alternating rounds; the line that reports the second against the first (≤ 1.2x).
    let compare = |base_path: &str, measured_path: &str, what: &str, against: &str| {
        let page = |path: &str| format!("{base}{path}");
        let request = |url| Request { method: "GET", url, key: &data.key, body: None };
        let (first, second) = (page(base_path), page(measured_path));
        let rounds = env_number("BENCH_LANGUAGE_ROUNDS", 5).max(1) as usize;
        match languages::medians(&request(&first), &request(&second), rounds, connections, seconds, &work) {
            Ok((first, second)) => {
                let ratio = second / first;
                let verdict = if ratio <= 1.2 { "met" } else { "not met" };
                format!(
                    "  {what}: median p50 of {rounds} alternating rounds {second:.2} ms, {against} {first:.2} ms: \
                     {ratio:.2}x; target ≤ 1.2x: {verdict}"
                )
            }
            Err(error) => format!("  {what} against {against}: {error}"),
        }
    };
    let languages = (wanted("GET page, 1 language") && wanted("GET page, 12 languages")).then(|| {
        compare(
            &data.languages.one_page,
            &data.languages.twelve_page,
            "the first page (20 of 100 items) in Finnish of a survey in 12 languages",
            "the same page of the survey in one language",
        )
    });
    let logic = wanted("GET page with logic").then(|| {
        compare(
            &data.logic.plain,
            &data.logic.with_logic,
            "a page of 30 items, each with a displayWhen of three conditions, in a survey of 20 rules",
            "the same page without logic",
        )
    });
    drop(server);
    drop(anchor_server);
    let _ = std::fs::remove_dir_all(&work);

    println!(
        "read paths at {connections} connections, {seconds} s each; {answer_sets} answer sets, {respondents} \
         respondents (requests or transactions per second, p99 in ms); servers and pgbench connect to {load_url}:"
    );
    println!(
        "  {:<24} {:>10} {:>10} {:>9} {:>10} {:>9} {:>7}  target (≥ 0.5, p99 < 50 ms)",
        "endpoint", "statements", "service/s", "p99", "pgbench/s", "p99", "ratio"
    );
    for f in &figures {
        let ((service_rate, service_p99), (db_rate, db_p99)) = (show(&f.service), show(&f.database));
        let ratio = match (&f.service, &f.database) {
            (Ok(s), Ok(d)) => s.rate / d.rate,
            _ => f64::NAN,
        };
        let verdict = match &f.service {
            Ok(s) if ratio >= 0.5 && s.p99_ms < 50.0 => "met",
            Ok(_) if ratio.is_nan() => "no baseline",
            Ok(_) => "not met",
            Err(_) => "failed",
        };
        println!(
            "  {:<24} {:>10} {service_rate:>10} {service_p99:>9} {db_rate:>10} {db_p99:>9} {ratio:>7.2}  {verdict}",
            f.name, f.statements
        );
        for error in [&f.service, &f.database].into_iter().filter_map(|r| r.as_ref().err()) {
            println!("      {error}");
        }
    }
    println!("  CPU µs per request (server + PostgreSQL under wrk) and per transaction (PostgreSQL under pgbench):");
    for f in &figures {
        let [server, database, pgbench] = f.cpu;
        println!(
            "  {:<24} server {server:>8.0}  PostgreSQL {database:>8.0}  | pgbench's PostgreSQL {pgbench:>8.0}",
            f.name
        );
    }
    println!("  server peak RSS while {connections} clients load the endpoint (MiB):");
    for f in &figures {
        println!("  {:<24} {:>8.1}", f.name, f.peak);
    }
    if let Some(page) = figures.iter().find(|f| f.name == "GET Matrix page") {
        if let Ok(load) = &page.service {
            let verdict = if load.p50_ms < 5.0 { "met" } else { "not met" };
            println!(
                "  the respondent page of ten Matrix items (10 rows each) of a 200-item survey: p50 {:.2} ms at \
                 {connections} connections; target < 5 ms: {verdict}",
                load.p50_ms
            );
        }
    }
    let p50 =
        |name: &str| figures.iter().find(|f| f.name == name).and_then(|f| f.service.as_ref().ok()).map(|l| l.p50_ms);
    if let Some(ratio) = &languages {
        println!("{ratio}");
    }
    if let Some(ratio) = &logic {
        println!("{ratio}");
    }
    let rate = |name: &str, of: fn(&Figures) -> Option<f64>| figures.iter().find(|f| f.name == name).and_then(of);
    let service = |f: &Figures| f.service.as_ref().ok().map(|load| load.rate);
    let pgbench = |f: &Figures| f.database.as_ref().ok().map(|load| load.rate);
    if let (Some(none), Some(three)) = (rate("POST answers", service), rate("POST answers, 3 quotas", service)) {
        let ratio = none / three;
        let verdict = if ratio <= 1.3 { "met" } else { "not met" };
        let anchor = match (rate("POST answers", pgbench), rate("POST answers, 3 quotas", pgbench)) {
            (Some(none), Some(three)) => format!("; pgbench on their statements {none:.0}/s against {three:.0}/s"),
            _ => String::new(),
        };
        println!(
            "  a completion that counts three quotas: {three:.0}/s against {none:.0}/s without quotas at \
             {connections} connections: {ratio:.2}x the time{anchor}; target ≤ 1.3x: {verdict}"
        );
    }
    if let Some(put) = p50("PUT translation (100)") {
        let verdict = if put < 50.0 { "met" } else { "not met" };
        println!("  a translation PUT of all 100 items: p50 {put:.2} ms at {connections} connections; target < 50 ms: {verdict}");
    }
    let pgbench_rate = |name: &str| figures.iter().find(|f| f.name == name).and_then(|f| f.database.as_ref().ok());
    anchor::report(&anchored, rounds, |name| pgbench_rate(name).map(|load| load.rate));
    let (heaviest, peak) =
        figures.iter().fold(("-", 0.0), |most, f| if f.peak > most.1 { (f.name, f.peak) } else { most });
    let verdict = if peak <= 64.0 { "met" } else { "not met" };
    println!(
        "  server memory while {connections} clients load each endpoint: peak {peak:.1} MiB (under {heaviest}); \
         target ≤ 64 MiB: {verdict}"
    );
}
