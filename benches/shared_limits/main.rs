//! Benchmark: what sharing the limits through Redis (`LIMITS_URL`) costs a request. Run with
//! `just bench --bench shared_limits`.
//!
//! Two `canvass serve` processes of the same binary on one database at the default `RATE_LIMIT_PER_KEY` (100 a
//! second, a burst of 1,000), one with `LIMITS_URL` naming a private `redis-server` (the real thing a deployment
//! runs beside the service) and one without, loaded in turn by wrk on GET survey, each request with the next of
//! `BENCH_KEYS` keys (default 2,000: many clients, none over its rate, so every answer is a 200 and each key takes
//! its cells from Redis ten at a time): `BENCH_ROUNDS` alternating rounds (default 3) of `BENCH_SECONDS` (default
//! 10) with `BENCH_CONNECTIONS` connections (default 32). Target: the median rate with Redis at least 0.85 of the
//! median without.

#![expect(clippy::unwrap_used, clippy::expect_used)]

/// The benches' shared support (`benches/support.rs`), reached from this folder.
#[path = ".."]
mod benches {
    #[expect(dead_code)]
    pub mod support;
}

#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;

use std::path::PathBuf;

use benches::support::{canvass_binary, env_number, median, serve, serve_with, survey_body, JsonApi};
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use canvass_testdb::{TestDatabase, TestRedis};
use load::wrk_script;
use serde_json::json;

fn main() {
    let seconds = env_number("BENCH_SECONDS", 10);
    let connections = env_number("BENCH_CONNECTIONS", 32) as usize;
    let rounds = env_number("BENCH_ROUNDS", 3).max(1) as usize;
    let binary = canvass_binary();
    let db = TestDatabase::new();
    let redis = TestRedis::start();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let key = db.store().with_uow(create).unwrap().api_key.secret().to_owned();
    let limits = redis.url();
    // The default rate, which the benches' servers otherwise lift.
    let default_rate = ("RATE_LIMIT_PER_KEY", "100");
    let (_shared, shared_base) = serve_with(&binary, db.url(), &[("LIMITS_URL", limits.as_str()), default_rate]);
    let (_local, local_base) = serve_with(&binary, db.url(), &[default_rate]);

    // Set up through a server of its own, whose rate the benches lift: 2,000 keys are made in a few seconds.
    let (_setup, setup_base) = serve(&binary, db.url());
    let api = JsonApi::new(&setup_base, &key);
    let survey = api.call("POST", "/surveys".into(), Some(survey_body("Limits")))["surveyId"].as_i64().unwrap();
    let owner = api.call("GET", "/accounts/users".into(), None)[0]["userId"].as_i64().unwrap();
    let keys: Vec<String> = (0..env_number("BENCH_KEYS", 2_000))
        .map(|n| {
            let made =
                api.call("POST", format!("/accounts/users/{owner}/keys"), Some(json!({"name": format!("k{n}")})));
            made["apiKey"].as_str().unwrap().to_owned()
        })
        .collect();
    let quoted: Vec<String> = keys.iter().map(|key| format!("\"{key}\"")).collect();
    let script = format!(
        "local keys = {{{}}}\nlocal n = 0\nfunction request()\n  n = n + 1\n  \
         return wrk.format(\"GET\", nil, {{[\"X-API-KEY\"] = keys[n % #keys + 1]}})\nend\n",
        quoted.join(",")
    );
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-limits-{}", std::process::id()));

    let mut rates = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        for (at, base) in [&shared_base, &local_base].into_iter().enumerate() {
            let url = format!("{base}/api/v1/surveys/{survey}");
            rates[at].push(wrk_script(&script, &url, connections, seconds, &work).expect("GET survey").rate);
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    let (shared, local) = (median(rates[0].clone()), median(rates[1].clone()));
    let ratio = shared / local;
    println!(
        "shared_limits: {rounds} rounds of {seconds} s, {connections} connections, {} keys, medians (requests/s)",
        keys.len()
    );
    println!("  GET survey  with LIMITS_URL {shared:>8.0}  without {local:>8.0}  ratio {ratio:.3}");
    assert!(ratio >= 0.85, "GET survey with shared limits at {ratio:.3} of without: target 0.85");
}
