//! The backlog `/metrics` reads from the sendouts' tallies is the one a count of the outbox finds: after a release
//! queues invitations, a round settles them every way a message can go (a sender's refusal holding the sendout's
//! other invitations), a claim takes held messages, a reminder queues more, retention erases and removes
//! respondents, and an idle poll clears the drained sendout. The count of the outbox is the statement the scrape
//! ran before the tallies, kept here as the oracle.

use canvass_domain::delivery::{Accepted, ClaimedMessage, Hold, HoldKind, Outcome, Settled};
use canvass_domain::distribution::RespondentStatus;
use canvass_domain::ids::{AccountId, SendoutId};
use canvass_domain::ports::{OutboxBacklog, OutboxRepository, ReleaseRepository, RetentionRepository, Transactional};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Nullable, Timestamptz};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::{Duration, OffsetDateTime};

use crate::support::{account_with_survey, sendout_with_pending};

/// The scrape's statement before the tallies: it counts every Pending message of the active sending sendouts.
const COUNTED: &str = "SELECT count(*) AS pending, count(o.hold_kind) AS held, \
         min(o.due_at) FILTER (WHERE o.due_at <= $1) AS oldest_due \
     FROM outbox o JOIN sendouts s ON s.account_id = o.account_id AND s.id = o.sendout_id \
     WHERE o.status = 'Pending' AND s.status = 'Active' AND s.dispatch_type IN ('EMAIL', 'SMS', 'TWOWAY')";

#[derive(QueryableByName)]
struct Counted {
    #[diesel(sql_type = BigInt)]
    pending: i64,
    #[diesel(sql_type = BigInt)]
    held: i64,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    oldest_due: Option<OffsetDateTime>,
}

#[derive(QueryableByName, Debug, PartialEq, Eq)]
struct Tallies {
    #[diesel(sql_type = BigInt)]
    outbox_pending: i64,
    #[diesel(sql_type = BigInt)]
    outbox_held: i64,
}

/// What the scrape reads and what the count finds, at `now`.
fn both(conn: &mut PgConnection, now: OffsetDateTime) -> (OutboxBacklog, OutboxBacklog) {
    let read = PgUnitOfWork::new(conn).backlog(now).unwrap();
    let counted: Counted = diesel::sql_query(COUNTED).bind::<Timestamptz, _>(now).get_result(conn).unwrap();
    let counted =
        OutboxBacklog { pending: counted.pending as u64, held: counted.held as u64, oldest_due: counted.oldest_due };
    (read, counted)
}

fn assert_agree(conn: &mut PgConnection, now: OffsetDateTime, step: &str) -> OutboxBacklog {
    let (read, counted) = both(conn, now);
    assert_eq!(read, counted, "after {step}");
    read
}

fn tallies(conn: &mut PgConnection, sendout: i64) -> Tallies {
    diesel::sql_query("SELECT outbox_pending, outbox_held FROM sendouts WHERE id = $1")
        .bind::<BigInt, _>(sendout)
        .get_result(conn)
        .unwrap()
}

/// Records `outcomes` for `messages` (in order) in one transaction, as the worker does.
fn record(conn: &mut PgConnection, messages: &[ClaimedMessage], outcomes: Vec<Outcome>, now: OffsetDateTime) {
    let settled: Vec<Settled> =
        messages.iter().cloned().zip(outcomes).map(|(message, outcome)| Settled { message, outcome }).collect();
    let mut uow = PgUnitOfWork::new(conn);
    uow.begin().unwrap();
    let recorded = uow.record_round(&settled, now).unwrap();
    uow.commit().unwrap();
    assert_eq!(recorded.ids.len(), settled.len(), "every message was still under its lease");
}

fn sent() -> Outcome {
    Outcome::Sent(Accepted("250 ok".into()))
}

