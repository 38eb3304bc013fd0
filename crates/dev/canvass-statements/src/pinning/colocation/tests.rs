//! The `INSERT … SELECT` rule on the statement Citus refused, its fix, and the shapes the adapter uses.

use std::collections::BTreeSet;

use crate::{check_sql, Finding};

fn findings(sql: &str) -> Vec<Finding> {
    let accounts: BTreeSet<String> =
        ["respondents", "sendouts", "outbox", "answer_sets", "blocklist", "reminders"].map(str::to_owned).into();
    check_sql(sql, &accounts)
}

fn not_colocated(table: &str, alias: &str) -> Finding {
    Finding::InsertSelectNotColocated { table: table.into(), alias: alias.into() }
}

/// Copies a sendout's respondents, `$blocklist` the blocklist subquery's conditions.
fn copy(blocklist: &str) -> String {
    format!(
        "INSERT INTO respondents (account_id, sendout_id, contact_key, status) SELECT r.account_id, $3, \
         r.contact_key, CASE WHEN EXISTS (SELECT 1 FROM blocklist b WHERE {blocklist} AND b.contact_key = \
         r.contact_key) THEN 'Blocklisted' ELSE 'Pending' END FROM respondents r WHERE r.account_id = $1 AND \
         r.sendout_id = $2"
    )
}

#[test]
fn the_copy_citus_refused_is_flagged_and_its_fix_is_not() {
    // Both tables are pinned to `$1`, but Citus pushes the statement down only when they are joined on account_id.
    assert_eq!(findings(&copy("b.account_id = $1")), vec![not_colocated("blocklist", "b")]);
    assert_eq!(findings(&copy("b.account_id = $1 AND b.account_id = r.account_id")), vec![]);
    assert_eq!(findings(&copy("b.account_id = r.account_id")), vec![]);
    // Wrapped as a data-modifying CTE, as the adapter sends it.
    let wrapped = |insert: String| {
        format!(
            "WITH inserted AS ({insert} RETURNING status) UPDATE sendouts SET respondent_count = respondent_count + \
             (SELECT count(*) FROM inserted) WHERE account_id = $1 AND id = $3"
        )
    };
    assert_eq!(findings(&wrapped(copy("b.account_id = $1"))), vec![not_colocated("blocklist", "b")]);
    assert_eq!(findings(&wrapped(copy("b.account_id = $1 AND b.account_id = r.account_id"))), vec![]);
}

#[test]
fn one_account_table_or_values_need_no_join() {
    let one = "INSERT INTO outbox (account_id, respondent_id, status) SELECT account_id, id, 'Pending' FROM \
               respondents WHERE account_id = $1 AND sendout_id = $2";
    assert_eq!(findings(one), vec![]);
    let values = "INSERT INTO outbox (account_id, respondent_id, sendout_id) VALUES ($1, (SELECT id FROM respondents \
                  WHERE account_id = $1 AND token = $2), (SELECT id FROM sendouts WHERE account_id = $1 AND id = $3))";
    assert_eq!(findings(values), vec![]);
    // Into a table that is not distributed, Citus runs the SELECT on its own, routed by its pins.
    let into_other = "INSERT INTO audit (account_id, respondent_id) SELECT r.account_id, r.id FROM respondents r \
                      JOIN sendouts s ON s.account_id = $1 AND s.id = r.sendout_id WHERE r.account_id = $1";
    assert_eq!(findings(into_other), vec![]);
}

#[test]
fn joins_count_in_any_scope_and_transitively() {
    let joined = "INSERT INTO outbox (account_id, respondent_id, sendout_id) SELECT r.account_id, r.id, s.id FROM \
                  respondents r JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
                  WHERE r.account_id = $1";
    assert_eq!(findings(joined), vec![]);
    let using = "INSERT INTO outbox (account_id, respondent_id) SELECT account_id, r.id FROM respondents r JOIN \
                 sendouts s USING (account_id) WHERE s.account_id = $1 AND s.id = r.sendout_id";
    assert_eq!(findings(using), vec![]);
    let pinned_apart = "INSERT INTO outbox (account_id, respondent_id, sendout_id) SELECT r.account_id, r.id, s.id \
                        FROM respondents r JOIN sendouts s ON s.account_id = $1 AND s.id = r.sendout_id \
                        WHERE r.account_id = $1";
    assert_eq!(findings(pinned_apart), vec![not_colocated("sendouts", "s")]);
    // `a` is joined to `s`, which is joined to `r` in the enclosing scope.
    let transitive = "INSERT INTO outbox (account_id, respondent_id, sendout_id) SELECT r.account_id, r.id, s.id \
                      FROM respondents r JOIN sendouts s ON s.account_id = r.account_id AND s.id = r.sendout_id \
                      WHERE r.account_id = $1 AND NOT EXISTS (SELECT 1 FROM answer_sets a WHERE a.account_id = \
                      s.account_id AND a.respondent_id = r.id)";
    assert_eq!(findings(transitive), vec![]);
    // An equality under OR joins nothing.
    let or = "INSERT INTO outbox (account_id, respondent_id) SELECT r.account_id, r.id FROM respondents r WHERE \
              r.account_id = $1 AND EXISTS (SELECT 1 FROM answer_sets a WHERE a.account_id = $1 AND \
              (a.account_id = r.account_id OR a.respondent_id = r.id))";
    assert_eq!(findings(or), vec![not_colocated("answer_sets", "a")]);
    // A CTE of the INSERT's query counts; its result joins nothing, as it pins nothing.
    let cte = "INSERT INTO outbox (account_id, respondent_id) WITH due AS (SELECT account_id, sendout_id FROM \
               reminders WHERE account_id = $1) SELECT r.account_id, r.id FROM due JOIN respondents r ON \
               r.account_id = due.account_id AND r.sendout_id = due.sendout_id WHERE r.account_id = $1";
    assert_eq!(findings(cte), vec![not_colocated("reminders", "reminders")]);
}

#[test]
fn the_reminders_enqueue_passes() {
    // A CTE beside the INSERT (`due`) is planned on its own: not part of the INSERT … SELECT.
    let enqueue = "WITH due AS (UPDATE reminders SET status = 'Sent' WHERE account_id = $2 AND status = 'Scheduled' \
                   AND send_date <= $1 RETURNING account_id, id, sendout_id, sendout_logic), queued AS (INSERT INTO \
                   outbox (account_id, respondent_id, sendout_id, reminder_id, idempotency_key, status, due_at, \
                   created_at) SELECT r.account_id, r.id, r.sendout_id, due.id, 'rem-' || due.id || '-' || r.id, \
                   'Pending', $1, $1 FROM due JOIN respondents r ON r.sendout_id = due.sendout_id WHERE r.account_id \
                   = $2 AND r.send_mail AND r.status = 'Sent' AND NOT EXISTS (SELECT 1 FROM blocklist b WHERE \
                   b.account_id = r.account_id AND b.contact_key = r.contact_key) AND (due.sendout_logic = 'All' OR \
                   (due.sendout_logic = 'NotResponded' AND NOT EXISTS (SELECT 1 FROM answer_sets a WHERE \
                   a.account_id = r.account_id AND a.respondent_id = r.id))) ON CONFLICT (account_id, \
                   respondent_id, idempotency_key) DO NOTHING RETURNING 1) SELECT count(*) AS count FROM queued";
    assert_eq!(findings(enqueue), vec![]);
}
