//! pgbench on the statements a request ran: the same text, as prepared statements (`-M prepared`), integer
//! parameters as pgbench variables (so they stay parameters) and the others as literals.

use std::path::Path;
use std::process::Command;

use crate::capture::Statement;
use crate::load::{percentile, Load};

/// The pgbench script of one transaction: the captured statements in order.
pub fn script(statements: &[Statement]) -> String {
    statements.iter().enumerate().map(|(i, statement)| statement_of(i, statement) + ";\n").collect()
}

/// The `i`th statement of a script on one line, after the `\set` lines of its integer parameters, without its
/// terminator (`;`, or a meta-command such as `\gset`).
pub fn statement_of(i: usize, statement: &Statement) -> String {
    let mut lines = String::new();
    let mut sql = statement.sql.clone();
    let mut params = statement.params.clone();
    // Highest first, so that `$1` does not match the start of `$10`.
    params.sort_by_key(|p| std::cmp::Reverse(p.0));
    for (n, value) in params {
        let replacement = match value {
            None => "NULL".to_owned(),
            Some(v) if v.parse::<i64>().is_ok() => {
                lines.push_str(&format!("\\set s{i}p{n} {v}\n"));
                format!(":s{i}p{n}")
            }
            Some(v) => format!("'{}'", v.replace('\'', "''")),
        };
        sql = sql.replace(&format!("${n}"), &replacement);
    }
    lines.push_str(&sql.replace('\n', " "));
    lines
}

/// Runs `script` with `clients` clients for `seconds`; the rate and latencies of its transactions.
pub fn run(url: &str, script: &str, clients: usize, seconds: u64, dir: &Path) -> Result<Load, String> {
    run_with(url, script, clients, &["-T", &seconds.to_string()], dir)
}

/// Runs `script` with `clients` clients for as long as `length` tells pgbench (`-T <seconds>` or `-t <transactions
/// per client>`); the rate and latencies of its transactions.
pub fn run_with(url: &str, script: &str, clients: usize, length: &[&str], dir: &Path) -> Result<Load, String> {
    std::fs::create_dir_all(dir).unwrap();
    let file = dir.join("script.sql");
    std::fs::write(&file, script).unwrap();
    for old in std::fs::read_dir(dir).unwrap().flatten() {
        if old.file_name().to_string_lossy().starts_with("pgbench_log") {
            let _ = std::fs::remove_file(old.path());
        }
    }
    let output = Command::new("pgbench")
        .args(["-n", "-M", "prepared", "-c", &clients.to_string(), "-j", "2"])
        .args(length)
        .args(["-l", "--log-prefix", dir.join("pgbench_log").to_str().unwrap(), "-f", file.to_str().unwrap(), url])
        .output()
        .map_err(|e| format!("cannot run pgbench ({e}); install the PostgreSQL client programs"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let first = stderr.lines().find(|l| l.contains("ERROR") || l.contains("error")).unwrap_or("");
        return Err(format!("pgbench failed: {first}"));
    }
    let tps = stdout
        .lines()
        .find_map(|l| l.strip_prefix("tps = ").and_then(|r| r.split_whitespace().next()).and_then(|v| v.parse().ok()))
        .ok_or_else(|| format!("no tps in pgbench's output: {stdout}"))?;
    let mut latencies: Vec<f64> = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with("pgbench_log") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            latencies.extend(text.lines().filter_map(|l| l.split_whitespace().nth(2)?.parse::<f64>().ok()));
        }
    }
    latencies.sort_by(f64::total_cmp);
    Ok(Load { rate: tps, p50_ms: percentile(&latencies, 0.5) / 1000.0, p99_ms: percentile(&latencies, 0.99) / 1000.0 })
}
