//! `canvass-statements CAPTURED [ALLOWLIST]`: checks the statements captured under `CANVASS_CAPTURE_STATEMENTS`
//! (one JSON string per line) and fails when one has a finding (it touches an account table without naming its
//! account, returns an anonymous record, or is an `INSERT … SELECT` Citus cannot push down) and is not on the
//! allowlist (default `docs/citus-allowlist.txt`). `--list` prints every such statement as an allowlist line
//! instead, allowed or not.

use std::collections::BTreeMap;
use std::process::ExitCode;

use canvass_statements::{allowlist, check_sql, normal, tables, Finding};

const USAGE: &str = "usage: canvass-statements [--list] CAPTURED [ALLOWLIST]";

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.first().is_some_and(|arg| arg == "--list");
    if list {
        args.remove(0);
    }
    let (captured, allowed) = match args.as_slice() {
        [captured] => (captured.clone(), "docs/citus-allowlist.txt".to_owned()),
        [captured, allowed] => (captured.clone(), allowed.clone()),
        _ => return fail(USAGE),
    };
    match run(&captured, &allowed, list) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => fail(&error),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("{message}");
    ExitCode::from(2)
}

/// One distinct statement: its normal form and what is wrong with it.
struct Checked {
    normal: String,
    findings: Vec<Finding>,
}

fn run(captured: &str, allowed: &str, list: bool) -> Result<bool, String> {
    let text = std::fs::read_to_string(captured).map_err(|e| format!("cannot read {captured}: {e}"))?;
    let allowlist = std::fs::read_to_string(allowed).map_err(|e| format!("cannot read {allowed}: {e}"))?;
    let allowlist = allowlist::parse(&allowlist).map_err(|e| format!("{allowed}: {e}"))?;
    let accounts = tables::account_tables();
    let mut statements = BTreeMap::new();
    for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
        let sql: String =
            serde_json::from_str(line).map_err(|e| format!("{captured}:{}: not a JSON string: {e}", number + 1))?;
        let key = normal::key(&sql);
        statements
            .entry(key)
            .or_insert_with(|| Checked { normal: normal::normalise(&sql), findings: check_sql(&sql, &accounts) });
    }
    if statements.is_empty() {
        return Err(format!("{captured} holds no statement: was CANVASS_CAPTURE_STATEMENTS set for the tests?"));
    }
    let spanning: Vec<_> = statements.iter().filter(|(_, checked)| !checked.findings.is_empty()).collect();
    if list {
        for (key, checked) in &spanning {
            println!("# {}", describe(&checked.findings));
            println!("{}", allowlist::line(key, &checked.normal));
        }
        return Ok(true);
    }
    let offenders: Vec<_> = spanning.iter().filter(|(key, _)| !allowlist.contains_key(*key)).collect();
    let mut by_section = BTreeMap::<&str, usize>::new();
    for (key, _) in &spanning {
        if let Some(entry) = allowlist.get(*key) {
            *by_section.entry(entry.section.as_str()).or_default() += 1;
        }
    }
    println!(
        "{} distinct statements, {} with findings: {} allowed ({}), {} new",
        statements.len(),
        spanning.len(),
        spanning.len() - offenders.len(),
        by_section.iter().map(|(section, n)| format!("{n} {section}")).collect::<Vec<_>>().join(", "),
        offenders.len()
    );
    let unseen = allowlist.keys().filter(|key| !statements.contains_key(*key)).count();
    if unseen > 0 {
        println!("{unseen} allowlist entries were not seen in this run (changed, gone, or not exercised)");
    }
    for (key, checked) in &offenders {
        println!("\n{key}: {}\n    {}", describe(&checked.findings), checked.normal);
    }
    if !offenders.is_empty() {
        println!(
            "\n{} statement(s) above would not run on one shard under Citus, or not at all. Make each scope filter \
             on `account_id = $n` (or join on `account_id` to a table that does), join every account table of an \
             INSERT … SELECT to the others on `account_id`, and return no anonymous record; see docs/scaling.md, \
             \"Keeping every statement on one shard\". A statement that must span accounts goes on {allowed} under \
             `== allowed` with its reason, as the line:",
            offenders.len()
        );
        for (key, checked) in &offenders {
            println!("{}", allowlist::line(key, &checked.normal));
        }
    }
    Ok(offenders.is_empty())
}

fn describe(findings: &[Finding]) -> String {
    findings.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}