#[test]
fn the_tallies_count_what_the_outbox_holds_through_every_way_a_message_goes() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let sendout = sendout_with_pending(&mut conn, account.get(), survey.get(), 8, now);
    let (account_id, sendout_id) = (AccountId::new(account.get()), SendoutId::new(sendout));

    PgUnitOfWork::new(&mut conn).release_pending(account_id, sendout_id, &[], true, now).unwrap();
    let queued = assert_agree(&mut conn, now, "the release");
    assert_eq!((queued.pending, queued.held), (8, 0), "eight invitations queued");

    let lease = now + Duration::minutes(5);
    let first = PgUnitOfWork::new(&mut conn).claim_due(now, lease, 8).unwrap();
    assert_eq!(first.len(), 8);
    let (soon, later) = (now + Duration::minutes(1), now + Duration::minutes(10));
    let outcomes = vec![
        sent(),
        Outcome::DueAgain(soon, "451 try later".into()),
        Outcome::Held(now + Duration::minutes(5), Hold::new(HoldKind::Relay, "connection refused")),
        Outcome::Failed("no address".into()),
        Outcome::Bounced("550 5.1.1 no such user".into()),
        Outcome::Cancelled(RespondentStatus::Blocklisted),
        Outcome::Held(later, Hold::new(HoldKind::Sender, "553 sender refused")),
    ];
    record(&mut conn, &first[..7], outcomes, now);
    let settled = assert_agree(&mut conn, now, "a round that settled seven ways");
    assert_eq!(
        (settled.pending, settled.held),
        (4, 3),
        "the sender's refusal holds the one due again and holds the held one longer; the eighth is still leased"
    );

    let after_holds = now + Duration::minutes(11);
    let second = PgUnitOfWork::new(&mut conn).claim_due(after_holds, after_holds + Duration::minutes(5), 10).unwrap();
    assert_eq!(second.len(), 4, "the held ones and the one whose lease ran out");
    let claimed = assert_agree(&mut conn, after_holds, "a claim of held messages");
    assert_eq!(claimed.held, 0, "a message being tried is not held");
    record(&mut conn, &second, vec![sent(), sent(), Outcome::DueAgain(later, "451".into()), sent()], after_holds);
    assert_eq!(assert_agree(&mut conn, after_holds, "the second round").pending, 1);

    diesel::sql_query(
        "INSERT INTO reminders (account_id, sendout_id, sendout_logic, send_date, sender, message, status, \
         created_at, messages) VALUES ($1, $2, 'All', $3, 'hr@acme.example', 'Still there? {{surveyLink}}', \
         'Scheduled', $3, '{}')",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(sendout)
    .bind::<Timestamptz, _>(after_holds)
    .execute(&mut conn)
    .unwrap();
    let reminded = PgUnitOfWork::new(&mut conn).enqueue_due_reminders(after_holds).unwrap();
    assert_eq!(reminded, 4, "a reminder to each respondent the invitation reached");
    assert_eq!(assert_agree(&mut conn, after_holds, "the reminder").pending, 5);

    let erased = PgUnitOfWork::new(&mut conn).erase_respondents(account, survey, &[], 2, false).unwrap();
    assert_eq!(erased, 2);
    let after_erasure = assert_agree(&mut conn, after_holds, "an erasure that cancels their messages");
    let removed = PgUnitOfWork::new(&mut conn).remove_respondents(account, sendout_id, now, 3, false).unwrap();
    assert_eq!(removed, 3);
    let after_removal = assert_agree(&mut conn, after_holds, "a removal whose messages go with the respondents");
    assert!(after_removal.pending < after_erasure.pending, "the removal took queued messages with it");

    let last = now + Duration::minutes(20);
    let rest = PgUnitOfWork::new(&mut conn).claim_due(last, last + Duration::minutes(5), 10).unwrap();
    let outcomes = rest.iter().map(|_| sent()).collect();
    record(&mut conn, &rest, outcomes, last);
    assert_eq!(assert_agree(&mut conn, last, "the last round"), OutboxBacklog::default());
    assert!(PgUnitOfWork::new(&mut conn).claim_due(last, last + Duration::minutes(5), 10).unwrap().is_empty());
    assert_eq!(tallies(&mut conn, sendout), Tallies { outbox_pending: 0, outbox_held: 0 }, "drained");
}

#[test]
fn a_drifted_tally_never_reads_below_zero_and_the_clear_of_a_drained_sendout_resets_it() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let sendout = sendout_with_pending(&mut conn, account.get(), survey.get(), 1, now);
    PgUnitOfWork::new(&mut conn)
        .release_pending(AccountId::new(account.get()), SendoutId::new(sendout), &[], true, now)
        .unwrap();
    diesel::sql_query("UPDATE sendouts SET outbox_pending = -3, outbox_held = 2 WHERE id = $1")
        .bind::<BigInt, _>(sendout)
        .execute(&mut conn)
        .unwrap();
    let read = PgUnitOfWork::new(&mut conn).backlog(now).unwrap();
    assert_eq!((read.pending, read.held), (0, 0), "a negative count reads as none, and so do its held");

    diesel::sql_query("UPDATE outbox SET status = 'Sent' WHERE sendout_id = $1")
        .bind::<BigInt, _>(sendout)
        .execute(&mut conn)
        .unwrap();
    assert!(PgUnitOfWork::new(&mut conn).claim_due(now, now + Duration::minutes(5), 10).unwrap().is_empty());
    assert_eq!(tallies(&mut conn, sendout), Tallies { outbox_pending: 0, outbox_held: 0 });
}

/// A round recording a message whose respondent a removal is deleting: the removal holds the sendout's row and
/// waits for the message's, which the round holds until its commit. The round's tallies are written after that
/// commit, so it never waits for the sendout's row in turn, and both finish (a round that took the row before its
/// commit would deadlock with the removal, and one of them would fail).
#[test]
fn a_round_and_a_removal_of_its_respondents_both_finish() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let now = OffsetDateTime::now_utc();
    let (account, survey) = account_with_survey(&mut PgUnitOfWork::new(&mut conn), "owner@acme.example", now);
    let sendout = sendout_with_pending(&mut conn, account.get(), survey.get(), 2, now);
    let sendout_id = SendoutId::new(sendout);
    PgUnitOfWork::new(&mut conn).release_pending(account, sendout_id, &[], true, now).unwrap();
    let claimed = PgUnitOfWork::new(&mut conn).claim_due(now, now + Duration::minutes(5), 10).unwrap();

    let mut round = PgUnitOfWork::new(&mut conn);
    round.begin().unwrap();
    let settled: Vec<Settled> = claimed.iter().cloned().map(|message| Settled { message, outcome: sent() }).collect();
    round.record_round(&settled, now).unwrap();
    let removal = std::thread::spawn({
        let mut other = db.connect();
        move || {
            let mut uow = PgUnitOfWork::new(&mut other);
            uow.begin().unwrap();
            let removed = uow.remove_respondents(account, sendout_id, now, 10, false);
            let committed = uow.commit();
            (removed, committed)
        }
    });
    std::thread::sleep(std::time::Duration::from_millis(300));
    round.commit().expect("the round commits while the removal waits for its messages");
    let (removed, committed) = removal.join().unwrap();
    assert_eq!(removed.unwrap(), 2, "the removal went on once the round committed");
    committed.unwrap();
    assert_eq!(assert_agree(&mut conn, now, "the round and the removal"), OutboxBacklog::default());
}
