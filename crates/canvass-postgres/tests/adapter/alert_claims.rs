//! The alert outbox on PostgreSQL: a completion's emails written in one statement, claimed with the round's limit
//! shared among the accounts that have some, never claimed twice under a live lease, recorded only under the lease
//! they were claimed with (a sent email losing its text), and gone with their alert.

use std::collections::HashMap;

use canvass_domain::alert::{AlertEmail, AlertInput};
use canvass_domain::delivery::{Accepted, ClaimedAlert, Outcome, SettledAlert};
use canvass_domain::ids::{AccountId, AlertId, AnswerSetId};
use canvass_domain::ports::{AlertRepository, OutboxRepository};
use canvass_domain::survey::{Condition, ConditionValue, Conditions, Operator, Subject};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::{Duration, OffsetDateTime};

use crate::support::account_with_survey;

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName)]
struct Stored {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Text)]
    body: String,
}

/// An account with an alert whose completed set wrote `count` emails, due `now`; returns the account and alert.
fn account_with_emails(conn: &mut PgConnection, name: &str, count: usize, now: OffsetDateTime) -> (AccountId, AlertId) {
    let email = format!("owner@{}.example", name.to_lowercase());
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(conn), &email, now);
    let when = Conditions::One(Condition {
        subject: Subject::Background("Region".into()),
        operator: Operator::Equals,
        value: Some(ConditionValue::Text("North".into())),
    });
    let input = AlertInput { name: "North".into(), when, recipients: vec![email.clone()], include_answers: true };
    let alert = PgUnitOfWork::new(conn).insert_alert(account, survey, &input, now).unwrap();
    let set = diesel::sql_query(
        "INSERT INTO answer_sets (account_id, survey_id, completed, created_at, updated_at) \
         VALUES ($1, $2, true, now(), now()) RETURNING id",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(survey.get())
    .get_result::<Id>(conn)
    .unwrap()
    .id;
    let emails: Vec<AlertEmail> = (0..count)
        .map(|n| AlertEmail {
            alert_id: alert.id,
            answer_set_id: AnswerSetId::new(set),
            recipient: format!("person{n}@{}.example", name.to_lowercase()),
            subject: "Alert".into(),
            body: "Their answers".into(),
        })
        .collect();
    PgUnitOfWork::new(conn).enqueue_alert_emails(account, &emails, now).unwrap();
    (account, alert.id)
}

fn stored(conn: &mut PgConnection, account: AccountId, id: i64) -> Stored {
    diesel::sql_query("SELECT status, body FROM alert_emails WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(id)
        .get_result(conn)
        .unwrap()
}

#[test]
fn a_round_of_alert_emails_is_shared_among_accounts_and_leased() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (acme, _) = account_with_emails(&mut conn, "Acme", 8, now);
    let (small, _) = account_with_emails(&mut conn, "Small", 1, now);
    let lease = now + Duration::minutes(5);
    let mut claim = |limit: i64| -> HashMap<AccountId, Vec<ClaimedAlert>> {
        let claimed = PgUnitOfWork::new(&mut conn).claim_due_alerts(now, lease, limit).unwrap();
        let mut by_account: HashMap<AccountId, Vec<ClaimedAlert>> = HashMap::new();
        for alert in claimed {
            by_account.entry(alert.account_id).or_default().push(alert);
        }
        by_account
    };
    let first = claim(4);
    assert_eq!((first[&acme].len(), first[&small].len()), (3, 1), "the small account's email is not held back");
    let sample = &first[&acme][0];
    assert_eq!((sample.attempts, sample.body.as_str()), (1, "Their answers"));
    assert!((sample.lease_until - lease).abs() < Duration::microseconds(1), "leased until the round's lease");
    let second = claim(10);
    assert_eq!((second[&acme].len(), second.get(&small).map_or(0, Vec::len)), (5, 0), "leased ones are not claimed");
    assert!(claim(10).is_empty(), "nothing is left to claim while the leases live");
}

#[test]
fn an_email_is_recorded_under_its_lease_only_and_sent_loses_its_text() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, alert) = account_with_emails(&mut conn, "Acme", 2, now);
    let claimed = PgUnitOfWork::new(&mut conn).claim_due_alerts(now, now + Duration::minutes(5), 10).unwrap();
    assert_eq!(claimed.len(), 2);
    let sent = SettledAlert { alert: claimed[0].clone(), outcome: Outcome::Sent(Accepted("250 ok".into())) };
    let stale = ClaimedAlert { lease_until: now + Duration::minutes(1), ..claimed[1].clone() };
    let lost = SettledAlert { alert: stale, outcome: Outcome::Sent(Accepted("250 ok".into())) };
    let recorded = PgUnitOfWork::new(&mut conn).record_alert_round(&[sent, lost], now).unwrap();
    assert_eq!(recorded, [claimed[0].id], "a lease that is not the claim's records nothing");
    let first = stored(&mut conn, account, claimed[0].id);
    assert_eq!((first.status.as_str(), first.body.as_str()), ("Sent", ""));
    let second = stored(&mut conn, account, claimed[1].id);
    assert_eq!((second.status.as_str(), second.body.as_str()), ("Pending", "Their answers"));

    let survey = diesel::sql_query("SELECT survey_id AS id FROM alerts WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(alert.get())
        .get_result::<Id>(&mut conn)
        .unwrap();
    let survey = canvass_domain::ids::SurveyId::new(survey.id);
    assert!(PgUnitOfWork::new(&mut conn).delete_alert(account, survey, alert).unwrap());
    let left = diesel::sql_query("SELECT count(*) AS id FROM alert_emails WHERE account_id = $1")
        .bind::<BigInt, _>(account.get())
        .get_result::<Id>(&mut conn)
        .unwrap();
    assert_eq!(left.id, 0, "an alert's emails go with it");
}
