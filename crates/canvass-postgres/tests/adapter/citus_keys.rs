//! The foreign keys Citus refuses stay out of the schema (migration `2020-11-25-000018_citus_keys`), and the
//! respondent removals clear `answer_sets.respondent_id` themselves, the key checking that none is left behind.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::ids::{AccountId, SendoutId};
use canvass_domain::ports::{AccountRepository, RetentionRepository, SurveyRepository};
use canvass_domain::survey::{SurveyDraft, SurveyInput};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Nullable, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

const NOW: OffsetDateTime = datetime!(2020-11-22 10:00 UTC);

#[derive(QueryableByName)]
struct Name {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName, Debug, PartialEq)]
struct SetRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<BigInt>)]
    respondent_id: Option<i64>,
}

fn names(conn: &mut PgConnection, sql: &str) -> Vec<String> {
    diesel::sql_query(sql).load::<Name>(conn).unwrap().into_iter().map(|n| n.name).collect()
}

fn id(conn: &mut PgConnection, sql: &str, account: i64, other: i64) -> i64 {
    diesel::sql_query(sql).bind::<BigInt, _>(account).bind::<BigInt, _>(other).get_result::<Id>(conn).unwrap().id
}

#[test]
fn no_key_sets_null_or_default_and_api_keys_reference_only_accounts() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    // Citus refuses SET NULL and SET DEFAULT on a key that holds the distribution column.
    let setting = names(
        &mut conn,
        "SELECT conname::text AS name FROM pg_constraint WHERE contype = 'f' \
         AND (confdeltype IN ('n', 'd') OR confupdtype IN ('n', 'd'))",
    );
    assert_eq!(setting, Vec::<String>::new());
    // api_keys becomes a reference table: it may reference only reference tables.
    let referenced = names(
        &mut conn,
        "SELECT confrelid::regclass::text AS name FROM pg_constraint \
         WHERE contype = 'f' AND conrelid = 'api_keys'::regclass ORDER BY 1",
    );
    assert_eq!(referenced, ["accounts"]);
    // The key from answer sets to respondents stays, without an action.
    let kept = names(
        &mut conn,
        "SELECT conname::text AS name FROM pg_constraint WHERE contype = 'f' \
         AND conrelid = 'answer_sets'::regclass AND confrelid = 'respondents'::regclass AND confdeltype = 'a'",
    );
    assert_eq!(kept, ["answer_sets_account_id_respondent_id_fkey"]);
}

#[test]
fn removals_clear_the_answer_sets_of_the_respondents_they_delete_and_no_others() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (account, survey) = {
        let mut uow = PgUnitOfWork::new(&mut conn);
        let new = NewAccount::new("Acme", "a@acme.example").unwrap();
        let account = uow.create_account(&new, &ApiKey::generate(), NOW).unwrap().0;
        let input = SurveyInput {
            name: "Pulse".into(),
            start_date: Some(NOW),
            end_date: Some(NOW + time::Duration::days(1)),
            ..Default::default()
        };
        let survey = uow.insert_survey(account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap();
        (account, survey.id.get())
    };
    let a = account.get();
    let sendout = id(
        &mut conn,
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, respondent_count, \
         pending_count) VALUES ($1, $2, 'Wave', 'EMAIL', 'Draft', now(), 2, 2) RETURNING id",
        a,
        survey,
    );
    let respondent = |conn: &mut PgConnection, n: i64| {
        id(
            conn,
            "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
             background_data, status, token, added_at) \
             VALUES ($1, $2, 'x', 'key' || nextval('respondents_id_seq'), true, '{}', 'Pending', \
             'token' || currval('respondents_id_seq'), now()) RETURNING id",
            a,
            n,
        )
    };
    let respondents = [respondent(&mut conn, sendout), respondent(&mut conn, sendout)];
    let sets: Vec<i64> = respondents
        .iter()
        .map(|&r| {
            id(
                &mut conn,
                &format!(
                    "INSERT INTO answer_sets (account_id, survey_id, respondent_id, sendout_id, completed, \
                     created_at, updated_at) VALUES ($1, {survey}, $2, {sendout}, true, now(), now()) RETURNING id"
                ),
                a,
                r,
            )
        })
        .collect();
    let stored = |conn: &mut PgConnection| {
        diesel::sql_query("SELECT id, respondent_id FROM answer_sets WHERE account_id = $1 ORDER BY id")
            .bind::<BigInt, _>(a)
            .load::<SetRow>(conn)
            .unwrap()
    };

    // The key is a safety net: a respondent with an answer set cannot be deleted without clearing it first.
    let bare = diesel::sql_query("DELETE FROM respondents WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(a)
        .bind::<BigInt, _>(respondents[0])
        .execute(&mut conn);
    assert!(bare.is_err(), "the key refuses a delete that leaves an answer set behind");

    // A batch of one clears the set of the respondent it deletes, and only that one.
    let far = NOW + time::Duration::days(3650);
    let removed =
        PgUnitOfWork::new(&mut conn).remove_respondents(AccountId::new(a), SendoutId::new(sendout), far, 1, false);
    assert_eq!(removed.unwrap(), 1);
    let after_one = stored(&mut conn);
    assert_eq!(after_one.iter().filter(|s| s.respondent_id.is_none()).count(), 1);
    assert_eq!(after_one.len(), 2, "answer sets stay");
    let left = after_one.iter().find_map(|s| s.respondent_id).unwrap();
    assert!(respondents.contains(&left));

    let removed =
        PgUnitOfWork::new(&mut conn).remove_respondents(AccountId::new(a), SendoutId::new(sendout), far, 10, false);
    assert_eq!(removed.unwrap(), 1);
    assert_eq!(stored(&mut conn), sets.iter().map(|&id| SetRow { id, respondent_id: None }).collect::<Vec<_>>());
}
