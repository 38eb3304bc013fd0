//! Delivery records that lose nothing: one address refused for two sendouts of one account in one round is two
//! permanent failures (migration `2020-11-27-144100_permanent_failures_per_respondent`), while the same failure
//! recorded again is still one; a webhook round leaves each delivery the reason of its last failure and each
//! webhook its last attempt's time and its consecutive failures, and a worker whose lease ran out changes neither;
//! each outcome of a round gives its respondent the status it makes, and only from the statuses it may.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::delivery::{Outcome, Settled};
use canvass_domain::distribution::{NewPermanentFailure, RespondentStatus};
use canvass_domain::ids::AccountId;
use canvass_domain::ports::{
    AccountRepository, BlocklistRepository, OutboxRepository, SurveyRepository, WebhookRepository,
};
use canvass_domain::survey::{SurveyDraft, SurveyInput};
use canvass_domain::webhook::{AttemptRecord, AttemptResult, WebhookDraft, WebhookEvent, WebhookSecret};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Bool, Nullable, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::{Duration, OffsetDateTime};

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

#[derive(QueryableByName, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FailureRow {
    #[diesel(sql_type = Nullable<BigInt>)]
    sendout_id: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    respondent_id: Option<i64>,
    #[diesel(sql_type = Text)]
    email_key: String,
}

fn new_account(conn: &mut PgConnection, now: OffsetDateTime) -> (AccountId, i64) {
    let mut uow = PgUnitOfWork::new(conn);
    let new = NewAccount::new("Acme", "owner@acme.example").unwrap();
    let account = uow.create_account(&new, &ApiKey::generate(), now).unwrap().0;
    let input = SurveyInput { name: "Pulse".into(), ..Default::default() };
    let survey = uow.insert_survey(account, &SurveyDraft::new(input, now).unwrap(), now).unwrap();
    (account, survey.id.get())
}

/// An active EMAIL sendout of the survey with one released respondent at `contact`, whose invitation is due a
/// minute ago; returns the sendout and the respondent.
fn sendout_to(conn: &mut PgConnection, account: AccountId, survey: i64, contact: &str) -> (i64, i64) {
    let id = |conn: &mut PgConnection, sql: &str, other: i64| {
        diesel::sql_query(sql)
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(other)
            .bind::<Text, _>(contact)
            .get_result::<Id>(conn)
            .unwrap()
            .id
    };
    let sendout = id(
        conn,
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, sender, subject, \
         message, respondent_count, pending_count, outbox_queued) VALUES ($1, $2, 'Invite ' || $3, 'EMAIL', 'Active', now(), \
         'hr@acme.example', 'Your view', 'Answer: {{surveyLink}}', 0, 0, true) RETURNING id",
        survey,
    );
    let respondent = id(
        conn,
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
         status, token, added_at) VALUES ($1, $2, $3, lower($3), true, '{}', 'Released', \
         'token' || nextval('respondents_id_seq'), now()) RETURNING id",
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
    (sendout, respondent)
}

fn failures(conn: &mut PgConnection) -> Vec<FailureRow> {
    let mut rows: Vec<FailureRow> =
        diesel::sql_query("SELECT sendout_id, respondent_id, email_key FROM permanent_failures").load(conn).unwrap();
    rows.sort();
    rows
}

#[test]
fn one_address_refused_for_two_sendouts_in_one_round_is_two_failures_and_the_same_failure_is_one() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = new_account(&mut conn, now);
    let first = sendout_to(&mut conn, account, survey, "gone@example.com");
    let second = sendout_to(&mut conn, account, survey, "Gone@Example.com");

    let claimed = PgUnitOfWork::new(&mut conn).claim_due(now, now + Duration::minutes(5), 10).unwrap();
    assert_eq!(claimed.len(), 2);
    let settled: Vec<Settled> = claimed
        .into_iter()
        .map(|message| Settled { message, outcome: Outcome::Bounced("550 5.1.1 no such user".into()) })
        .collect();
    let recorded = PgUnitOfWork::new(&mut conn).record_round(&settled, now).unwrap();
    assert_eq!(recorded.ids.len(), 2);
    let row = |(sendout, respondent): (i64, i64)| FailureRow {
        sendout_id: Some(sendout),
        respondent_id: Some(respondent),
        email_key: "gone@example.com".into(),
    };
    let mut expected = vec![row(first), row(second)];
    expected.sort();
    assert_eq!(failures(&mut conn), expected, "one per sendout, at the same address and time");

    // The same failure again (the bounce statement's own shape) is the one already kept. The table is read, not the
    // count the statement reports: Citus pulls an INSERT … SELECT of one table into itself to the coordinator and
    // reports the rows it pulled, whatever ON CONFLICT then kept.
    diesel::sql_query(
        "INSERT INTO permanent_failures (account_id, email_address, email_key, sending_domain, failed_at, reason, \
         sendout_id, respondent_id) SELECT account_id, email_address, email_key, sending_domain, failed_at, reason, \
         sendout_id, respondent_id FROM permanent_failures WHERE account_id = $1 ON CONFLICT DO NOTHING",
    )
    .bind::<BigInt, _>(account.get())
    .execute(&mut conn)
    .unwrap();
    assert_eq!(failures(&mut conn), expected, "each failure is kept once");

    // Failures posted through the API name no sendout: one of an address and a time is one, posted twice.
    let posted = NewPermanentFailure::check("gone@example.com", "acme.example", now, "550", "").unwrap();
    let mut uow = PgUnitOfWork::new(&mut conn);
    assert_eq!(uow.record_failures(account, std::slice::from_ref(&posted)).unwrap(), 1, "a third: no sendout");
    assert_eq!(uow.record_failures(account, &[posted]).unwrap(), 0, "the same posted failure again");
    assert_eq!(failures(&mut conn).len(), 3);
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct RespondentRow {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Bool)]
    sent: bool,
}

