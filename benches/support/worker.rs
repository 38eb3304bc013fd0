//! The real `canvass worker` delivering a sendout to an SMTP sink, timed until its last invitation is sent.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use canvass_testdb::TestDatabase;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};

use super::{database_with_sendout, Killed};

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

/// Canvass's rates in messages/s: from spawning the worker to the last message sent (total), and from the first
/// sent message seen to the last (steady; `None` when all were sent before the first poll saw any).
pub struct Rates {
    pub total: f64,
    pub steady: Option<f64>,
}

/// Runs the `canvass worker` binary with `sessions` SMTP sessions against the sink until all `count` invitations
/// of a fresh sendout in `db` are `Sent`.
pub fn canvass_worker(binary: &Path, port: u16, db: TestDatabase, count: usize, sessions: usize) -> Rates {
    canvass_worker_on(binary, port, database_with_sendout(db, count), count, sessions)
}

/// [`canvass_worker`] on a database already given its activated sendout of `count` invitations.
pub fn canvass_worker_on(binary: &Path, port: u16, db: TestDatabase, count: usize, sessions: usize) -> Rates {
    let mut conn = db.connect();
    assert_eq!(count_outbox(&mut conn, "status = 'Pending'"), count, "activation queues every invitation");
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

    let started = Instant::now();
    let mut worker = Killed(command.spawn().unwrap());
    let (mut first, mut last_progress, mut sent_before) = (None, Instant::now(), 0);
    let mut polls = 0_u32;
    let finished = loop {
        let now = Instant::now();
        // Whether any message is still pending reads one entry of the partial index of pending messages; the
        // count reads all of them (a few milliseconds at 20,000), so it is taken only until the first message is
        // seen sent and then once a second, to see progress: the benchmark's polling costs the database it
        // measures next to nothing. Nothing fails here, so every message no longer pending was recorded as sent.
        let counted = first.is_none() || polls.is_multiple_of(COUNT_EVERY);
        polls += 1;
        if !counted {
            if !any_pending(&mut conn) {
                break now;
            }
            sleep(POLL);
            continue;
        }
        let sent = count - count_outbox(&mut conn, "status = 'Pending'");
        if sent > 0 && first.is_none() {
            first = Some((now, sent));
        }
        if sent >= count {
            break now;
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
    };
    drop(worker);
    assert_eq!(count_outbox(&mut conn, "status = 'Sent'"), count, "every message was sent, none failed");
    let total = count as f64 / (finished - started).as_secs_f64();
    let steady = first
        .filter(|&(_, sent)| sent < count)
        .map(|(seen, sent)| (count - sent) as f64 / (finished - seen).as_secs_f64());
    Rates { total, steady }
}
