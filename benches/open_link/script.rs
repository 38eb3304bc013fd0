//! The anchor's pgbench script: the statements one visitor's six requests made PostgreSQL run, captured from the
//! server log, in order, as one pgbench transaction (the visitor's own transactions, `BEGIN` … `COMMIT`, stay as
//! they were inside it). Replayed as captured, 10,000 runs would all be the one captured visitor: the same token
//! (unique), and the same respondent and answer set, whose row locks would queue every client behind one another.
//! So what is the visitor's own is made new in each run, as the service makes it:
//!
//! - its link token, wherever a value holds it (the token itself, and the contact key made of it), becomes
//!   `'<account>-' || lpad(to_hex(:tok), 40, '0')` with `\set tok random(…)` at the top of each run: a new token of
//!   the same form and length;
//! - the respondent's id, which the start's `INSERT INTO respondents … RETURNING` made, is read back with
//!   `\gset r_` and passed on as `:r_id` wherever the captured id was a parameter's value;
//! - the answer set's id likewise, from the first page post's `INSERT INTO answer_sets … RETURNING`, as `:a_id`;
//! - an id inside a value (`answer_set_id = ANY($2)` with `{<id>}`, the arrays of the webhook events a completed
//!   set enqueues) becomes that value built around the new id, typed as the parameter was:
//!   `('{' || (:a_id)::text || '}')::bigint[]`.
//!
//! Everything else (the survey, sendout, pages and items, the answers, the times) is as captured: integer
//! parameters as pgbench variables, others as literals (`pgbench.rs`), times as `'…'::timestamptz` (the type the
//! service gave them: a bare literal is text where nothing else types it, as in `CASE WHEN $5 THEN $6 END`).

use crate::capture::Statement;
use crate::pgbench;

/// What was the captured visitor's own: its token and the ids the database gave it.
pub struct Own {
    pub account: i64,
    pub token: String,
    pub respondent: i64,
    pub answer_set: i64,
}

