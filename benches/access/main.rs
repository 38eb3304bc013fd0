//! Benchmark: what team access costs a request, and how fast what is held on one person is read. Run with
//! `just bench --bench access`.
//!
//! 1. The permission check (every keyed request) and the audit write (every change) against the same server
//!    without them: the current `canvass` binary and a baseline built from `BENCH_BASELINE_COMMIT` (default
//!    7a79f12, the last commit before roles and the audit log; or the binary `BENCH_CANVASS_BASELINE` names) serve
//!    one database side by side, and wrk loads each in turn, `BENCH_ROUNDS` alternating rounds (default 7) of
//!    `BENCH_SECONDS` (default 15; shorter rounds could not tell 5% from this two-core machine's noise) with `BENCH_CONNECTIONS` connections (default 32), on GET survey and on POST
//!    respondent (each request a new contact). Target: each median rate at least 0.95 of the baseline's.
//! 2. `GET /accounts/persons` for a person in `BENCH_SENDOUTS` sendouts (default 50), each with an answer set:
//!    `BENCH_PERSON_READS` reads one after another (default 200). Target: median under 50 ms.

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

mod baseline;

use std::path::PathBuf;
use std::time::Instant;

use benches::support::{canvass_binary, env_number, median, serve, survey_body, JsonApi};
use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use canvass_testdb::TestDatabase;
use load::{percentile, wrk, wrk_script, Request};
use serde_json::json;

/// A wrk script posting a new respondent per request: `tag`, the thread and a counter make each contact new.
fn new_respondents(key: &str, tag: &str) -> String {
    format!(
        r#"local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
function request()
  n = n + 1
  local body = '{{"contactDetails":"p{tag}.' .. tid .. '.' .. n .. '@bench.example","sendMail":false}}'
  return wrk.format("POST", nil, {{["X-API-KEY"] = "{key}", ["Content-Type"] = "application/json"}}, body)
end
"#
    )
}

fn main() {
    let seconds = env_number("BENCH_SECONDS", 15);
    let connections = env_number("BENCH_CONNECTIONS", 32) as usize;
    let rounds = env_number("BENCH_ROUNDS", 7).max(1) as usize;
    let binary = canvass_binary();
    let baseline = baseline::binary();
    let db = TestDatabase::new();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let key = db.store().with_uow(create).unwrap().api_key.secret().to_owned();
    let (_current, current_base) = serve(&binary, db.url());
    let (_baseline, baseline_base) = serve(&baseline, db.url());

    let api = JsonApi::new(&current_base, &key);
    let survey = api.call("POST", "/surveys".into(), Some(survey_body("Access")))["surveyId"].as_i64().unwrap();
    let login = json!({"name": "Staff", "type": "LOGIN"});
    let sendout =
        api.call("POST", format!("/surveys/{survey}/sendouts"), Some(login.clone()))["sendoutId"].as_i64().unwrap();
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(".canvass/bench-access-{}", std::process::id()));

    let mut gets = [Vec::new(), Vec::new()];
    let mut posts = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        for (at, base) in [&current_base, &baseline_base].into_iter().enumerate() {
            let url = format!("{base}/api/v1/surveys/{survey}");
            let get = Request { method: "GET", url: &url, key: &key, body: None };
            gets[at].push(wrk(&get, connections, seconds, &work).expect("GET survey").rate);
            let url = format!("{base}/api/v1/surveys/{survey}/sendouts/{sendout}/respondents");
            let script = new_respondents(&key, &format!("{round}x{at}"));
            posts[at].push(wrk_script(&script, &url, connections, seconds, &work).expect("POST respondent").rate);
        }
    }
    let (get_ratio, post_ratio) =
        (median(gets[0].clone()) / median(gets[1].clone()), median(posts[0].clone()) / median(posts[1].clone()));
    println!("access: {rounds} rounds of {seconds} s, {connections} connections, medians (requests/s)");
    println!(
        "  GET survey       with {:>8.0}  without {:>8.0}  ratio {get_ratio:.3}",
        median(gets[0].clone()),
        median(gets[1].clone())
    );
    println!(
        "  POST respondent  with {:>8.0}  without {:>8.0}  ratio {post_ratio:.3}",
        median(posts[0].clone()),
        median(posts[1].clone())
    );

    let sendouts = env_number("BENCH_SENDOUTS", 50);
    let person = "kari.nordmann@bench.example";
    let item =
        api.call("GET", format!("/surveys/{survey}/questions"), None)["pages"][0]["items"][0]["questionItemId"].clone();
    for _ in 0..sendouts {
        let id =
            api.call("POST", format!("/surveys/{survey}/sendouts"), Some(login.clone()))["sendoutId"].as_i64().unwrap();
        let added = api.call(
            "POST",
            format!("/surveys/{survey}/sendouts/{id}/respondents"),
            Some(json!({"contactDetails": person, "sendMail": false})),
        );
        let answers =
            json!({"respondentId": added["respondentId"], "answers": [{"questionItemId": item, "value": "good"}]});
        api.call("POST", format!("/surveys/{survey}/answers"), Some(answers));
    }
    let reads = env_number("BENCH_PERSON_READS", 200) as usize;
    let mut samples = Vec::with_capacity(reads);
    let path = format!("/accounts/persons?contactDetails={}", person.replace('@', "%40"));
    let held = api.call("GET", path.clone(), None);
    assert_eq!(held["respondents"].as_array().unwrap().len() as u64, sendouts);
    for _ in 0..reads {
        let started = Instant::now();
        api.call("GET", path.clone(), None);
        samples.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(f64::total_cmp);
    let (p50, p99) = (percentile(&samples, 0.5), percentile(&samples, 0.99));
    println!(
        "  GET /accounts/persons, a person in {sendouts} sendouts: p50 {p50:.1} ms, p99 {p99:.1} ms ({reads} reads)"
    );
    let _ = std::fs::remove_dir_all(&work);

    assert!(get_ratio >= 0.95, "GET survey with access control at {get_ratio:.3} of without: target 0.95");
    assert!(post_ratio >= 0.95, "POST respondent with access control at {post_ratio:.3} of without: target 0.95");
    assert!(p50 < 50.0, "what is held on a person in {sendouts} sendouts: p50 {p50:.1} ms, target under 50 ms");
}
