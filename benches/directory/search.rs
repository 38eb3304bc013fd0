//! The directory's search on 1,000,000 contacts: `GET /contacts?search=` read one request after another, against
//! the statements that request ran, captured from the server log and run alone by pgbench with one client.

use std::path::Path;
use std::time::Instant;

use crate::capture::{self, Statement};
use crate::cluster::Cluster;
use crate::load::percentile;
use crate::support::JsonApi;
use crate::{pgbench, psql, psql_value};

/// One search's figures: what it finds, whether its plan reads `contacts_search`, and both sides' latencies.
pub struct SearchFigures {
    pub term: &'static str,
    pub found: i64,
    pub uses_index: bool,
    pub service_p50_ms: f64,
    pub service_p99_ms: f64,
    pub sql_p50_ms: f64,
}

/// The searches measured: one person by a part of the address, a name part that 111 contacts share, and a part
/// of every address (the worst case: the count reads every row).
const TERMS: [&str; 3] = ["person765432@", "last4242", "bench.example"];

/// Fills the account's directory up to `total` contacts shaped as the import's file (`person<n>@bench.example`,
/// `First<n>`, `Last<n>`), the `existing` ones kept, and analyzes the table.
pub fn fill(url: &str, account: i64, existing: usize, total: usize) {
    psql(
        url,
        &format!(
            "INSERT INTO contacts (account_id, email, email_key, first_name, last_name, language, attributes, \
             created_at, updated_at) \
             SELECT {account}, 'person' || n || '@bench.example', 'person' || n || '@bench.example', 'First' || n, \
                 'Last' || n, 'en', jsonb_build_object('region', 'Region ' || n % 17), now(), now() \
             FROM generate_series({existing}, {}) AS n;\nANALYZE contacts;\n",
            total - 1
        ),
    );
}

/// Measures each of [`TERMS`] with `reads` requests and `reads` pgbench transactions.
pub fn measure(cluster: &Cluster, url: &str, api: &JsonApi, reads: u64, work: &Path) -> Vec<SearchFigures> {
    let mut admin = cluster.connect();
    TERMS
        .iter()
        .map(|&term| {
            let path = format!("/contacts?search={}&pageSize=100", term.replace('@', "%40"));
            let found = api.call("GET", path.clone(), None)["totalCount"].as_i64().unwrap();
            let statements = capture::capture(&mut admin, &cluster.log, "search", || {
                api.call("GET", path.clone(), None);
            });
            let selects = statements.iter().filter(|s| {
                ["SELECT", "WITH"].iter().any(|word| s.sql.trim_start().to_ascii_uppercase().starts_with(word))
            });
            let plans: String = selects.map(|s| explain(url, s)).collect();
            if std::env::var_os("BENCH_SHOW_SQL").is_some() {
                println!("-- {term} --\n{plans}");
            }
            let mut service: Vec<f64> = (0..reads)
                .map(|_| {
                    let started = Instant::now();
                    api.call("GET", path.clone(), None);
                    started.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            service.sort_by(f64::total_cmp);
            let script = pgbench::script(&statements);
            let sql = pgbench::run_with(url, &script, 1, &["-t", &reads.to_string()], &work.join("search"))
                .expect("pgbench runs the search's statements");
            SearchFigures {
                term,
                found,
                uses_index: plans.contains("contacts_search"),
                service_p50_ms: percentile(&service, 0.5),
                service_p99_ms: percentile(&service, 0.99),
                sql_p50_ms: sql.p50_ms,
            }
        })
        .collect()
}

/// The plan of a captured statement, its parameters written in as literals.
fn explain(url: &str, statement: &Statement) -> String {
    let mut sql = statement.sql.clone();
    let mut params = statement.params.clone();
    params.sort_by_key(|p| std::cmp::Reverse(p.0));
    for (n, value) in params {
        let literal = value.map_or("NULL".to_owned(), |v| format!("'{}'", v.replace('\'', "''")));
        sql = sql.replace(&format!("${n}"), &literal);
    }
    psql_value(url, &format!("EXPLAIN (ANALYZE, BUFFERS) {}", sql.replace('\n', " ")))
}
