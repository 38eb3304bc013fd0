//! A statement's normal form and its key: the text as `sqlparser` prints it, with every parameter written `$n`
//! and a multi-row `VALUES` cut to its first row, so that a batch of any size, reformatting or renumbered
//! parameters give the same key. The key is the first 16 hex digits of the SHA-256 of the normal form.

use std::ops::ControlFlow;

use sha2::{Digest, Sha256};
use sqlparser::ast::{Expr, SetExpr, Value, VisitMut, VisitorMut};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

/// The normal form of `sql`; a text that does not parse is normalised by collapsing its whitespace.
pub fn normalise(sql: &str) -> String {
    let Ok(mut statements) = Parser::parse_sql(&PostgreSqlDialect {}, sql) else {
        return sql.split_whitespace().collect::<Vec<_>>().join(" ");
    };
    let _ = statements.visit(&mut Normaliser);
    statements.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// The key of `sql`: stable across whitespace, parameter numbers and the row count of a multi-row insert.
pub fn key(sql: &str) -> String {
    let digest = Sha256::digest(normalise(sql).as_bytes());
    digest.iter().take(8).map(|byte| format!("{byte:02x}")).collect()
}

struct Normaliser;

impl VisitorMut for Normaliser {
    type Break = ();

    fn pre_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if let Expr::Value(value) = expr {
            if let Value::Placeholder(name) = &mut value.value {
                "$n".clone_into(name);
            }
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_query(&mut self, query: &mut sqlparser::ast::Query) -> ControlFlow<()> {
        if let SetExpr::Values(values) = query.body.as_mut() {
            values.rows.truncate(1);
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_parameter_numbers_and_row_counts_do_not_change_the_key() {
        let one = key("INSERT INTO t (account_id, a) VALUES ($1, $2)");
        let three = key("INSERT INTO t (account_id, a)\n  VALUES ($1, $2), ($3, $4), ($5, $6)");
        assert_eq!(one, three);
        assert_eq!(key("SELECT a FROM t WHERE b = $3"), key("SELECT  a\nFROM t WHERE b = $1"));
        assert_ne!(key("SELECT a FROM t WHERE b = $1"), key("SELECT a FROM t WHERE c = $1"));
        assert_eq!(one.len(), 16);
    }
}