/// `sql` with the placeholder `$n` (not the start of `$n0`) replaced by `with`.
fn replace_placeholder(sql: &str, n: usize, with: &str) -> String {
    let placeholder = format!("${n}");
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(at) = rest.find(&placeholder) {
        let after = &rest[at + placeholder.len()..];
        out.push_str(&rest[..at]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&placeholder);
        } else {
            out.push_str(with);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// An SQL string literal of `text`.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Whether `text` is a time as PostgreSQL logs a `timestamptz` parameter: `2026-11-29 07:34:48.941843+00`.
fn is_timestamp(text: &str) -> bool {
    let shape = |c: char| match c {
        '0'..='9' => '9',
        c => c,
    };
    let shaped: String = text.chars().map(shape).collect();
    let (time, zone) = shaped.split_at(shaped.rfind(['+', '-']).unwrap_or(0));
    let time = match time.split_once('.') {
        Some((whole, fraction)) if fraction.chars().all(|c| c == '9') => whole,
        _ => time,
    };
    time == "9999-99-99 99:99:99" && matches!(zone, "+99" | "-99" | "+99:99" | "-99:99")
}

/// Whether `text` is an array of integers as PostgreSQL logs one: `{12,13}`.
fn id_array(text: &str) -> bool {
    let inner = text.strip_prefix('{').and_then(|rest| rest.strip_suffix('}'));
    inner.is_some_and(|inner| inner.split(',').all(|n| n.parse::<i64>().is_ok()))
}

/// A value's parts: what is kept as it was, and what is the visitor's own (an SQL expression).
enum Part {
    Kept(String),
    Own(String),
}

/// `value` cut where it holds the visitor's token (anywhere) or one of its ids (as a whole number): `ids` are the
/// ids' text with the expression of each.
fn parts(value: &str, token: (&str, &str), ids: &[(&str, &str)]) -> Vec<Part> {
    let mut parts = Vec::new();
    let mut kept = String::new();
    let mut rest = value;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix(token.0) {
            parts.push(Part::Kept(std::mem::take(&mut kept)));
            parts.push(Part::Own(token.1.to_owned()));
            rest = after;
            continue;
        }
        if c.is_ascii_digit() && !kept.ends_with(|c: char| c.is_ascii_digit()) {
            let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            if let Some((_, expression)) = ids.iter().find(|(id, _)| *id == &rest[..digits]) {
                parts.push(Part::Kept(std::mem::take(&mut kept)));
                parts.push(Part::Own(expression.to_string()));
                rest = &rest[digits..];
                continue;
            }
            kept.push_str(&rest[..digits]);
            rest = &rest[digits..];
            continue;
        }
        kept.push(c);
        rest = &rest[c.len_utf8()..];
    }
    parts.push(Part::Kept(kept));
    parts.retain(|part| !matches!(part, Part::Kept(text) if text.is_empty()));
    parts
}

/// The script; an error when a value of the visitor's is used before the statement that makes it, or is left in
/// the statement's text.
pub fn script(statements: &[Statement], own: &Own) -> Result<String, String> {
    let token = format!("({} || lpad(to_hex(:tok::bigint), 40, '0'))", literal(&format!("{}-", own.account)));
    let (respondent, answer_set) = (own.respondent.to_string(), own.answer_set.to_string());
    let mut script = String::from("\\set tok random(1, 999999999999999)\n");
    let (mut has_respondent, mut has_answer_set) = (false, false);
    for (i, captured) in statements.iter().enumerate() {
        let mut statement = Statement { sql: captured.sql.clone(), params: Vec::new() };
        for (n, value) in &captured.params {
            let Some(text) = value else {
                statement.params.push((*n, None));
                continue;
            };
            let mut ids = Vec::new();
            if has_respondent {
                ids.push((respondent.as_str(), ":r_id"));
            }
            if has_answer_set {
                ids.push((answer_set.as_str(), ":a_id"));
            }
            let parts = parts(text, (&own.token, &token), &ids);
            let replacement = match parts.as_slice() {
                // A time typed as the service's parameter was: a bare literal in `CASE WHEN … THEN $6 END` is text.
                [Part::Kept(_)] if is_timestamp(text) => Some(format!("{}::timestamptz", literal(text))),
                [Part::Kept(_)] | [] => None,
                // A whole id stays a parameter, typed by where it stands, as pgbench.rs passes integers.
                [Part::Own(expression)] if !expression.starts_with('(') => Some(expression.clone()),
                parts => {
                    let sql: Vec<String> = parts
                        .iter()
                        .map(|part| match part {
                            Part::Kept(text) => literal(text),
                            Part::Own(expression) if expression.starts_with(':') => format!("({expression})::text"),
                            Part::Own(expression) => expression.clone(),
                        })
                        .collect();
                    // An array of ids (`{<id>}`) is typed as the service's parameter was; an array built by
                    // `ARRAY[…]` instead would tell the planner its length, which a parameter does not.
                    let cast = if id_array(text) { "::bigint[]" } else { "" };
                    Some(format!("({}){cast}", sql.join(" || ")))
                }
            };
            match replacement {
                Some(with) => statement.sql = replace_placeholder(&statement.sql, *n, &with),
                None => statement.params.push((*n, value.clone())),
            }
        }
        let ids = [(respondent.as_str(), ""), (answer_set.as_str(), "")];
        let holds = |text: &str| {
            text.contains(&own.token)
                || parts(text, (&own.token, ""), &ids).iter().any(|part| matches!(part, Part::Own(_)))
        };
        if holds(&statement.sql) || statement.params.iter().any(|(_, value)| value.as_deref().is_some_and(holds)) {
            return Err(format!("statement {i} uses the visitor's token or ids before they are made: {captured:?}"));
        }
        script.push_str(&pgbench::statement_of(i, &statement));
        let creates = |table: &str| {
            let insert = format!("INSERT INTO {table}");
            statement
                .sql
                .match_indices(&insert)
                .any(|(at, _)| statement.sql[at + insert.len()..].starts_with(|c: char| c.is_whitespace() || c == '('))
        };
        if !has_respondent && creates("respondents") {
            has_respondent = true;
            script.push_str(" \\gset r_\n");
        } else if !has_answer_set && creates("answer_sets") {
            has_answer_set = true;
            script.push_str(" \\gset a_\n");
        } else {
            script.push_str(";\n");
        }
    }
    if !(has_respondent && has_answer_set) {
        return Err("the captured statements make no respondent or no answer set".into());
    }
    Ok(script)
}
