//! Reads the two sides of the Citus distribution script's check (docs/citus-distribute.sql): the order in which the
//! script makes each table a reference or a distributed table, and the foreign keys the migrations leave in place,
//! so that a test can hold the script to the schema without running Citus.

use std::collections::BTreeMap;

/// How the script places a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// `create_reference_table`: a copy on every node.
    Reference,
    /// `create_distributed_table(table, column[, colocate_with => other])`.
    Distributed {
        /// The distribution column.
        column: String,
        /// The table named by `colocate_with`, when there is one.
        colocate_with: Option<String>,
    },
}

/// One line of the script that places a table, in the script's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The table placed.
    pub table: String,
    /// How.
    pub placement: Placement,
}

/// A foreign key left by the migrations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForeignKey {
    /// The table that holds the key.
    pub table: String,
    /// The table it references.
    pub references: String,
    /// Its `ON DELETE` / `ON UPDATE` clause in upper case (empty when it has none).
    pub actions: String,
}

/// The lines of the script that place a table, in order (`--` comments ignored).
pub fn script_lines(script: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for statement in statements(script) {
        let flat = statement.to_lowercase();
        let (call, reference) = if let Some(rest) = flat.strip_prefix("select create_reference_table(") {
            (rest, true)
        } else if let Some(rest) = flat.strip_prefix("select create_distributed_table(") {
            (rest, false)
        } else {
            continue;
        };
        let args: Vec<String> = call.trim_end_matches(')').split(',').map(|arg| arg.trim().to_owned()).collect();
        let quoted = |arg: &str| arg.trim().trim_matches('\'').to_owned();
        let table = quoted(args.first().map(String::as_str).unwrap_or_default());
        let placement = if reference {
            Placement::Reference
        } else {
            Placement::Distributed {
                column: quoted(args.get(1).map(String::as_str).unwrap_or_default()),
                colocate_with: args.iter().skip(2).find_map(|arg| {
                    arg.strip_prefix("colocate_with").map(|rest| quoted(rest.trim_start_matches([' ', '=', '>'])))
                }),
            }
        };
        lines.push(Line { table, placement });
    }
    lines
}

/// The foreign keys left once every migration has run, given the migrations' `up.sql` texts in the order they
/// run: keys made by `CREATE TABLE` (column or table constraints) and `ALTER TABLE ... ADD`, less those removed by
/// `ALTER TABLE ... DROP CONSTRAINT` or `DROP TABLE`. Unnamed keys get PostgreSQL's default name
/// (`<table>_<columns>_fkey`), so a later `DROP CONSTRAINT` finds them.
pub fn foreign_keys<'a>(migrations: impl IntoIterator<Item = &'a str>) -> Vec<ForeignKey> {
    let mut keys: BTreeMap<(String, String), ForeignKey> = BTreeMap::new();
    for migration in migrations {
        for statement in statements(migration) {
            apply(&mut keys, &statement);
        }
    }
    keys.into_values().collect()
}

fn apply(keys: &mut BTreeMap<(String, String), ForeignKey>, statement: &str) {
    let lower = statement.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.as_slice() {
        ["create", "table", rest @ ..] => {
            let table = name(rest.iter().find(|word| !matches!(**word, "if" | "not" | "exists")).copied());
            let Some(body) = lower.find('(').map(|at| &lower[at + 1..lower.rfind(')').unwrap_or(lower.len())]) else {
                return;
            };
            for clause in top_level(body, ',') {
                add_key(keys, &table, &clause);
            }
        }
        ["alter", "table", rest @ ..] => {
            let mut rest = rest.iter().filter(|word| !matches!(**word, "if" | "exists" | "only"));
            let table = name(rest.next().copied());
            let after_keyword = lower.find("table").map_or(0, |at| at + "table".len());
            let Some(at) = lower[after_keyword..].find(&table).map(|at| after_keyword + at + table.len()) else {
                return;
            };
            for action in top_level(&lower[at..], ',') {
                let action = action.trim();
                if let Some(dropped) = action.strip_prefix("drop constraint") {
                    let dropped = dropped.split_whitespace().find(|word| !matches!(*word, "if" | "exists"));
                    keys.remove(&(table.clone(), name(dropped)));
                } else if let Some(added) = action.strip_prefix("add") {
                    let added = added.trim_start();
                    add_key(keys, &table, added.strip_prefix("column").unwrap_or(added));
                }
            }
        }
        ["drop", "table", rest @ ..] => {
            let dropped = name(rest.iter().find(|word| !matches!(**word, "if" | "exists")).copied());
            keys.retain(|(table, _), key| *table != dropped && key.references != dropped);
        }
        _ => {}
    }
}

