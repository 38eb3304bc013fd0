//! The outbox claim shares a round among the accounts with due messages: each gets its share, an account's large
//! backlog cannot hold another's messages back, and what one account leaves unused fills the round from the others.
//! Each account has one active EMAIL sendout whose released respondents have a due invitation in the outbox, as an
//! activation leaves them (the sendout marked as having queued messages), written here with SQL.

use std::collections::HashMap;

use canvass_domain::ids::AccountId;
use canvass_domain::ports::OutboxRepository;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::{Duration, OffsetDateTime};

use crate::support::account_with_survey;

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// An account with an active EMAIL sendout of `count` released respondents, each with an invitation due a minute
/// ago; returns the account.
fn account_with_due(conn: &mut PgConnection, name: &str, count: usize) -> AccountId {
    let now = OffsetDateTime::now_utc();
    let email = format!("owner@{}.example", name.to_lowercase());
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(conn), &email, now);
    let survey = survey.get();
    let id = |conn: &mut PgConnection, sql: &str, other: i64| {
        diesel::sql_query(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(other)
            .get_result::<Id>(conn)
            .unwrap()
            .id
    };
    let sendout = id(
        conn,
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, sender, subject, \
         message, respondent_count, pending_count, outbox_queued) VALUES ($1, $2, 'Invite', 'EMAIL', 'Active', now(), \
         'hr@acme.example', 'Your view', 'Answer: {{surveyLink}}', 0, 0, true) RETURNING id",
        survey,
    );
    for _ in 0..count {
        let respondent = id(
            conn,
            "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, \
             background_data, status, token, added_at) \
             VALUES ($1, $2, 'p' || nextval('respondents_id_seq') || '@example.com', \
             'p' || currval('respondents_id_seq') || '@example.com', true, '{}', 'Released', \
             'token' || currval('respondents_id_seq'), now()) RETURNING id",
            sendout,
        );
        diesel::sql_query(
            "INSERT INTO outbox (account_id, respondent_id, sendout_id, idempotency_key, status, due_at, created_at) \
             VALUES ($1, $2, $3, 'inv-' || $2, 'Pending', now() - interval '1 minute', now())",
        )
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(respondent)
        .bind::<BigInt, _>(sendout)
        .execute(conn)
        .unwrap();
    }
    account
}

#[test]
fn a_round_is_shared_among_accounts_and_filled_by_those_with_more() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    account_with_due(&mut conn, "Acme", 8);
    let small = account_with_due(&mut conn, "Small", 1);

    let now = OffsetDateTime::now_utc();
    let mut claim = |limit: i64| {
        let batch = PgUnitOfWork::new(&mut conn).claim_due(now, now + Duration::minutes(5), limit).unwrap();
        let mut by_account: HashMap<bool, Vec<i64>> = HashMap::new();
        for message in batch {
            by_account.entry(message.account_id == small).or_default().push(message.id);
        }
        by_account
    };
    let first = claim(5);
    assert_eq!(first.get(&true).map(Vec::len), Some(1), "the small account is served beside the large one");
    assert_eq!(first.get(&false).map(Vec::len), Some(4), "its unused share fills the round: {first:?}");
    let second = claim(10);
    assert_eq!((second.get(&true), second.get(&false).map(Vec::len)), (None, Some(4)), "the rest, once each");
    let mut all: Vec<i64> = first.into_values().chain(second.into_values()).flatten().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 9);
    assert!(claim(10).is_empty(), "everything is leased");
}
