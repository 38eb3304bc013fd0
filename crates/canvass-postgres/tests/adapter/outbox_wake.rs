//! The wake-up of idle workers: a release that queues invitations notifies a listener when its transaction
//! commits (not before), one that queues none stays silent, and a listener whose connection is killed says so once
//! and then waits before connecting again.

use std::time::{Duration as StdDuration, Instant};

use canvass_domain::ids::{AccountId, SendoutId};
use canvass_domain::ports::{ReleaseRepository, Transactional};
use canvass_postgres::{OutboxListener, PgUnitOfWork};
use canvass_testdb::TestDatabase;
use diesel::{PgConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::support::{account_with_survey, sendout_with_pending};

/// Whether `listener` hears anything within `wait`.
fn hears_within(listener: &mut OutboxListener, wait: StdDuration) -> Result<bool, String> {
    let until = Instant::now() + wait;
    loop {
        if listener.heard()? {
            return Ok(true);
        }
        if Instant::now() >= until {
            return Ok(false);
        }
        std::thread::sleep(StdDuration::from_millis(10));
    }
}

/// A unit of work that has released the sendout's Pending respondents in a transaction it has not committed.
fn release(conn: &mut PgConnection, account: AccountId, sendout: i64, now: OffsetDateTime) -> PgUnitOfWork<'_> {
    let mut uow = PgUnitOfWork::new(conn);
    uow.begin().unwrap();
    uow.release_pending(account, SendoutId::new(sendout), &[], true, now).unwrap();
    uow
}

#[test]
fn a_release_that_queues_invitations_wakes_a_listener_when_it_commits() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let queuing = sendout_with_pending(&mut conn, account.get(), survey.get(), 3, now);
    let empty = sendout_with_pending(&mut conn, account.get(), survey.get(), 0, now);
    let mut listener = OutboxListener::new(db.url());
    assert_eq!(listener.heard(), Ok(false), "connected and listening, nothing said yet");

    let mut uow = release(&mut conn, account, queuing, now);
    assert_eq!(hears_within(&mut listener, StdDuration::from_millis(200)), Ok(false), "not before the commit");
    uow.commit().unwrap();
    assert_eq!(hears_within(&mut listener, StdDuration::from_secs(5)), Ok(true), "heard once it committed");
    assert_eq!(listener.heard(), Ok(false), "each notification is heard once");

    release(&mut conn, account, empty, now).commit().unwrap();
    assert_eq!(hears_within(&mut listener, StdDuration::from_millis(300)), Ok(false), "nothing queued, no wake-up");
}

#[test]
fn a_listener_whose_connection_is_killed_says_so_once_and_waits_to_connect_again() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut listener = OutboxListener::new(db.url());
    assert_eq!(listener.heard(), Ok(false));
    diesel::sql_query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN canvass_outbox' \
         AND datname = current_database()",
    )
    .execute(&mut conn)
    .unwrap();
    let until = Instant::now() + StdDuration::from_secs(5);
    let lost = loop {
        match listener.heard() {
            Err(error) => break error,
            Ok(_) if Instant::now() < until => std::thread::sleep(StdDuration::from_millis(10)),
            Ok(_) => panic!("the killed connection was never noticed"),
        }
    };
    assert!(!lost.is_empty(), "the failure is described");
    assert_eq!(listener.heard(), Ok(false), "after the failure, quiet until it may connect again");
}
