//! A message's idempotency key is unique within its respondent (`outbox_respondent_key_idx`, which names the
//! respondent first): a message written again under its key is written once, another key is another message, and
//! a respondent's messages go with it. The sendout and respondents are written with SQL, as an activation leaves
//! them; the messages through the adapter, as a TWOWAY conversation writes them.

use canvass_domain::distribution::{LinkRoute, TokenContext};
use canvass_domain::ports::{OutboxRepository, RespondentPageRepository};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::OffsetDateTime;

use crate::support::{account_with_survey, sendout_with_pending};

/// The account's messages: Ann's, Bob's and all of them.
#[derive(QueryableByName, Debug, PartialEq)]
struct Messages {
    #[diesel(sql_type = BigInt)]
    ann: i64,
    #[diesel(sql_type = BigInt)]
    bob: i64,
    #[diesel(sql_type = BigInt)]
    all: i64,
}

fn messages(conn: &mut PgConnection, ann: &TokenContext, bob: &TokenContext) -> Messages {
    diesel::sql_query(
        "SELECT count(*) FILTER (WHERE respondent_id = $2) AS ann, count(*) FILTER (WHERE respondent_id = $3) AS bob, \
         count(*) AS all FROM outbox WHERE account_id = $1",
    )
    .bind::<BigInt, _>(ann.account_id.get())
    .bind::<BigInt, _>(ann.respondent_id.get())
    .bind::<BigInt, _>(bob.respondent_id.get())
    .get_result(conn)
    .unwrap()
}

#[test]
fn a_key_is_written_once_per_respondent_and_its_messages_go_with_the_respondent() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let sendout = sendout_with_pending(&mut conn, account.get(), survey.get(), 2, now);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let mut context = |n: i64| {
        let token = format!("token-{sendout}-{n}");
        uow.find_by_token(LinkRoute::Account(account), &token).unwrap().expect("the respondent's context")
    };
    let (ann, bob) = (context(1), context(2));
    let key = |respondent: &TokenContext, id: &str| format!("tw-{}-{id}", respondent.respondent_id);

    assert!(uow.enqueue_message(&ann, &key(&ann, "m-1"), "Anything else?", now).unwrap(), "the first write");
    assert!(!uow.enqueue_message(&ann, &key(&ann, "m-1"), "Anything else?", now).unwrap(), "the same key again");
    assert!(uow.enqueue_message(&ann, &key(&ann, "m-2"), "And?", now).unwrap(), "another key");
    assert!(uow.enqueue_message(&bob, &key(&bob, "m-1"), "Anything else?", now).unwrap(), "another respondent");
    drop(uow);
    assert_eq!(messages(&mut conn, &ann, &bob), Messages { ann: 2, bob: 1, all: 3 });

    diesel::sql_query("DELETE FROM respondents WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(ann.respondent_id.get())
        .execute(&mut conn)
        .unwrap();
    assert_eq!(messages(&mut conn, &ann, &bob), Messages { ann: 0, bob: 1, all: 1 }, "the cascade takes Ann's");
}