#[test]
fn each_outcome_gives_its_respondent_its_status_and_only_from_the_statuses_it_may() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = new_account(&mut conn, now);
    // Each respondent's status before the round, and its message's outcome.
    let cases = [
        ("sent@example.com", "Scheduled", Outcome::Sent(canvass_domain::delivery::Accepted("250 ok".into()))),
        ("failed@example.com", "Scheduled", Outcome::Failed("no route".into())),
        ("blocked@example.com", "Sent", Outcome::Cancelled(RespondentStatus::Blocklisted)),
        ("late@example.com", "Released", Outcome::Cancelled(RespondentStatus::Expired)),
        ("bounced@example.com", "Bounced", Outcome::Sent(canvass_domain::delivery::Accepted("250 ok".into()))),
    ];
    let mut respondents = Vec::new();
    for (contact, status, _) in &cases {
        let (_, respondent) = sendout_to(&mut conn, account, survey, contact);
        diesel::sql_query("UPDATE respondents SET status = $2 WHERE id = $1")
            .bind::<BigInt, _>(respondent)
            .bind::<Text, _>(*status)
            .execute(&mut conn)
            .unwrap();
        respondents.push(respondent);
    }

    let claimed = PgUnitOfWork::new(&mut conn).claim_due(now, now + Duration::minutes(5), 10).unwrap();
    assert_eq!(claimed.len(), cases.len());
    let outcome_of = |respondent: i64| {
        let at = respondents.iter().position(|id| *id == respondent).unwrap();
        cases[at].2.clone()
    };
    let settled: Vec<Settled> = claimed
        .into_iter()
        .map(|message| Settled { outcome: outcome_of(message.respondent_id.get()), message })
        .collect();
    let recorded = PgUnitOfWork::new(&mut conn).record_round(&settled, now).unwrap();
    assert_eq!(recorded.ids.len(), cases.len());

    let after: Vec<RespondentRow> =
        diesel::sql_query("SELECT status, sent_at IS NOT NULL AS sent FROM respondents ORDER BY id")
            .load(&mut conn)
            .unwrap();
    let row = |status: &str, sent: bool| RespondentRow { status: status.into(), sent };
    assert_eq!(
        after,
        [
            row("Sent", true),
            row("Failed", false),
            row("Blocklisted", false),
            row("Expired", false),
            row("Bounced", false),
        ],
        "Sent and Failed settle a Scheduled respondent only; Blocklisted and Expired also a Sent or Released one"
    );
}

#[test]
fn a_round_records_the_webhooks_last_attempt_and_failures_and_a_stale_lease_changes_nothing() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    let (account, _) = new_account(&mut conn, now);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let draft = WebhookDraft::check("https://hooks.acme.example/in", vec![WebhookEvent::RespondentSent], None, false);
    let webhook = uow.insert_webhook(account, &draft.unwrap(), &WebhookSecret::generate(), now).unwrap();
    assert_eq!((webhook.last_delivery_at, webhook.consecutive_failures), (None, 0));
    for _ in 0..2 {
        assert!(uow.enqueue_test(account, webhook.id, now).unwrap());
    }
    let round = |uow: &mut PgUnitOfWork, at: OffsetDateTime, results: &[AttemptResult]| {
        let claimed = uow.claim_webhook_deliveries(at, at + Duration::minutes(2), 10).unwrap();
        assert_eq!(claimed.len(), results.len(), "claimed at {at}");
        let records: Vec<AttemptRecord> =
            claimed.iter().zip(results).map(|(d, result)| AttemptRecord::of(d, result.clone(), at)).collect();
        uow.record_webhook_attempts(&records).unwrap();
        records
    };
    let state = |uow: &mut PgUnitOfWork| {
        let found = uow.find_webhook(account, webhook.id).unwrap().unwrap();
        (found.last_delivery_at, found.consecutive_failures)
    };

    round(&mut uow, now, &[AttemptResult::Answered(500), AttemptResult::NotReached("connection refused".into())]);
    assert_eq!(state(&mut uow), (Some(now), 2), "both attempts of the round failed");
    let listed = uow.list_deliveries(account, webhook.id, 10).unwrap();
    let errors: Vec<Option<&str>> = listed.iter().map(|d| d.last_error.as_deref()).collect();
    assert_eq!(errors, [Some("connection refused"), Some("the receiver answered 500")], "newest first");

    let later = now + Duration::hours(1);
    round(&mut uow, later, &[AttemptResult::Answered(204), AttemptResult::Answered(503)]);
    assert_eq!(state(&mut uow), (Some(later), 0), "a success in the round resets the count");
    let listed = uow.list_deliveries(account, webhook.id, 10).unwrap();
    assert_eq!(listed[1].last_error.as_deref(), Some("the receiver answered 500"), "kept after its success");
    assert_eq!(listed[0].last_error.as_deref(), Some("the receiver answered 503"));

    // A record made under a lease that is not the delivery's (a worker whose lease ran out) changes nothing.
    let stale_at = now + Duration::hours(2);
    let stale = round(&mut uow, stale_at, &[AttemptResult::Answered(500)]);
    assert_eq!(state(&mut uow), (Some(stale_at), 1));
    let mut replayed = stale[0].clone();
    replayed.lease_until = stale_at + Duration::minutes(1);
    replayed.attempted_at = stale_at + Duration::minutes(1);
    uow.record_webhook_attempts(&[replayed]).unwrap();
    assert_eq!(state(&mut uow), (Some(stale_at), 1), "an attempt under another lease changes nothing");
}
