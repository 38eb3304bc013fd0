//! Benchmark: the directory (issue 42), each path against what a user would run beside us, in one run, on the
//! real `canvass` binary and its own PostgreSQL cluster:
//!
//! 1. **Import.** `BENCH_CONTACTS` (default 100,000) contacts in one CSV file through `POST /contacts/import`,
//!    against psql `\copy` of the same file into a temporary table and one `INSERT ... SELECT` from it into
//!    `contacts` (the table empty before each run): the import's rate as a share of psql's (target at least 0.3),
//!    and the server's peak resident memory during the import (VmHWM, reset before it; target at most 64 MiB).
//! 2. **from-list.** Those contacts, one list, added to a new EMAIL sendout through `respondents/from-list`,
//!    against the same rows inserted by one `INSERT ... SELECT` in psql into another new sendout (target at least
//!    0.5).
//! 3. **Timeline.** A respondent with 50 events, read `BENCH_TIMELINE_READS` (default 500) times one after another
//!    through `GET .../respondents/{id}/events`: p50 and p99 (target p50 under 5 ms).
//!
//! 4. **Search.** The directory filled to `BENCH_SEARCH_CONTACTS` (default 1,000,000) contacts with SQL, then
//!    `GET /contacts?search=` for one person, for 111 contacts and for every contact, `BENCH_SEARCH_READS`
//!    (default 200) requests one after another, against the statements each request ran (captured from the
//!    server log) run alone by pgbench as many times with one client: p50 and p99, and whether the plan reads the
//!    trigram index `contacts_search` (target: p50 under 50 ms for a search that finds at most a page).
//!
//! Each figure is the median of `BENCH_ROUNDS` (default 3) runs after one warm-up. Needs `psql` and `pgbench`.

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
#[path = "../read_paths/load.rs"]
#[expect(dead_code)]
mod load;
#[path = "../read_paths/pgbench.rs"]
#[expect(dead_code)]
mod pgbench;
mod search;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::use_cases::accounts;
use cluster::Cluster;
use serde_json::{json, Value};
use support::{canvass_binary, env_number, memory, reset_peak, serve, JsonApi};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs `once` after `prepare`, a warm-up and `rounds` times; the median of the timed runs, in seconds.
fn timed(rounds: u64, mut prepare: impl FnMut(), mut once: impl FnMut()) -> f64 {
    prepare();
    once();
    median(
        (0..rounds)
            .map(|_| {
                prepare();
                let started = Instant::now();
                once();
                started.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

/// psql running `script` (read from stdin, so that `\copy` works) on `url`.
fn psql(url: &str, script: &str) {
    let mut child = Command::new("psql")
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("psql runs");
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "psql failed: {script}");
}

/// psql's one value of `sql` on `url`, as text.
fn psql_value(url: &str, sql: &str) -> String {
    let output = Command::new("psql").args(["-X", "-tA", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]).output();
    let output = output.expect("psql runs");
    assert!(output.status.success(), "psql: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

/// A CSV file of `count` contacts: email, names, language and one attribute.
fn contacts_file(count: usize) -> String {
    let languages = ["en", "sv", "nb", "de"];
    let mut file = String::from("email,firstName,lastName,language,region\n");
    for n in 0..count {
        let language = languages[n % languages.len()];
        file.push_str(&format!("person{n}@bench.example,First{n},Last{n},{language},Region {}\n", n % 17));
    }
    file
}

fn main() {
    let count = env_number("BENCH_CONTACTS", 100_000) as usize;
    let rounds = env_number("BENCH_ROUNDS", 3);
    let binary = canvass_binary();
    let cluster = Cluster::start();
    let mut admin = cluster.connect();
    cluster::exec(&mut admin, "CREATE DATABASE bench");
    let url = cluster.database_url("bench");
    let mut conn = diesel::Connection::establish(&url).unwrap();
    canvass_postgres::run_migrations(&mut conn).unwrap();
    let store = canvass_postgres::PgStore::connect_one(&url).unwrap();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let created = store.with_uow(create).unwrap();
    let account = created.account_id.get();
    let (server, base) = serve(&binary, &url);
    let pid = server.0.id();
    let api = JsonApi::new(&base, created.api_key.secret());

    // 1. Import against psql \copy.
    let file = contacts_file(count);
    let path = std::env::temp_dir().join(format!("canvass-bench-contacts-{}.csv", std::process::id()));
    std::fs::write(&path, &file).unwrap();
    let empty = || cluster::exec(&mut diesel::Connection::establish(&url).unwrap(), "DELETE FROM contacts");
    let copy = format!(
        "CREATE TEMP TABLE staged (email text, first_name text, last_name text, language text, region text);\n\
         \\copy staged FROM '{}' WITH (FORMAT csv, HEADER true)\n\
         INSERT INTO contacts (account_id, email, email_key, first_name, last_name, language, attributes, \
         created_at, updated_at) SELECT {account}, email, lower(email), first_name, last_name, language, \
         jsonb_build_object('region', region), now(), now() FROM staged;\n",
        path.display()
    );
    let copy_seconds = timed(rounds, empty, || psql(&url, &copy));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let client = reqwest::Client::new();
    let import_url = format!("{base}/api/v1/contacts/import");
    let key = created.api_key.secret().to_owned();
    let import = || {
        let request = client
            .post(&import_url)
            .header("X-API-KEY", &key)
            .header("Content-Type", "text/csv")
            .body(file.clone().into_bytes());
        let response = runtime.block_on(request.send()).unwrap();
        assert!(response.status().is_success(), "import: {}", response.status());
        let outcome: Value = runtime.block_on(response.json()).unwrap();
        assert_eq!(outcome["created"], count, "{outcome}");
    };
    let mut peaks = Vec::new();
    let import_seconds = timed(
        rounds,
        || {
            empty();
            reset_peak(pid);
        },
        || {
            import();
            peaks.push(memory(pid).1);
        },
    );
    let peak = peaks.iter().copied().fold(0.0, f64::max);
    std::fs::remove_file(&path).ok();

    // 2. from-list against INSERT ... SELECT. The contacts of the last import, all in one list.
    let list = api.call("POST", "/contact-lists".into(), Some(json!({"name": "Everyone"})))["listId"].as_i64().unwrap();
    let mut ids: Vec<i64> = Vec::with_capacity(count);
    let mut page = 1;
    loop {
        let found = api.call("GET", format!("/contacts?pageSize=1000&pageNumber={page}"), None);
        let contacts = found["contacts"].as_array().unwrap();
        if contacts.is_empty() {
            break;
        }
        ids.extend(contacts.iter().map(|c| c["contactId"].as_i64().unwrap()));
        page += 1;
    }
    for chunk in ids.chunks(10_000) {
        api.call("POST", format!("/contact-lists/{list}/members"), Some(json!({"contactIds": chunk})));
    }
    let survey = api.call("POST", "/surveys".into(), Some(json!({"name": "Bench"})))["surveyId"].as_i64().unwrap();
    let sendout_body = json!({"name": "Bench", "type": "EMAIL", "sendDate": "2040-01-01T08:00:00Z",
        "sender": "hr@bench.example", "subject": "Hi {{firstName|there}}", "message": "{{surveyLink}}"});
    let new_sendout = || {
        api.call("POST", format!("/surveys/{survey}/sendouts"), Some(sendout_body.clone()))["sendoutId"]
            .as_i64()
            .unwrap()
    };
    let sendout = std::cell::Cell::new(0);
    let from_list_seconds = timed(
        rounds,
        || sendout.set(new_sendout()),
        || {
            let added = api.call(
                "POST",
                format!("/surveys/{survey}/sendouts/{}/respondents/from-list", sendout.get()),
                Some(json!({"listId": list})),
            );
            assert_eq!(added["added"], count, "{added}");
        },
    );
    let raw = std::cell::Cell::new(0);
    let insert_seconds = timed(
        rounds,
        || raw.set(new_sendout()),
        || {
            let raw_sendout = raw.get();
            psql(
                &url,
                &format!(
                    "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
                     background_data, status, token, added_at, language, contact_id) \
                     SELECT {account}, {raw_sendout}, c.email, c.email_key, true, '{{}}'::jsonb, 'Pending', \
                     '{account}-' || md5(random()::text) || substr(md5(random()::text), 1, 8), now(), c.language, c.id \
                     FROM contact_list_members m JOIN contacts c ON c.account_id = m.account_id AND c.id = m.contact_id \
                     WHERE m.account_id = {account} AND m.list_id = {list};"
                ),
            )
        },
    );

    // 3. A timeline of 50 events: one respondent of the last sendout, its events written beside its `added`.
    let respondent_path = format!("/surveys/{survey}/sendouts/{}/respondents", sendout.get());
    let first =
        format!("SELECT min(id) FROM respondents WHERE account_id = {account} AND sendout_id = {}", sendout.get());
    let respondent: i64 = psql_value(&url, &first).parse().unwrap();
    psql(
        &url,
        &format!(
            "INSERT INTO respondent_events (account_id, respondent_id, at, kind, detail) \
             SELECT {account}, {respondent}, now() + n * interval '1 second', 'deferred', \
                 jsonb_build_object('reply', '451 4.7.1 try again later', 'nextAttemptAt', now()) \
             FROM generate_series(1, 49) AS n;"
        ),
    );
    let events_path = format!("{respondent_path}/{respondent}/events");
    assert_eq!(api.call("GET", events_path.clone(), None).as_array().unwrap().len(), 50);
    let reads = env_number("BENCH_TIMELINE_READS", 500);
    let mut read_ms: Vec<f64> = (0..reads)
        .map(|_| {
            let started = Instant::now();
            api.call("GET", events_path.clone(), None);
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    read_ms.sort_by(f64::total_cmp);
    let (read_p50, read_p99) = (read_ms[read_ms.len() / 2], read_ms[read_ms.len() * 99 / 100]);

    // 4. Search on a directory of a million.
    let searched = env_number("BENCH_SEARCH_CONTACTS", 1_000_000) as usize;
    search::fill(&url, account, count, searched.max(count));
    let work = std::env::temp_dir().join(format!("canvass-bench-directory-{}", std::process::id()));
    let searches = search::measure(&cluster, &url, &api, env_number("BENCH_SEARCH_READS", 200), &work);
    let _ = std::fs::remove_dir_all(&work);

    let rate = |seconds: f64| count as f64 / seconds;
    println!("directory benchmark: {count} contacts, median of {rounds} runs");
    println!(
        "  import     {:>8.0} rows/s ({import_seconds:.3} s)  psql \\copy {:>8.0} rows/s ({copy_seconds:.3} s)  ratio {:.2} (target >= 0.3)",
        rate(import_seconds),
        rate(copy_seconds),
        copy_seconds / import_seconds
    );
    println!("  import peak RSS {peak:.1} MiB (target <= 64)");
    println!(
        "  from-list  {:>8.0} rows/s ({from_list_seconds:.3} s)  INSERT..SELECT {:>8.0} rows/s ({insert_seconds:.3} s)  ratio {:.2} (target >= 0.5)",
        rate(from_list_seconds),
        rate(insert_seconds),
        insert_seconds / from_list_seconds
    );
    println!(
        "  timeline of 50 events: p50 {read_p50:.2} ms, p99 {read_p99:.2} ms over {reads} reads (target p50 < 5 ms)"
    );
    println!("  search of {} contacts (p50 target < 50 ms when at most a page is found):", searched.max(count));
    for found in &searches {
        println!(
            "    {:<15} {:>7} found  service p50 {:>7.2} ms p99 {:>7.2} ms  its SQL alone p50 {:>7.2} ms  ratio {:.2}  {}",
            found.term,
            found.found,
            found.service_p50_ms,
            found.service_p99_ms,
            found.sql_p50_ms,
            found.sql_p50_ms / found.service_p50_ms,
            if found.uses_index { "contacts_search" } else { "NO INDEX" }
        );
    }
    drop(server);
}
