//! Holds docs/citus-distribute.sql to the schema without running Citus: every table of the schema has one line,
//! the reference tables are the checker's, every account table is distributed by `account_id` in one co-location
//! group, and every table comes after the tables its foreign keys reference. A new table without its line, or a
//! line out of order, fails `just test`.

#![expect(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use canvass_statements::distribute::{foreign_keys, script_lines, ForeignKey, Line, Placement};
use canvass_statements::tables::{account_tables, schema_tables, REFERENCE_TABLES};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(3).unwrap()
}

fn script() -> Vec<Line> {
    script_lines(&std::fs::read_to_string(root().join("docs/citus-distribute.sql")).unwrap())
}

/// The foreign keys the migrations leave, reading every `up.sql` in the order diesel runs them (by directory name).
fn keys() -> Vec<ForeignKey> {
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("migrations"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("up.sql").is_file())
        .collect();
    dirs.sort();
    let texts: Vec<String> = dirs.iter().map(|dir| std::fs::read_to_string(dir.join("up.sql")).unwrap()).collect();
    foreign_keys(texts.iter().map(String::as_str))
}

#[test]
fn every_table_of_the_schema_has_one_line() {
    let lines = script();
    let placed: Vec<&str> = lines.iter().map(|line| line.table.as_str()).collect();
    let unique: BTreeSet<&str> = placed.iter().copied().collect();
    assert_eq!(unique.len(), placed.len(), "a table is placed twice: {placed:?}");
    let schema = schema_tables();
    let placed: BTreeSet<String> = unique.into_iter().map(str::to_owned).collect();
    assert_eq!(placed, schema, "docs/citus-distribute.sql must place every table of schema.rs, and only them");
}

#[test]
fn reference_tables_are_the_checkers_and_account_tables_share_one_group() {
    let lines = script();
    let references: BTreeSet<&str> =
        lines.iter().filter(|line| line.placement == Placement::Reference).map(|line| line.table.as_str()).collect();
    assert_eq!(references, REFERENCE_TABLES.iter().copied().collect::<BTreeSet<_>>());
    let distributed: Vec<&Line> = lines.iter().filter(|line| line.placement != Placement::Reference).collect();
    let names: BTreeSet<String> = distributed.iter().map(|line| line.table.clone()).collect();
    assert_eq!(names, account_tables(), "every account table, and only they, is distributed");
    let first = distributed.first().unwrap();
    for line in &distributed {
        let Placement::Distributed { column, colocate_with } = &line.placement else { unreachable!() };
        assert_eq!(column, "account_id", "{} is distributed by account_id", line.table);
        if line.table != first.table {
            assert_eq!(colocate_with.as_deref(), Some(first.table.as_str()), "{} joins the one group", line.table);
        }
    }
    let last_reference = lines.iter().rposition(|line| line.placement == Placement::Reference).unwrap();
    let first_distributed = lines.iter().position(|line| line.placement != Placement::Reference).unwrap();
    assert!(last_reference < first_distributed, "reference tables come first");
}

#[test]
fn every_table_comes_after_the_tables_it_references() {
    let lines = script();
    let position: BTreeMap<&str, usize> =
        lines.iter().enumerate().map(|(at, line)| (line.table.as_str(), at)).collect();
    let keys = keys();
    assert!(keys.len() > 20, "the migrations' foreign keys were not read: {keys:?}");
    for key in &keys {
        if key.table == key.references {
            continue;
        }
        let (table, referenced) = (position.get(key.table.as_str()), position.get(key.references.as_str()));
        let (Some(table), Some(referenced)) = (table, referenced) else {
            panic!("{} -> {}: a table without a line in docs/citus-distribute.sql", key.table, key.references)
        };
        assert!(referenced < table, "{} references {}: its line must come after", key.table, key.references);
    }
}

#[test]
fn no_key_citus_refuses_is_left() {
    let references: BTreeSet<&str> = REFERENCE_TABLES.iter().copied().collect();
    for key in keys() {
        assert!(
            !references.contains(key.table.as_str()) || references.contains(key.references.as_str()),
            "{} -> {}: Citus refuses a foreign key from a reference table to a distributed one",
            key.table,
            key.references
        );
        assert!(
            !key.actions.contains("SET NULL") && !key.actions.contains("SET DEFAULT"),
            "{} -> {} {}: Citus refuses SET NULL / SET DEFAULT on a key that holds the distribution column",
            key.table,
            key.references,
            key.actions
        );
    }
}
