//! Benchmark: the retention engine removing 1,000,000 expired respondents, against one raw `DELETE` of the same
//! rows on the same database. Run with `just bench`; `BENCH_RESPONDENTS` sets the count (default 1,000,000).

#![expect(clippy::unwrap_used)]

use std::time::Instant;

use canvass_domain::clock::SystemClock;
use canvass_domain::distribution::{DispatchType, MessageInput, SendoutInput};
use canvass_domain::governance::{RetentionAction, RuleInput, RuleScope};
use canvass_domain::ports::{StoreExt, UnitOfWork};
use canvass_domain::survey::SurveyInput;
use canvass_domain::use_cases::{accounts, retention_rules, sendouts, surveys};
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Timestamptz};
use diesel::{PgConnection, RunQueryDsl};
use time::{Duration, OffsetDateTime};

/// Inserts `count` respondents of `sendout`, added `age` ago, in one server-side statement.
fn fill(conn: &mut PgConnection, account: i64, sendout: i64, count: i64, added_at: OffsetDateTime, tag: &str) {
    diesel::sql_query(format!(
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
             status, token, added_at) \
         SELECT $1, $2, 'p' || n || '.{tag}@bench.example', 'p' || n || '.{tag}@bench.example', true, '{{}}', \
             'Scheduled', md5(n || '{tag}') || md5('{tag}' || n), $4 \
         FROM generate_series(1, $3) AS n"
    ))
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(sendout)
    .bind::<BigInt, _>(count)
    .bind::<Timestamptz, _>(added_at)
    .execute(conn)
    .unwrap();
    diesel::sql_query("ANALYZE respondents").execute(conn).unwrap();
}

fn main() {
    let count: i64 = std::env::var("BENCH_RESPONDENTS").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let db = TestDatabase::new();
    let clock = SystemClock;
    let store = db.store();
    let set_up = |uow: &mut dyn UnitOfWork| {
        let account = accounts::create_account(uow, &clock, "Bench", "b@bench.example")?.account_id;
        let survey = surveys::create(uow, &clock, account, SurveyInput { name: "Bench".into(), ..Default::default() })?;
        let sendout = sendouts::create(
            uow,
            &clock,
            account,
            survey.id,
            SendoutInput {
                name: "Bench".into(),
                kind: DispatchType::Login,
                message: MessageInput::default(),
                expiry_date: None,
                language: None,
                open_link: Default::default(),
            },
        )?;
        let rule =
            RuleInput { action: RetentionAction::RemoveRespondentDataWithoutAnswers, retention_days: 30, status: None };
        retention_rules::set(uow, &clock, account, RuleScope::Account, rule)?;
        Ok((account, sendout))
    };
    let (account, sendout) = store.with_uow(set_up).unwrap();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let added_at = now - Duration::days(100);

    fill(&mut conn, account.get(), sendout.id.get(), count, added_at, "engine");
    let started = Instant::now();
    let summary =
        store.with_uow(|uow| canvass_domain::use_cases::retention::run(uow, now, false, true, &mut |_, _| {})).unwrap();
    let engine = started.elapsed();
    assert_eq!(summary.respondents_removed, count as u64);

    fill(&mut conn, account.get(), sendout.id.get(), count, added_at, "raw");
    let started = Instant::now();
    let removed =
        diesel::sql_query("DELETE FROM respondents WHERE account_id = $1 AND sendout_id = $2 AND added_at <= $3")
            .bind::<BigInt, _>(account.get())
            .bind::<BigInt, _>(sendout.id.get())
            .bind::<Timestamptz, _>(now - Duration::days(30))
            .execute(&mut conn)
            .unwrap();
    let raw = started.elapsed();
    assert_eq!(removed as i64, count);

    println!("retention: remove {count} expired respondents");
    println!(
        "  engine ({} rows a batch): {:8.2} s  ({:.0} rows/s)",
        canvass_domain::use_cases::retention::BATCH,
        engine.as_secs_f64(),
        count as f64 / engine.as_secs_f64()
    );
    println!(
        "  one raw DELETE:            {:8.2} s  ({:.0} rows/s)",
        raw.as_secs_f64(),
        count as f64 / raw.as_secs_f64()
    );
    println!("  ratio engine / raw:        {:8.2}", engine.as_secs_f64() / raw.as_secs_f64());
}
