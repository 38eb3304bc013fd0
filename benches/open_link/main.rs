//! Benchmark: a flash crowd on one open link. Run with `just bench --bench open_link`.
//!
//! The benchmark starts its own PostgreSQL cluster (scripts/pg-cluster.sh) and the real `canvass serve` (release
//! build) on it, makes a survey of two pages (a SingleChoice and a Rating, then an OpenText and a Numeric, all
//! required) and an Active LINK sendout of it (`oneResponsePerBrowser: false`) beside an earlier poster of the same
//! account with `BENCH_EARLIER_VISITORS` answered visits (default 100,000, planted in SQL, the tables analyzed:
//! `fill.rs`), and sends `BENCH_VISITORS` visitors (default 10,000) through its open link, `BENCH_CONCURRENCY` at
//! once (default 64). Each visitor (`visitor.rs`) has a connection of its own and no cookies, and comes from an
//! address of its own (`X-Forwarded-For`, the server started with `TRUST_FORWARDED_FOR=true` as behind a proxy on
//! its host: the per-address limits, such as `OPEN_LINK_STARTS_PER_MINUTE`, count each visitor on its own, as they
//! would count a real crowd), and makes six requests, each timed on its own: the start page, the start (303 to its own page), the first page, the post of
//! page 1 (which shows page 2), the post of page 2 (which completes the answer set and thanks), and its page again
//! (the thank-you). It reports visitors per second over the crowd, each step's p50 and p99, the errors (any
//! unexpected status or page; target 0), the completed answer sets the crowd left (target: one per visitor), the
//! server's peak resident memory during the crowd (VmHWM, reset before it; target at most 64 MiB), and the CPU the
//! server, PostgreSQL and the load generator spent.
//!
//! The anchor, in the same run: the statements one visitor's six requests make PostgreSQL run, captured from the
//! server log (`log_statement = 'all'`, as the read paths and insight benches do), made into one pgbench
//! transaction whose token and ids are new in each run (`script.rs`), run by pgbench with as many clients as the
//! crowd has visitors at once, as many transactions as it has visitors. Target: the service at least 0.5 of
//! pgbench's visitors per second. pgbench runs the script again with as many clients as the server's pool has
//! connections (`DATABASE_POOL_SIZE`'s default), which is as many statements as the server ever runs at once, for
//! comparison. `BENCH_WARMUP` visitors (default as many as run at once) go first, unmeasured. `BENCH_SHOW_SQL=1`
//! prints the script. Needs `pgbench`.

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
#[path = "../read_paths/cpu.rs"]
mod cpu;
mod fill;
#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;
#[path = "../read_paths/pgbench.rs"]
#[expect(dead_code)]
mod pgbench;
mod script;
mod visitor;

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cluster::{exec, Cluster};
use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl};
use support::{canvass_binary, env_number, memory, reset_peak, serve_with};
use visitor::{visit, STEPS};

/// What a crowd did: each finished visitor's step times, the failures per step and the first few of them.
#[derive(Default)]
struct Crowd {
    times: Vec<[Duration; 6]>,
    errors: [usize; 6],
    failures: Vec<String>,
    wall: Duration,
}

