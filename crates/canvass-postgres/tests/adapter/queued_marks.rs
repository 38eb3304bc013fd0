//! The mark of sendouts with queued messages: the list of due sendouts reads only marked sendouts, an idle poll
//! clears the marks of those with nothing left (and no other), and queuing a reminder marks its sendout again, so
//! that its messages are claimed. The sendouts and messages are written with SQL, as an activation leaves them.

use canvass_domain::ports::OutboxRepository;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Bool};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::{Duration, OffsetDateTime};

use crate::support::account_with_survey;

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName)]
struct Mark {
    #[diesel(sql_type = Bool)]
    outbox_queued: bool,
}

fn one(conn: &mut PgConnection, sql: &str, a: i64, b: i64) -> i64 {
    diesel::sql_query(sql).bind::<BigInt, _>(a).bind::<BigInt, _>(b).get_result::<Id>(conn).unwrap().id
}

fn marked(conn: &mut PgConnection, sendout: i64) -> bool {
    diesel::sql_query("SELECT outbox_queued FROM sendouts WHERE id = $1")
        .bind::<BigInt, _>(sendout)
        .get_result::<Mark>(conn)
        .unwrap()
        .outbox_queued
}

/// An active EMAIL sendout of `survey`, marked or not, with one respondent who has an invitation due; returns the
/// sendout.
fn sendout_with_one_due(conn: &mut PgConnection, account: i64, survey: i64, mark: bool) -> i64 {
    let sendout = one(
        conn,
        &format!(
            "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, sender, subject, \
             message, respondent_count, pending_count, outbox_queued) VALUES ($1, $2, 'Invite', 'EMAIL', 'Active', \
             now(), 'hr@acme.example', 'Your view', 'Answer: {{{{surveyLink}}}}', 1, 0, {mark}) RETURNING id"
        ),
        account,
        survey,
    );
    let respondent = one(
        conn,
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
         status, token, added_at) VALUES ($1, $2, 'p' || nextval('respondents_id_seq') || '@example.com', \
         'p' || currval('respondents_id_seq') || '@example.com', true, '{}', 'Sent', \
         'token' || currval('respondents_id_seq'), now()) RETURNING id",
        account,
        sendout,
    );
    diesel::sql_query(
        "INSERT INTO outbox (account_id, respondent_id, sendout_id, idempotency_key, status, due_at, created_at) \
         VALUES ($1, $2, $3, 'inv-' || $2, 'Pending', now() - interval '1 minute', now())",
    )
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(respondent)
    .bind::<BigInt, _>(sendout)
    .execute(conn)
    .unwrap();
    sendout
}

#[test]
fn only_marked_sendouts_are_read_an_idle_poll_clears_stale_marks_and_a_reminder_marks_again() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let (account, survey) = (account.get(), survey.get());
    let queued = sendout_with_one_due(&mut conn, account, survey, true);
    let unmarked = sendout_with_one_due(&mut conn, account, survey, false);
    let lease = now + Duration::minutes(5);

    let claimed = PgUnitOfWork::new(&mut conn).claim_due(now, lease, 10).unwrap();
    assert_eq!(claimed.iter().map(|m| m.sendout_id.get()).collect::<Vec<_>>(), [queued], "the marked one only");
    assert!(marked(&mut conn, queued), "a leased message is still Pending: the mark stays");

    diesel::sql_query("UPDATE outbox SET status = 'Sent' WHERE sendout_id = $1")
        .bind::<BigInt, _>(queued)
        .execute(&mut conn)
        .unwrap();
    assert!(PgUnitOfWork::new(&mut conn).claim_due(now, lease, 10).unwrap().is_empty(), "an idle poll");
    assert!(!marked(&mut conn, queued), "nothing left: the idle poll cleared the mark");
    assert!(!marked(&mut conn, unmarked), "a sendout never marked stays so");

    one(
        &mut conn,
        "INSERT INTO reminders (account_id, sendout_id, sendout_logic, send_date, sender, message, status, \
         created_at, messages) VALUES ($1, $2, 'All', now() - interval '1 second', 'hr@acme.example', \
         'Still there? {{surveyLink}}', 'Scheduled', now(), '{}') RETURNING id",
        account,
        queued,
    );
    let later = OffsetDateTime::now_utc();
    assert_eq!(PgUnitOfWork::new(&mut conn).enqueue_due_reminders(later).unwrap(), 1);
    assert!(marked(&mut conn, queued), "queuing the reminder marked its sendout");
    let reminded = PgUnitOfWork::new(&mut conn).claim_due(later, later + Duration::minutes(5), 10).unwrap();
    assert_eq!(reminded.iter().map(|m| (m.sendout_id.get(), m.is_reminder)).collect::<Vec<_>>(), [(queued, true)]);
}
