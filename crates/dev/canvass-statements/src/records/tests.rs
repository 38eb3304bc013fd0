//! The anonymous-record rule on the statement Citus refused, its fix, and the rows that are not returned as records.

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::*;

/// The anonymous records of every statement of `sql`.
fn records(sql: &str) -> Vec<String> {
    let statements = Parser::parse_sql(&PostgreSqlDialect {}, sql).unwrap_or_else(|error| panic!("{sql}: {error}"));
    statements.iter().flat_map(anonymous_records).collect()
}

#[test]
fn the_question_tree_citus_could_not_read_back_is_flagged_and_its_fix_is_not() {
    let refused = "SELECT s.id, p.pages FROM surveys s CROSS JOIN LATERAL (SELECT coalesce(array_agg((id, position, \
                   title) ORDER BY position), '{}') AS pages FROM survey_pages WHERE account_id = $1 AND survey_id = \
                   s.id) p WHERE s.account_id = $1 AND s.id = $2";
    assert_eq!(records(refused), ["(id, position, title)"]);
    let fixed = "SELECT s.id, p.page_ids, p.page_titles FROM surveys s CROSS JOIN LATERAL (SELECT \
                 coalesce(array_agg(id ORDER BY position), '{}') AS page_ids, coalesce(array_agg(title ORDER BY \
                 position), '{}') AS page_titles FROM survey_pages WHERE account_id = $1 AND survey_id = s.id) p \
                 WHERE s.account_id = $1 AND s.id = $2";
    assert_eq!(records(fixed), Vec::<String>::new());
}

#[test]
fn a_row_returned_directly_or_passed_through_is_flagged() {
    for (sql, record) in [
        ("SELECT (a, b) FROM t", "(a, b)"),
        ("SELECT ROW(a, b) AS r FROM t", "ROW(a, b)"),
        ("SELECT row(a) FROM t", "row(a)"),
        ("SELECT ((a, b)) FROM t", "(a, b)"),
        ("SELECT array_agg((a, b) ORDER BY a) FROM t", "(a, b)"),
        ("SELECT coalesce(max(ROW(a, b)), NULL) FROM t", "ROW(a, b)"),
        ("SELECT min((a, b)) FROM t", "(a, b)"),
        ("SELECT a, lag((a, b)) OVER (ORDER BY a) FROM t", "(a, b)"),
        ("SELECT ARRAY[(a, b), (c, d)] FROM t", "(a, b)"),
        ("SELECT (array_agg((a, b)))[1] FROM t", "(a, b)"),
        ("SELECT CASE WHEN a > 0 THEN (a, b) END FROM t", "(a, b)"),
        ("SELECT (a, b)::record FROM t", "(a, b)"),
        ("SELECT array_agg((a, b)) || ARRAY[]::record[] FROM t", "(a, b)"),
    ] {
        assert_eq!(records(sql), [record], "{sql}");
    }
}

#[test]
fn every_scope_and_returning_list_is_checked() {
    for sql in [
        "WITH c AS (SELECT (a, b) AS r FROM t) SELECT 1 FROM c",
        "SELECT d.r FROM (SELECT (a, b) AS r FROM t) d",
        "SELECT x, (SELECT (a, b) FROM t LIMIT 1) FROM u",
        "SELECT a FROM t WHERE EXISTS (SELECT (a, b) FROM u)",
        "SELECT a, b FROM t UNION ALL SELECT (a, b), c FROM u",
        "INSERT INTO t (a, b) VALUES ($1, $2) RETURNING (a, b)",
        "INSERT INTO t (r) SELECT (a, b) FROM u",
        "UPDATE t SET a = $1 RETURNING ROW(a, b)",
        "DELETE FROM t WHERE a = $1 RETURNING id, (a, b)",
        "WITH gone AS (DELETE FROM t RETURNING (a, b) AS r) UPDATE u SET n = n + (SELECT count(*) FROM gone)",
    ] {
        assert_eq!(records(sql).len(), 1, "{sql}");
    }
}

#[test]
fn rows_turned_into_json_cast_compared_or_not_rows_pass() {
    for sql in [
        "SELECT to_json((a, b)), row_to_json(ROW(a, b)), json_agg((a, b)), jsonb_agg(ROW(a, b) ORDER BY a) FROM t",
        "SELECT to_jsonb((a, b)), json_build_object('r', (a, b)), jsonb_build_array(ROW(a, b)) FROM t",
        "SELECT (a, b)::pair, CAST(ROW(a, b) AS pair), array_agg((a, b)::pair), ARRAY[(a, b)]::pair[] FROM t",
        "SELECT (a, b)::text, count(DISTINCT (a, b)) FROM t",
        "SELECT a FROM t WHERE (a, b) = ($1, $2) AND (a, b) IN (($3, $4), ($5, $6)) AND (a, b) > (c, d)",
        "SELECT a FROM t WHERE (a, b) IN (SELECT a, b FROM u)",
        "SELECT (a, b) > (c, d), (a, b) IS DISTINCT FROM (c, d), (a, b) IS NULL FROM t",
        "SELECT CASE WHEN (a, b) = ($1, $2) THEN 'same' ELSE 'other' END FROM t",
        "SELECT *, t.*, t, (a), (t.r).a FROM t",
        "UPDATE t SET (a, b) = ($1, $2) WHERE (a, b) = ($3, $4) RETURNING a, b",
    ] {
        assert_eq!(records(sql), Vec::<String>::new(), "{sql}");
    }
}