/// Records the foreign key of one `CREATE TABLE` clause or `ADD` action, if it makes one.
fn add_key(keys: &mut BTreeMap<(String, String), ForeignKey>, table: &str, clause: &str) {
    let Some(at) = clause.find("references ") else { return };
    let (head, tail) = (clause[..at].trim(), &clause[at + "references ".len()..]);
    let references = name(tail.split(|c: char| c.is_whitespace() || c == '(').next());
    let actions = tail.find(" on ").map(|on| tail[on..].trim().to_uppercase()).unwrap_or_default();
    let constraint = if let Some(named) = head.strip_prefix("constraint ") {
        name(named.split_whitespace().next())
    } else if let Some(columns) = head.strip_prefix("foreign key") {
        let columns = columns.trim().trim_start_matches('(');
        let columns = columns.split(')').next().unwrap_or_default();
        let columns: Vec<&str> = columns.split(',').map(str::trim).collect();
        format!("{table}_{}_fkey", columns.join("_"))
    } else {
        format!("{table}_{}_fkey", name(head.split_whitespace().next()))
    };
    keys.insert((table.to_owned(), constraint), ForeignKey { table: table.to_owned(), references, actions });
}

/// A name without quotes, schema or a trailing `(`.
fn name(word: Option<&str>) -> String {
    let word = word.unwrap_or_default().split('(').next().unwrap_or_default();
    word.rsplit('.').next().unwrap_or_default().trim_matches('"').to_owned()
}

/// The statements of a SQL text, without `--` comments, split at `;` outside parentheses and quotes, each with
/// its white space collapsed to single spaces.
fn statements(text: &str) -> Vec<String> {
    let without_comments: String =
        text.lines().map(|line| line.split("--").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    top_level(&without_comments, ';')
        .into_iter()
        .map(|statement| statement.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|statement| !statement.is_empty())
        .collect()
}

/// Splits `text` at `separator` where it stands outside parentheses and single quotes.
fn top_level(text: &str, separator: char) -> Vec<String> {
    let (mut parts, mut current, mut depth, mut quoted) = (Vec::new(), String::new(), 0_i32, false);
    for c in text.chars() {
        match c {
            '\'' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            _ => {}
        }
        if c == separator && depth == 0 && !quoted {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_lines_come_in_order_with_their_placement() {
        let lines = script_lines(
            "-- a comment: SELECT create_reference_table('nope');\nBEGIN;\nSELECT create_reference_table('accounts');\n\
             SELECT create_distributed_table('users', 'account_id');\n\
             SELECT create_distributed_table('surveys', 'account_id', colocate_with => 'users');\nCOMMIT;",
        );
        assert_eq!(
            lines,
            vec![
                Line { table: "accounts".into(), placement: Placement::Reference },
                Line {
                    table: "users".into(),
                    placement: Placement::Distributed { column: "account_id".into(), colocate_with: None }
                },
                Line {
                    table: "surveys".into(),
                    placement: Placement::Distributed {
                        column: "account_id".into(),
                        colocate_with: Some("users".into())
                    }
                },
            ]
        );
    }

    #[test]
    fn keys_follow_creates_adds_and_drops() {
        let first = "CREATE TABLE users (account_id BIGINT NOT NULL REFERENCES accounts (id), id BIGSERIAL);\n\
             CREATE TABLE keys (account_id BIGINT, user_id BIGINT, CHECK (user_id > 0),\n\
                 FOREIGN KEY (account_id, user_id) REFERENCES users (account_id, id));\n\
             CREATE TABLE sets (account_id BIGINT, respondent_id BIGINT, CONSTRAINT sets_r FOREIGN KEY \
                 (account_id, respondent_id) REFERENCES respondents (account_id, id) ON DELETE SET NULL (respondent_id));";
        let second = "-- drops\nALTER TABLE keys DROP CONSTRAINT keys_account_id_user_id_fkey;\n\
             ALTER TABLE keys ADD CONSTRAINT keys_account FOREIGN KEY (account_id) REFERENCES accounts (id);\n\
             ALTER TABLE sets DROP CONSTRAINT sets_r, ADD CONSTRAINT sets_r FOREIGN KEY (account_id, respondent_id) \
                 REFERENCES respondents (account_id, id) NOT VALID;";
        let keys = foreign_keys([first, second]);
        let pairs: Vec<(&str, &str, &str)> =
            keys.iter().map(|k| (k.table.as_str(), k.references.as_str(), k.actions.as_str())).collect();
        assert_eq!(pairs, vec![("keys", "accounts", ""), ("sets", "respondents", ""), ("users", "accounts", "")]);
        let before = foreign_keys([first]);
        assert!(before.iter().any(|k| k.table == "sets" && k.actions.contains("SET NULL")), "{before:?}");
        assert!(before.iter().any(|k| k.table == "keys" && k.references == "users"), "{before:?}");
    }
}
