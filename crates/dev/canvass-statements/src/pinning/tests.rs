//! The rule on the shapes the adapter uses.

use super::*;

fn accounts() -> BTreeSet<String> {
    ["respondents", "sendouts", "outbox", "answer_sets", "bg_labels"].map(str::to_owned).into()
}

fn findings(sql: &str) -> Vec<Finding> {
    check_sql(sql, &accounts())
}

fn unpinned(table: &str, alias: &str) -> Finding {
    Finding::Unpinned { table: table.into(), alias: alias.into() }
}

#[test]
fn select_update_delete_pinned_by_a_parameter_or_a_constant_pass() {
    assert_eq!(findings("SELECT id FROM respondents WHERE account_id = $1 AND id = ANY($2)"), vec![]);
    assert_eq!(
        findings(r#"SELECT "respondents"."id" FROM "respondents" WHERE "respondents"."account_id" = $1"#),
        vec![]
    );
    assert_eq!(findings("SELECT r.id FROM respondents r WHERE r.account_id = $1::bigint ORDER BY r.id"), vec![]);
    assert_eq!(
        findings("UPDATE sendouts SET respondent_count = respondent_count + 1 WHERE id = $2 AND account_id = 7"),
        vec![]
    );
    assert_eq!(findings("DELETE FROM respondents WHERE (account_id = $1) AND sendout_id = $2 RETURNING id"), vec![]);
}

#[test]
fn select_update_delete_without_their_account_fail() {
    assert_eq!(findings("SELECT id FROM respondents WHERE token = $1"), vec![unpinned("respondents", "respondents")]);
    assert_eq!(findings("UPDATE outbox o SET status = 'Sent' WHERE o.id = $1"), vec![unpinned("outbox", "o")]);
    assert_eq!(findings("DELETE FROM sendouts WHERE id = $1"), vec![unpinned("sendouts", "sendouts")]);
    // `= ANY` names many accounts; an `OR` pins nothing.
    assert_eq!(findings("SELECT 1 FROM outbox WHERE account_id = ANY($1)"), vec![unpinned("outbox", "outbox")]);
    assert_eq!(findings("SELECT 1 FROM outbox WHERE account_id = $1 OR id = $2"), vec![unpinned("outbox", "outbox")]);
    // Pairs of many accounts.
    let pairs = "UPDATE outbox o SET status = u.s FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(a, i, s) \
                 WHERE o.account_id = u.a AND o.id = u.i";
    assert_eq!(findings(pairs), vec![unpinned("outbox", "o")]);
}

#[test]
fn inserts_must_give_the_account() {
    assert_eq!(
        findings("INSERT INTO respondents (account_id, token) VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING"),
        vec![]
    );
    assert_eq!(
        findings("INSERT INTO respondents (token) VALUES ($1)"),
        vec![Finding::InsertWithoutAccount("respondents".into())]
    );
    let copy = "INSERT INTO bg_labels (account_id, sendout_id, name) SELECT account_id, $3, name FROM bg_labels \
                WHERE account_id = $1 AND sendout_id = $2 RETURNING id";
    assert_eq!(findings(copy), vec![]);
    let unpinned_source = "INSERT INTO bg_labels (account_id, sendout_id, name) SELECT account_id, $2, name FROM \
                           bg_labels WHERE sendout_id = $1";
    assert_eq!(findings(unpinned_source), vec![unpinned("bg_labels", "bg_labels")]);
}

#[test]
fn joins_are_pinned_transitively() {
    let pinned = "SELECT o.id FROM outbox o JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
                  JOIN respondents r ON r.account_id = s.account_id WHERE o.account_id = $1";
    assert_eq!(findings(pinned), vec![]);
    let using = "SELECT 1 FROM sendouts s JOIN respondents r USING (account_id) WHERE s.account_id = $1";
    assert_eq!(findings(using), vec![]);
    let loose = "SELECT o.id FROM outbox o JOIN sendouts s ON s.id = o.sendout_id WHERE o.account_id = $1";
    assert_eq!(findings(loose), vec![unpinned("sendouts", "s")]);
    // An outer join's ON restricts only its nullable side: it pins that side from the other, never the other.
    let left = "SELECT o.id FROM outbox o LEFT JOIN sendouts s ON s.account_id = o.account_id AND s.id = \
                o.sendout_id WHERE o.account_id = $1";
    assert_eq!(findings(left), vec![]);
    let left_only_on = "SELECT o.id FROM outbox o LEFT JOIN sendouts s ON s.account_id = o.account_id AND \
                        o.account_id = $1";
    // (`s` is in fact pinned through `o.account_id = $1` in the same ON; the check is conservative there.)
    assert_eq!(findings(left_only_on), vec![unpinned("outbox", "o"), unpinned("sendouts", "s")]);
    let right =
        "SELECT o.id FROM outbox o RIGHT JOIN sendouts s ON s.account_id = o.account_id WHERE o.account_id = $1";
    assert_eq!(findings(right), vec![unpinned("sendouts", "s")]);
    let full = "SELECT 1 FROM outbox o FULL JOIN sendouts s ON s.account_id = o.account_id WHERE s.account_id = $1";
    assert_eq!(findings(full), vec![unpinned("outbox", "o")]);
    let lock = "SELECT o.id FROM outbox o JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
                WHERE o.status = 'Pending' AND o.due_at <= now() ORDER BY o.due_at LIMIT $1 FOR UPDATE OF o SKIP LOCKED";
    assert_eq!(findings(lock), vec![unpinned("outbox", "o"), unpinned("sendouts", "s")]);
}

#[test]
fn ctes_and_subqueries_are_scopes_of_their_own() {
    let unpinned_cte = "WITH due AS (SELECT id FROM outbox WHERE status = 'Pending') \
                        UPDATE outbox SET status = 'Sending' WHERE account_id = $1 AND id IN (SELECT id FROM due)";
    assert_eq!(findings(unpinned_cte), vec![unpinned("outbox", "outbox")]);
    let pinned_cte = "WITH due AS (SELECT id FROM outbox WHERE account_id = $1 FOR UPDATE SKIP LOCKED) \
                      UPDATE outbox SET status = 'Sending' WHERE account_id = $1 AND id IN (SELECT id FROM due) \
                      RETURNING id";
    assert_eq!(findings(pinned_cte), vec![]);
    // A CTE's result pins nothing: the table joined to it needs its own filter.
    let joined = "WITH batch AS MATERIALIZED (SELECT id FROM respondents WHERE account_id = $1 LIMIT 10) \
                  DELETE FROM respondents r USING batch b WHERE r.id = b.id";
    assert_eq!(findings(joined), vec![unpinned("respondents", "r")]);
    // Data-modifying CTEs are checked as statements.
    let writable = "WITH cleared AS (UPDATE answer_sets SET respondent_id = NULL WHERE respondent_id = ANY($2)) \
                    DELETE FROM respondents WHERE account_id = $1 AND id = ANY($2)";
    assert_eq!(findings(writable), vec![unpinned("answer_sets", "answer_sets")]);
    // A correlated subquery may lean on its enclosing scope's pin; an uncorrelated one may not.
    let correlated = "SELECT s.id, (SELECT count(*) FILTER (WHERE r.status = 'Pending') FROM respondents r \
                      WHERE r.account_id = s.account_id AND r.sendout_id = s.id) FROM sendouts s WHERE s.account_id = $1";
    assert_eq!(findings(correlated), vec![]);
    let loose = "SELECT s.id FROM sendouts s WHERE s.account_id = $1 AND EXISTS (SELECT 1 FROM respondents r \
                 WHERE r.sendout_id = s.id)";
    assert_eq!(findings(loose), vec![unpinned("respondents", "r")]);
    let ordered = "SELECT r.id FROM respondents r WHERE r.account_id = $1 ORDER BY (SELECT max(o.id) FROM outbox o \
                   WHERE o.account_id = r.account_id AND o.respondent_id = r.id) DESC";
    assert_eq!(findings(ordered), vec![]);
    let union = "SELECT account_id FROM outbox WHERE account_id = $1 UNION SELECT account_id FROM sendouts";
    assert_eq!(findings(union), vec![unpinned("sendouts", "sendouts")]);
}

#[test]
fn reference_tables_functions_and_other_statements_are_ignored() {
    assert_eq!(findings("SELECT id, account_id FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL"), vec![]);
    assert_eq!(findings("SELECT a.id FROM accounts a JOIN users u ON u.id = $1"), vec![]);
    assert_eq!(findings("BEGIN"), vec![]);
    assert_eq!(findings("SET statement_timeout = 30000"), vec![]);
    assert_eq!(findings("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"), vec![]);
    let labels = "SELECT key, $2::jsonb ->> cell.key FROM respondents r, jsonb_each(r.background_data) AS cell \
                  WHERE r.account_id = $1";
    assert_eq!(findings(labels), vec![]);
    assert_eq!(findings("SELECT x FROM unnest($1::bigint[]) AS x"), vec![]);
}

#[test]
fn statements_that_do_not_parse_or_are_not_analysed_are_reported() {
    assert!(matches!(findings("SELEC nonsense")[..], [Finding::Unparsed(_)]));
    assert_eq!(findings("TRUNCATE outbox"), vec![Finding::Unanalysed("outbox".into())]);
}
