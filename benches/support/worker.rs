//! The real `canvass worker` delivering a sendout to an SMTP sink, timed from the activation's answer (the worker
//! already running and idle, as in service) until its last invitation is handed over.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use canvass_testdb::TestDatabase;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};

use time::OffsetDateTime;

use super::{database_with_sendout, Killed, ReadySendout};

/// How often the outbox is polled while the worker runs.
const POLL: Duration = Duration::from_millis(50);
/// Once messages are seen sent, the outbox is counted on every this many polls (once a second).
const COUNT_EVERY: u32 = 20;
/// The worker is given up on when no message is sent for this long.
const STALL: Duration = Duration::from_secs(60);

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

fn count_outbox(conn: &mut PgConnection, condition: &str) -> usize {
    let query = format!("SELECT count(*) AS n FROM outbox WHERE {condition}");
    diesel::sql_query(query).get_result::<Count>(conn).unwrap().n as usize
}

fn any_pending(conn: &mut PgConnection) -> bool {
    #[derive(QueryableByName)]
    struct Any {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        pending: bool,
    }
    let query = "SELECT EXISTS (SELECT 1 FROM outbox WHERE status = 'Pending') AS pending";
    diesel::sql_query(query).get_result::<Any>(conn).unwrap().pending
}

/// Canvass's rates in messages/s: from the activation's answer to the last message handed over (its `sent_at`,
/// the time its round's outcomes were recorded), and from the first message seen sent to the last (steady; `None`
/// when all were sent before the first poll saw any).
pub struct Rates {
    pub total: f64,
    pub steady: Option<f64>,
    /// Milliseconds from the activation's answer to the first message handed over: how soon an idle worker starts.
    pub first_ms: f64,
}

#[derive(QueryableByName)]
struct SentSpan {
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>)]
    first: Option<OffsetDateTime>,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Timestamptz>)]
    last: Option<OffsetDateTime>,
}

/// Whether the worker's listener is connected and listening for activations.
fn listening(conn: &mut PgConnection) -> bool {
    #[derive(QueryableByName)]
    struct Any {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        listening: bool,
    }
    let query = "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() \
                 AND query = 'LISTEN canvass_outbox') AS listening";
    diesel::sql_query(query).get_result::<Any>(conn).unwrap().listening
}

/// Runs the `canvass worker` binary with `sessions` SMTP sessions against the sink, activates a fresh sendout of
/// `count` invitations in `db` once the worker is idle, and waits until all are `Sent`.
pub fn canvass_worker(binary: &Path, port: u16, db: TestDatabase, count: usize, sessions: usize) -> Rates {
    let sendout = database_with_sendout(&db, count);
    canvass_worker_on(binary, port, &db, sendout, count, sessions)
}

/// [`canvass_worker`] on a database already given its sendout of `count` invitations, ready to activate.
pub fn canvass_worker_on(
    binary: &Path,
    port: u16,
    db: &TestDatabase,
    sendout: ReadySendout,
    count: usize,
    sessions: usize,
) -> Rates {
    let mut conn = db.connect();
    let outbox_dir = std::env::temp_dir().join("canvass-bench-outbox");
    let mut command = Command::new(binary);
    command
        .arg("worker")
        .env("DATABASE_URL", db.url())
        .env("SMTP_URL", format!("smtp://127.0.0.1:{port}"))
        .env("DELIVERY_CONCURRENCY", sessions.to_string())
        .env("PUBLIC_URL", "https://bench.example")
        .env("OUTBOX_DIR", &outbox_dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut worker = Killed(command.spawn().unwrap());
    let ready_by = Instant::now() + STALL;
    while !listening(&mut conn) {
        assert!(Instant::now() < ready_by, "the worker never listened for activations");
        if let Some(status) = worker.0.try_wait().unwrap() {
            panic!("the worker exited ({status}) before it listened; run it by hand with RUST_LOG=info");
        }
        sleep(Duration::from_millis(20));
    }
    // Past its first round (on an empty outbox) and into its pause, as a worker waits for an activation.
    sleep(Duration::from_millis(300));

    sendout.activate(db);
    let activated = OffsetDateTime::now_utc();
    assert_eq!(count_outbox(&mut conn, "status IN ('Pending', 'Sent')"), count, "activation queues every invitation");
    let (mut first, mut last_progress, mut sent_before) = (None, Instant::now(), 0);
    let mut polls = 0_u32;
    loop {
        let now = Instant::now();
        // Whether any message is still pending reads one entry of the partial index of pending messages; the
        // count reads all of them (a few milliseconds at 20,000), so it is taken only until the first message is
        // seen sent and then once a second, to see progress: the benchmark's polling costs the database it
        // measures next to nothing. Nothing fails here, so every message no longer pending was recorded as sent.
        let counted = first.is_none() || polls.is_multiple_of(COUNT_EVERY);
        polls += 1;
        if !counted {
            if !any_pending(&mut conn) {
                break;
            }
            sleep(POLL);
            continue;
        }
        let sent = count - count_outbox(&mut conn, "status = 'Pending'");
        if sent > 0 && first.is_none() {
            first = Some((OffsetDateTime::now_utc(), sent));
        }
        if sent >= count {
            break;
        }
        if sent > sent_before {
            (sent_before, last_progress) = (sent, now);
        }
        if let Some(status) = worker.0.try_wait().unwrap() {
            panic!("the worker exited ({status}) after {sent} of {count} sent; run it by hand with RUST_LOG=info");
        }
        if now - last_progress > STALL {
            let others = count_outbox(&mut conn, "status NOT IN ('Pending', 'Sent')");
            panic!("no message sent for {STALL:?}: {sent} of {count} sent, {others} bounced, failed or cancelled");
        }
        sleep(POLL);
    }
    drop(worker);
    assert_eq!(count_outbox(&mut conn, "status = 'Sent'"), count, "every message was sent, none failed");
    let span = diesel::sql_query("SELECT min(sent_at) AS first, max(sent_at) AS last FROM outbox")
        .get_result::<SentSpan>(&mut conn)
        .unwrap();
    let last = span.last.unwrap();
    let first_ms = (span.first.unwrap() - activated).as_seconds_f64() * 1000.0;
    let seconds = |from: OffsetDateTime| (last - from).as_seconds_f64();
    let total = count as f64 / seconds(activated);
    let steady = first.filter(|&(_, sent)| sent < count).map(|(seen, sent)| (count - sent) as f64 / seconds(seen));
    Rates { total, steady, first_ms }
}
