//! Benchmark: what an idle delivery poll costs at few and at many Active sendouts with nothing to send. Run with
//! `just bench --bench idle_poll`.
//!
//! One account with `BENCH_FEW` (default 10) Active EMAIL sendouts without queued messages, then `BENCH_MANY`
//! (default 100,000), written with SQL and analyzed; at each size the worker's claim (`claim_due`, a round of 200
//! that finds nothing) runs `BENCH_POLLS` times (default 300) on the real database. Target: the median at many at
//! most 1.5 times the median at few. Beside it, the list of due sendouts as it was before the mark (every Active
//! sendout read), timed the same way on the same database, for the figure it replaces.

#![expect(clippy::unwrap_used)]

/// The benches' shared support (`benches/support.rs`), reached from this folder.
#[path = ".."]
mod benches {
    #[expect(dead_code)]
    pub mod support;
}

use std::time::Instant;

use benches::support::{env_number, median};

use canvass_domain::clock::SystemClock;
use canvass_domain::ports::{OutboxRepository, StoreExt, UnitOfWork};
use canvass_domain::survey::{SurveyDraft, SurveyInput};
use canvass_domain::use_cases::accounts;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Timestamptz};
use diesel::{PgConnection, RunQueryDsl};
use time::{Duration, OffsetDateTime};

/// The list of due sendouts before the mark: every Active sending sendout's first claimable entry.
const UNMARKED_DUE_SENDOUTS: &str = "SELECT account_id, sendout_id FROM ( \
         SELECT s.account_id, s.id AS sendout_id, \
                (SELECT min(o.due_at) FROM outbox o \
                 WHERE o.account_id = s.account_id AND o.sendout_id = s.id AND o.status = 'Pending' \
                   AND o.due_at <= $1 AND (o.lease_until IS NULL OR o.lease_until < $1)) AS oldest \
         FROM sendouts s WHERE s.status = 'Active' AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY')) due \
     WHERE oldest IS NOT NULL ORDER BY oldest, account_id, sendout_id LIMIT $2";

/// Adds `count` Active EMAIL sendouts of `survey` with nothing queued, then analyzes.
fn add_sendouts(conn: &mut PgConnection, account: i64, survey: i64, count: u64) {
    diesel::sql_query(
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, sender, subject, \
         message, respondent_count, pending_count) \
         SELECT $1, $2, 'Idle ' || n, 'EMAIL', 'Active', now(), 'hr@bench.example', 'Hi', 'Answer: {{surveyLink}}', \
                0, 0 FROM generate_series(1, $3) AS n",
    )
    .bind::<BigInt, _>(account)
    .bind::<BigInt, _>(survey)
    .bind::<BigInt, _>(count as i64)
    .execute(conn)
    .unwrap();
    diesel::sql_query("ANALYZE sendouts").execute(conn).unwrap();
    diesel::sql_query("ANALYZE outbox").execute(conn).unwrap();
}

/// Median milliseconds of `polls` idle claims, and of as many runs of the list before the mark.
fn measure(conn: &mut PgConnection, polls: u64) -> (f64, f64) {
    let mut claims = Vec::new();
    let mut unmarked = Vec::new();
    // Each in a loop of its own: a scan of every sendout between two claims would leave the claims' pages and
    // the processor's caches cold.
    for _ in 0..polls {
        let now = OffsetDateTime::now_utc();
        let started = Instant::now();
        let claimed = PgUnitOfWork::new(conn).claim_due(now, now + Duration::minutes(5), 200).unwrap();
        claims.push(started.elapsed().as_secs_f64() * 1000.0);
        assert!(claimed.is_empty(), "nothing is queued");
    }
    for _ in 0..polls {
        let now = OffsetDateTime::now_utc();
        let started = Instant::now();
        diesel::sql_query(UNMARKED_DUE_SENDOUTS)
            .bind::<Timestamptz, _>(now)
            .bind::<BigInt, _>(200i64)
            .execute(conn)
            .unwrap();
        unmarked.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    (median(claims), median(unmarked))
}

fn main() {
    let (few, many, polls) =
        (env_number("BENCH_FEW", 10), env_number("BENCH_MANY", 100_000), env_number("BENCH_POLLS", 300));
    let db = TestDatabase::new();
    let create = |uow: &mut dyn UnitOfWork| accounts::create_account(uow, &SystemClock, "Bench", "b@bench.example");
    let account = db.store().with_uow(create).unwrap().account_id;
    let now = OffsetDateTime::now_utc();
    let draft = SurveyDraft::new(SurveyInput { name: "Idle".into(), ..Default::default() }, now).unwrap();
    let survey = db.store().with_uow(|uow| Ok(uow.insert_survey(account, &draft, now)?)).unwrap().id.get();
    let (account, mut conn) = (account.get(), db.connect());
    add_sendouts(&mut conn, account, survey, few);
    let (at_few, unmarked_few) = measure(&mut conn, polls);
    add_sendouts(&mut conn, account, survey, many - few);
    let (at_many, unmarked_many) = measure(&mut conn, polls);
    let ratio = at_many / at_few;
    println!("idle_poll: an idle claim (a round of 200 finding nothing), median of {polls}");
    println!("  {few:>7} Active sendouts  {at_few:>7.3} ms   (the list before the mark: {unmarked_few:>8.3} ms)");
    println!("  {many:>7} Active sendouts  {at_many:>7.3} ms   (the list before the mark: {unmarked_many:>8.3} ms)");
    println!("  ratio {ratio:.2}");
    assert!(ratio <= 1.5, "an idle poll at {many} sendouts costs {ratio:.2} times one at {few}: target at most 1.5");
}
