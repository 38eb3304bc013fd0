//! A message's idempotency key is unique within its respondent (`outbox_respondent_key_idx`, which names the
//! respondent first): a message written again under its key is written once, another key is another message, and
//! a respondent's messages go with it. The sendout and respondents are written with SQL, as an activation leaves
//! them; the messages through the adapter, as a TWOWAY conversation writes them.

use canvass_domain::distribution::LinkRoute;
use canvass_domain::ports::{OutboxRepository, RespondentPageRepository};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::OffsetDateTime;

use crate::support::{account_with_survey, sendout_with_pending};

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// How many messages the respondent whose link token is `token` has.
fn messages_of(conn: &mut PgConnection, token: &str) -> i64 {
    diesel::sql_query(
        "SELECT count(*) AS n FROM outbox o JOIN respondents r ON r.account_id = o.account_id \
         AND r.id = o.respondent_id WHERE r.token = $1",
    )
    .bind::<diesel::sql_types::Text, _>(token)
    .get_result::<Count>(conn)
    .unwrap()
    .n
}

#[test]
fn a_key_is_written_once_per_respondent_and_its_messages_go_with_the_respondent() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let sendout = sendout_with_pending(&mut conn, account.get(), survey.get(), 2, now);
    let (first, second) = (format!("token-{sendout}-1"), format!("token-{sendout}-2"));
    let mut uow = PgUnitOfWork::new(&mut conn);
    let context = |uow: &mut PgUnitOfWork<'_>, token: &str| {
        uow.find_by_token(LinkRoute::Account(account), token).unwrap().expect("the respondent's context")
    };
    let (ann, bob) = (context(&mut uow, &first), context(&mut uow, &second));
    let key = |respondent: &canvass_domain::distribution::TokenContext, id: &str| {
        format!("tw-{}-{id}", respondent.respondent_id)
    };

    assert!(uow.enqueue_message(&ann, &key(&ann, "m-1"), "Anything else?", now).unwrap(), "the first write");
    assert!(!uow.enqueue_message(&ann, &key(&ann, "m-1"), "Anything else?", now).unwrap(), "the same key again");
    assert!(uow.enqueue_message(&ann, &key(&ann, "m-2"), "And?", now).unwrap(), "another key");
    assert!(uow.enqueue_message(&bob, &key(&bob, "m-1"), "Anything else?", now).unwrap(), "another respondent");
    drop(uow);
    assert_eq!((messages_of(&mut conn, &first), messages_of(&mut conn, &second)), (2, 1));

    diesel::sql_query("DELETE FROM respondents WHERE account_id = $1 AND token = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<diesel::sql_types::Text, _>(&first)
        .execute(&mut conn)
        .unwrap();
    assert_eq!((messages_of(&mut conn, &first), messages_of(&mut conn, &second)), (0, 1), "the cascade");
    let left = diesel::sql_query("SELECT count(*) AS n FROM outbox WHERE account_id = $1")
        .bind::<BigInt, _>(account.get())
        .get_result::<Count>(&mut conn)
        .unwrap();
    assert_eq!(left.n, 1, "only the other respondent's message is left");
}
