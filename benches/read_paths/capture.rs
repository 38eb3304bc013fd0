//! Captures the statements one request makes PostgreSQL run, with their parameter values, from the server log
//! with `log_statement = 'all'` (turned on for the capture only, then reset).

use std::path::Path;
use std::time::Duration;

use diesel::{PgConnection, QueryableByName, RunQueryDsl};

use crate::cluster::exec;

/// One statement as PostgreSQL ran it: its text with `$n` placeholders and the value of each (None: NULL).
#[derive(Debug, Clone)]
pub struct Statement {
    pub sql: String,
    pub params: Vec<(usize, Option<String>)>,
}

#[derive(QueryableByName)]
struct Pid {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
}

fn reload(conn: &mut PgConnection) {
    exec(conn, "SELECT pg_reload_conf()");
    // The postmaster passes the reload on to the backends, which apply it before their next command.
    std::thread::sleep(Duration::from_millis(300));
}

/// The process id of the backend serving `conn`.
pub fn backend_pid(conn: &mut PgConnection) -> u32 {
    diesel::sql_query("SELECT pg_backend_pid() AS pid").get_result::<Pid>(conn).unwrap().pid as u32
}

/// Runs `request` with every statement logged, and returns what other sessions than `conn`'s ran meanwhile.
pub fn capture(conn: &mut PgConnection, log: &Path, label: &str, request: impl FnOnce()) -> Vec<Statement> {
    let own = backend_pid(conn) as i32;
    exec(conn, "ALTER SYSTEM SET log_line_prefix = '%p|'");
    exec(conn, "ALTER SYSTEM SET log_statement = 'all'");
    reload(conn);
    let (start, end) = (format!("canvass-bench-start-{label}"), format!("canvass-bench-end-{label}"));
    exec(conn, &format!("SELECT '{start}'"));
    request();
    exec(conn, &format!("SELECT '{end}'"));
    exec(conn, "ALTER SYSTEM RESET log_statement");
    reload(conn);
    let text = std::fs::read_to_string(log).unwrap();
    let from = text.rfind(&start).expect("the start mark is in the server log");
    let to = from + text[from..].find(&end).expect("the end mark is in the server log");
    let from = from + text[from..].find('\n').unwrap_or(0);
    let to = text[..to].rfind('\n').unwrap_or(to);
    parse(&text[from..to], own)
}

/// Log lines (`pid|LEVEL:  message`, continuation lines without the prefix) into statements of other pids.
fn parse(lines: &str, own: i32) -> Vec<Statement> {
    let mut messages: Vec<(i32, String)> = Vec::new();
    for line in lines.lines() {
        match line.split_once('|').and_then(|(pid, rest)| Some((pid.parse::<i32>().ok()?, rest))) {
            Some((pid, rest)) => messages.push((pid, rest.to_owned())),
            None => {
                if let Some(last) = messages.last_mut() {
                    last.1.push('\n');
                    last.1.push_str(line);
                }
            }
        }
    }
    let mut statements: Vec<(i32, Statement)> = Vec::new();
    for (pid, message) in messages.into_iter().filter(|(pid, _)| *pid != own) {
        if let Some(detail) = message.strip_prefix("DETAIL:  parameters: ") {
            let last = statements.iter_mut().rev().find(|(p, _)| *p == pid).expect("parameters follow a statement");
            last.1.params = parameters(detail);
        } else if let Some(rest) = message.strip_prefix("LOG:  ") {
            let sql = if let Some(sql) = rest.strip_prefix("statement: ") {
                sql
            } else if let Some(execute) = rest.strip_prefix("execute ") {
                execute.split_once(": ").map(|(_, sql)| sql).unwrap_or(execute)
            } else {
                continue;
            };
            statements.push((pid, Statement { sql: sql.to_owned(), params: Vec::new() }));
        }
    }
    statements.into_iter().map(|(_, s)| s).collect()
}

/// `$1 = '5', $2 = NULL, $3 = 'it''s'` into numbered values.
fn parameters(detail: &str) -> Vec<(usize, Option<String>)> {
    let mut params = Vec::new();
    let mut rest = detail;
    while let Some(after) = rest.strip_prefix('$') {
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        let n: usize = after[..digits].parse().unwrap();
        let after = after[digits..].strip_prefix(" = ").unwrap();
        if let Some(after) = after.strip_prefix("NULL") {
            params.push((n, None));
            rest = after;
        } else {
            let body = after.strip_prefix('\'').unwrap();
            let (mut value, mut at) = (String::new(), 0);
            let bytes = body.as_bytes();
            loop {
                if bytes[at] == b'\'' {
                    if bytes.get(at + 1) == Some(&b'\'') {
                        value.push('\'');
                        at += 2;
                        continue;
                    }
                    break;
                }
                let c = body[at..].chars().next().unwrap();
                value.push(c);
                at += c.len_utf8();
            }
            params.push((n, Some(value)));
            rest = &body[at + 1..];
        }
        rest = rest.strip_prefix(", ").unwrap_or(rest);
    }
    params
}
