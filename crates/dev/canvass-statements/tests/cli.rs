//! The `canvass-statements` command on a small capture: green when every spanning statement is allowed, red with
//! the allowlist line to add when one is new or returns an anonymous record, and refusing a capture that holds
//! nothing. `cargo test` also builds
//! the binary that `just test` runs after the suite.

#![expect(clippy::unwrap_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("canvass-statements-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn check(captured: &PathBuf, allowlist: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_canvass-statements")).arg(captured).arg(allowlist).output().unwrap()
}

const PINNED: &str = "SELECT id FROM respondents WHERE account_id = $1 AND id = $2";
const SPANNING: &str = "SELECT id FROM respondents\n WHERE token = $1";

fn capture(statements: &[&str]) -> String {
    statements.iter().map(|sql| serde_json::to_string(sql).unwrap() + "\n").collect()
}

#[test]
fn a_new_spanning_statement_fails_with_the_line_that_would_allow_it() {
    let captured = scratch("new.jsonl", &capture(&[PINNED, SPANNING, "BEGIN"]));
    let allowlist = scratch("empty.txt", "== allowed\n");
    let output = check(&captured, &allowlist);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("3 distinct statements, 1 with findings"), "{stdout}");
    assert!(stdout.contains("`respondents` is not pinned to one account"), "{stdout}");
    let line = stdout.lines().last().unwrap();
    assert!(line.ends_with("SELECT id FROM respondents WHERE token = $n"), "{line}");

    let allowlist = scratch("allowed.txt", &format!("== allowed\n# a public token\n{line}\n"));
    let output = check(&captured, &allowlist);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("1 allowed (1 allowed), 0 new"), "{stdout}");
}

#[test]
fn a_statement_returning_an_anonymous_record_fails() {
    let records = "SELECT coalesce(array_agg((id, position, title) ORDER BY position), '{}') AS pages \
                   FROM survey_pages WHERE account_id = $1 AND survey_id = $2";
    let captured = scratch("records.jsonl", &capture(&[PINNED, records]));
    let allowlist = scratch("records.txt", "== allowed\n");
    let output = check(&captured, &allowlist);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("2 distinct statements, 1 with findings"), "{stdout}");
    assert!(stdout.contains("returns an anonymous record, `(id, position, title)`"), "{stdout}");
}

#[test]
fn an_empty_capture_is_refused() {
    let captured = scratch("none.jsonl", "");
    let allowlist = scratch("none.txt", "== allowed\n");
    let output = check(&captured, &allowlist);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr).unwrap().contains("CANVASS_CAPTURE_STATEMENTS"));
}
