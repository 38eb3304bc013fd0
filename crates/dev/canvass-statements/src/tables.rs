//! Which tables are account tables: every table of the generated diesel schema with an `account_id` column,
//! except the reference tables, which Citus copies to every node.

use std::collections::BTreeSet;

/// The generated schema of the PostgreSQL adapter: read at compile time, so a new table is checked at once.
const SCHEMA: &str = include_str!("../../../canvass-postgres/src/schema.rs");

/// Tables that a Citus deployment makes reference tables (docs/scaling.md): those with an `account_id` below, and
/// `delivery_pace`, the one row of the pace all workers share, and `retention_runs`, one row per run over every
/// account, which have none. A statement on them is never sent to one shard, so it needs no account. Keep in step
/// with docs/citus-distribute.sql.
pub const REFERENCE_TABLES: &[&str] =
    &["accounts", "api_keys", "sender_numbers", "login_sendouts", "delivery_pace", "retention_runs"];

/// The account tables: distributed by `account_id` under Citus.
pub fn account_tables() -> BTreeSet<String> {
    tables_with_account_id(SCHEMA).into_iter().filter(|table| !REFERENCE_TABLES.contains(&table.as_str())).collect()
}

/// Every table of the generated schema.
pub fn schema_tables() -> BTreeSet<String> {
    SCHEMA
        .split("diesel::table! {")
        .skip(1)
        .filter_map(|block| block.split_whitespace().next())
        .map(|name| name.split('(').next().unwrap_or_default().to_owned())
        .collect()
}

/// The tables of a diesel `schema.rs` text that have an `account_id` column.
fn tables_with_account_id(schema: &str) -> BTreeSet<String> {
    let mut tables = BTreeSet::new();
    for block in schema.split("diesel::table! {").skip(1) {
        let body = block.split('}').next().unwrap_or_default();
        let name = body.split_whitespace().next().unwrap_or_default();
        let name = name.split('(').next().unwrap_or_default();
        if body.lines().any(|line| line.trim().starts_with("account_id ->")) {
            tables.insert(name.to_owned());
        }
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_tables_come_from_the_schema_without_the_reference_tables() {
        let tables = account_tables();
        assert!(tables.contains("respondents"));
        assert!(tables.contains("outbox"));
        assert!(!tables.contains("api_keys"));
        assert!(!tables.contains("accounts"));
        assert!(tables.len() > 20, "{tables:?}");
    }
}
