//! The tables behind the public handles (migration `2020-11-25-000019_public_handles`, docs/scaling.md "Public
//! handles"): `login_sendouts` and `sender_numbers` become Citus reference tables, so they may reference only
//! reference tables; the migration maps the LOGIN sendouts that exist to their accounts.

use canvass_postgres::PgUnitOfWork;
use canvass_postgres::{run_migrations, MIGRATIONS};
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use diesel_migrations::MigrationHarness;
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support;

const NOW: OffsetDateTime = datetime!(2020-11-22 10:00 UTC);

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName, Debug, PartialEq)]
struct Pair {
    #[diesel(sql_type = BigInt)]
    first: i64,
    #[diesel(sql_type = BigInt)]
    second: i64,
}

#[test]
fn the_reference_tables_of_public_handles_reference_only_accounts() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    for table in ["login_sendouts", "sender_numbers"] {
        let referenced: Vec<String> = diesel::sql_query(
            "SELECT confrelid::regclass::text AS name FROM pg_constraint \
             WHERE contype = 'f' AND conrelid = $1::regclass ORDER BY 1",
        )
        .bind::<Text, _>(table)
        .load::<Name>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|n| n.name)
        .collect();
        assert_eq!(referenced, ["accounts"], "{table}");
    }
}

/// A new account with one survey; returns their ids.
fn account_with_survey(conn: &mut PgConnection, email: &str) -> (i64, i64) {
    let (account, survey) = support::account_with_survey(&mut PgUnitOfWork::new(conn), email, NOW);
    (account.get(), survey.get())
}

/// A sendout of `kind` as the code before the migration wrote it (no map row); returns its id.
fn old_sendout(conn: &mut PgConnection, (account, survey): (i64, i64), kind: &str) -> i64 {
    diesel::sql_query(
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at) \
         VALUES ($1, $2, 'Wave', $3, 'Draft', now()) RETURNING id AS first, account_id AS second",
    )
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(survey)
    .bind::<Text, _>(kind)
    .get_result::<Pair>(conn)
    .unwrap()
    .first
}

#[test]
fn the_migration_maps_every_login_sendout_that_exists_and_no_other() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, other) =
        (account_with_survey(&mut conn, "a@acme.example"), account_with_survey(&mut conn, "o@x.example"));
    // Back to the schema before the migration (reverting any later one on the way), with sendouts of the old code.
    while conn.revert_last_migration(MIGRATIONS).unwrap().to_string() != "20261125000019" {}
    let logins = [old_sendout(&mut conn, acme, "LOGIN"), old_sendout(&mut conn, other, "LOGIN")];
    old_sendout(&mut conn, acme, "EMAIL");
    old_sendout(&mut conn, other, "SMS");
    run_migrations(&mut conn).unwrap();
    let mapped =
        diesel::sql_query("SELECT sendout_id AS first, account_id AS second FROM login_sendouts ORDER BY sendout_id")
            .load::<Pair>(&mut conn)
            .unwrap();
    assert_eq!(mapped, [Pair { first: logins[0], second: acme.0 }, Pair { first: logins[1], second: other.0 }]);
}