/// Visitors `first..first + count` of the open link, `at_once` at a time.
fn crowd(
    runtime: &tokio::runtime::Runtime,
    base: &str,
    link: &str,
    first: usize,
    count: usize,
    at_once: usize,
) -> Crowd {
    let (base, link): (Arc<str>, Arc<str>) = (base.into(), link.into());
    runtime.block_on(async move {
        let next = Arc::new(AtomicUsize::new(first));
        let started = Instant::now();
        let tasks: Vec<_> = (0..at_once)
            .map(|_| {
                let (next, base, link) = (next.clone(), base.clone(), link.clone());
                tokio::spawn(async move {
                    let mut crowd = Crowd::default();
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= first + count {
                            return crowd;
                        }
                        match visit(&base, &link, n).await {
                            Ok(visit) => crowd.times.push(visit.times),
                            Err(failed) => {
                                crowd.errors[failed.step] += 1;
                                if crowd.failures.len() < 3 {
                                    crowd
                                        .failures
                                        .push(format!("visitor {n}, {}: {}", STEPS[failed.step], failed.what));
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        let mut all = Crowd::default();
        for task in tasks {
            let crowd = task.await.unwrap();
            all.times.extend(crowd.times);
            for (sum, errors) in all.errors.iter_mut().zip(crowd.errors) {
                *sum += errors;
            }
            all.failures.extend(crowd.failures);
        }
        all.wall = started.elapsed();
        all
    })
}

/// One pgbench run of the anchor: its clients and transactions, its figures, the CPU seconds PostgreSQL and
/// pgbench spent, and the respondents and completed sets it made.
struct Anchor {
    clients: usize,
    transactions: usize,
    load: Result<load::Load, String>,
    cpu: [f64; 2],
    made: [i64; 2],
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    count: i64,
}

#[derive(QueryableByName)]
struct Ids {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    respondent: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    answer_set: i64,
}

fn count(conn: &mut PgConnection, sql: &str) -> i64 {
    diesel::sql_query(sql).get_result::<Count>(conn).unwrap().count
}

/// CPU seconds of the children this process has waited for (pgbench), from /proc/self/stat.
fn children_cpu() -> f64 {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap();
    let fields: Vec<&str> = text[text.rfind(')').unwrap() + 2..].split_whitespace().collect();
    (fields[13].parse::<f64>().unwrap() + fields[14].parse::<f64>().unwrap()) / 100.0
}

/// The sorted milliseconds of one step.
fn step_ms(times: &[[Duration; 6]], step: usize) -> Vec<f64> {
    let mut ms: Vec<f64> = times.iter().map(|t| t[step].as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    ms
}

fn main() {
    let visitors = env_number("BENCH_VISITORS", 10_000) as usize;
    let at_once = env_number("BENCH_CONCURRENCY", 64).max(1) as usize;
    let warmup = env_number("BENCH_WARMUP", at_once as u64) as usize;
    let earlier = env_number("BENCH_EARLIER_VISITORS", 100_000) as usize;
    let binary = canvass_binary();
    let cluster = Cluster::start();
    let mut admin = cluster.connect();
    exec(&mut admin, "CREATE DATABASE bench");
    let database_url = cluster.database_url("bench");
    let mut conn = PgConnection::establish(&database_url).unwrap();
    canvass_postgres::run_migrations(&mut conn).unwrap();
    let (server, base) = serve_with(&binary, &database_url, &[("TRUST_FORWARDED_FOR", "true")]);
    let pid = server.0.id();
    let postmaster = cpu::postmaster_of(capture::backend_pid(&mut admin));

    let data = fill::fill(&base, &database_url, earlier);
    let (account, sendout, link) = (data.account, data.sendout, data.link);
    // Respondents' and answer sets' ids far from each other and from every other id, so that the captured
    // statements tell them apart (script.rs).
    exec(&mut conn, "SELECT setval(pg_get_serial_sequence('respondents', 'id'), 1000000000)");
    exec(&mut conn, "SELECT setval(pg_get_serial_sequence('answer_sets', 'id'), 2000000000)");
    let completed_sql = format!(
        "SELECT count(*) AS count FROM answer_sets WHERE account_id = {account} AND sendout_id = {sendout} AND completed"
    );
    let respondents_sql =
        format!("SELECT count(*) AS count FROM respondents WHERE account_id = {account} AND sendout_id = {sendout}");

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let warm = crowd(&runtime, &base, &link, visitors, warmup, at_once);
    assert!(warm.failures.is_empty(), "the warm-up failed: {:?}", warm.failures);

    // The statements of one visitor: captured three times, the fewest kept (the server's delivery and webhook
    // workers poll every second, and a capture that overlaps a round of theirs holds its statements too).
    let mut captured = Vec::new();
    for n in 0..3 {
        let mut own_page = String::new();
        let statements = capture::capture(&mut admin, &cluster.log, &format!("visitor-{n}"), || {
            let visit = runtime.block_on(visit(&base, &link, visitors + warmup + n));
            own_page = visit.map_err(|f| f.what).expect("the captured visit").own_page;
        });
        let token = own_page.strip_prefix("/r/").unwrap().to_owned();
        let ids: Ids = diesel::sql_query(format!(
            "SELECT r.id AS respondent, s.id AS answer_set FROM respondents r \
             JOIN answer_sets s ON s.account_id = r.account_id AND s.respondent_id = r.id \
             WHERE r.account_id = {account} AND r.token = '{token}'"
        ))
        .get_result(&mut conn)
        .unwrap();
        let own = script::Own { account, token, respondent: ids.respondent, answer_set: ids.answer_set };
        captured.push((statements, own));
    }
    let counts: Vec<usize> = captured.iter().map(|(statements, _)| statements.len()).collect();
    let (statements, own) = captured.into_iter().min_by_key(|(statements, _)| statements.len()).unwrap();
    let script = script::script(&statements, &own).unwrap_or_else(|e| {
        statements.iter().for_each(|statement| eprintln!("{statement:?}"));
        panic!("the pgbench script: {e}")
    });
    if std::env::var_os("BENCH_SHOW_SQL").is_some() {
        println!("-- one visitor ({counts:?} statements captured) --\n{script}");
    }

    // The crowd.
    let completed_before = count(&mut conn, &completed_sql);
    let cpu_before = (cpu::process(pid), cpu::postgres(postmaster), cpu::process(std::process::id()));
    reset_peak(pid);
    let crowd = crowd(&runtime, &base, &link, 0, visitors, at_once);
    let peak = memory(pid).1;
    let cpu_crowd = [
        cpu::process(pid) - cpu_before.0,
        cpu::postgres(postmaster) - cpu_before.1,
        cpu::process(std::process::id()) - cpu_before.2,
    ];
    let completed = count(&mut conn, &completed_sql) - completed_before;

    // The anchor: at the crowd's concurrency (the target's), then with as many clients as the server's pool has
    // connections (for comparison: the server never runs more statements at once than that).
    let work =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-open-link-{}", std::process::id()));
    // The server inherits this process's environment, DATABASE_POOL_SIZE with it.
    let pool = env_number("DATABASE_POOL_SIZE", canvass_server::settings::default_pool_size().into()) as usize;
    let anchors: Vec<Anchor> = [at_once, pool]
        .into_iter()
        .map(|clients| {
            let per_client = visitors.div_ceil(clients);
            let (respondents, completed) = (count(&mut conn, &respondents_sql), count(&mut conn, &completed_sql));
            let cpu_before = (cpu::postgres(postmaster), children_cpu());
            let length = ["-t", &per_client.to_string()];
            let load = pgbench::run_with(&database_url, &script, clients, &length, &work.join(clients.to_string()));
            Anchor {
                clients,
                transactions: per_client * clients,
                load,
                cpu: [cpu::postgres(postmaster) - cpu_before.0, children_cpu() - cpu_before.1],
                made: [count(&mut conn, &respondents_sql) - respondents, count(&mut conn, &completed_sql) - completed],
            }
        })
        .collect();
    drop(server);
    let _ = std::fs::remove_dir_all(&work);

    let errors: usize = crowd.errors.iter().sum();
    let rate = crowd.times.len() as f64 / crowd.wall.as_secs_f64();
    let verdict = |met: bool| if met { "met" } else { "not met" };
    println!(
        "open link flash crowd: {visitors} visitors, {at_once} at once, 6 requests each, after {warmup} unmeasured; \
         {earlier} earlier visits in the tables"
    );
    println!(
        "  {:>8} {:>10} {:>6} {:>14} {:>12}  target (errors 0; completed = visitors; peak ≤ 64 MiB)",
        "wall s", "visitors/s", "errors", "completed sets", "peak RSS MiB"
    );
    println!(
        "  {:>8.1} {rate:>10.0} {errors:>6} {completed:>14} {peak:>12.1}  errors {}, completed {}, memory {}",
        crowd.wall.as_secs_f64(),
        verdict(errors == 0),
        verdict(completed == visitors as i64),
        verdict(peak <= 64.0)
    );
    for failure in &crowd.failures {
        println!("  failed: {failure}");
    }
    println!("  {:<20} {:>8} {:>8} {:>8}", "step", "p50 ms", "p99 ms", "errors");
    for (step, name) in STEPS.iter().enumerate() {
        let ms = step_ms(&crowd.times, step);
        let (p50, p99) = (load::percentile(&ms, 0.5), load::percentile(&ms, 0.99));
        println!("  {name:<20} {p50:>8.1} {p99:>8.1} {:>8}", crowd.errors[step]);
    }
    let mut whole: Vec<f64> = crowd.times.iter().map(|t| t.iter().sum::<Duration>().as_secs_f64() * 1e3).collect();
    whole.sort_by(f64::total_cmp);
    println!("  {:<20} {:>8.1} {:>8.1}", "whole visit", load::percentile(&whole, 0.5), load::percentile(&whole, 0.99));
    let per = |seconds: f64| seconds * 1e6 / crowd.times.len().max(1) as f64;
    println!(
        "  CPU during the crowd: canvass {:.1} s, PostgreSQL {:.1} s, load generator {:.1} s \
         (µs per visitor: {:.0}, {:.0}, {:.0})",
        cpu_crowd[0],
        cpu_crowd[1],
        cpu_crowd[2],
        per(cpu_crowd[0]),
        per(cpu_crowd[1]),
        per(cpu_crowd[2])
    );
    println!(
        "  anchor: one visitor's {} statements (captures: {counts:?}) as one pgbench transaction, -M prepared",
        statements.len()
    );
    println!(
        "  {:>7} {:>12} {:>9} {:>9} {:>9} {:>6}  {:>24}",
        "clients", "transactions", "pgbench/s", "p99 ms", "service/s", "ratio", "CPU µs/visitor: PG, pgb"
    );
    for anchor in &anchors {
        let per = |seconds: f64| seconds * 1e6 / anchor.transactions as f64;
        let target = if anchor.clients == at_once {
            format!("target (≥ 0.5): {}", verdict(anchor.load.as_ref().is_ok_and(|load| rate / load.rate >= 0.5)))
        } else {
            "the server's pool size".to_owned()
        };
        match &anchor.load {
            Ok(load) => println!(
                "  {:>7} {:>12} {:>9.0} {:>9.1} {rate:>9.0} {:>6.2}  {:>13.0}, {:>8.0}  {target}",
                anchor.clients,
                anchor.transactions,
                load.rate,
                load.p99_ms,
                rate / load.rate,
                per(anchor.cpu[0]),
                per(anchor.cpu[1])
            ),
            Err(error) => println!("  {:>7} {:>12} {error}", anchor.clients, anchor.transactions),
        }
        if anchor.made != [anchor.transactions as i64; 2] {
            println!(
                "  pgbench made {} respondents and {} completed sets, not one of each per run",
                anchor.made[0], anchor.made[1]
            );
        }
    }
}
