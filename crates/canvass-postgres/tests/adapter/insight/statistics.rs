//! A sendout's statistics: the funnel of its reached respondents, the median time to complete (odd and even counts,
//! a `Released` respondent from its addition), the daily series from the first activation in UTC days, zero days
//! included, and the respondents by status, zeros included.

use canvass_domain::distribution::RespondentStatus;
use canvass_domain::insight::DailyActivity;
use canvass_domain::ports::InsightRepository;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::RunQueryDsl;
use time::macros::{date, datetime};

use super::{answer_set, sendout, survey, Planted, NOW};
use crate::support::account_at;

#[test]
fn the_funnel_median_and_days_of_a_sendout_are_counted_from_its_rows() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let (pulse, _) = survey(&mut conn, acme);
    // Last activated on the 12th; the first activation released its respondents on the 10th.
    let wave = sendout(&mut conn, acme, pulse, Some(datetime!(2020-11-12 15:00 UTC)));
    let released = Some(datetime!(2020-11-10 09:00 UTC));
    let added = datetime!(2020-11-09 08:00 UTC);
    let sent =
        |contact, at| Planted { released_at: released, sent_at: Some(at), ..Planted::new(contact, "Sent", added) };
    let mut plant = |planted: Planted| {
        let id = planted.plant(&mut conn, acme, wave);
        (id, wave)
    };
    let ann = plant(sent("ann", datetime!(2020-11-10 10:00 UTC)));
    let bob = plant(sent("bob", datetime!(2020-11-10 12:00 UTC)));
    // Released: her link was given out; her time to complete runs from her addition.
    let cat =
        plant(Planted { released_at: released, ..Planted::new("cat", "Released", datetime!(2020-11-10 06:00 UTC)) });
    let dan = plant(sent("dan", datetime!(2020-11-11 10:00 UTC)));
    plant(Planted {
        opted_out_at: Some(datetime!(2020-11-12 08:00 UTC)),
        ..sent("eve", datetime!(2020-11-11 11:00 UTC))
    });
    // Handed over, then bounced: sent that day, but not reached.
    let fay = plant(Planted { status: "Bounced", ..sent("fay", datetime!(2020-11-11 12:00 UTC)) });
    plant(Planted {
        released_at: released,
        opted_out_at: Some(datetime!(2020-11-11 07:00 UTC)),
        ..Planted::new("gus", "Blocklisted", added)
    });
    plant(Planted::new("hal", "Pending", datetime!(2020-11-13 09:00 UTC)));
    let set = |conn: &mut _, who, created, completed, completed_at| {
        answer_set(conn, acme, pulse, Some(who), created, completed, completed_at);
    };
    // Ann completes 600 s after her invitation.
    set(&mut conn, ann, datetime!(2020-11-10 10:05 UTC), true, Some(datetime!(2020-11-10 10:10 UTC)));
    // Bob starts on the 11th (in UTC; the 10th at UTC-10), and completes another set two days after his invitation.
    set(&mut conn, bob, datetime!(2020-11-10 23:00 -10:00), false, None);
    set(&mut conn, bob, datetime!(2020-11-12 08:00 UTC), true, Some(datetime!(2020-11-12 12:00 UTC)));
    // Cat completes twelve hours after her addition.
    set(&mut conn, cat, datetime!(2020-11-10 09:30 UTC), true, Some(datetime!(2020-11-10 18:00 UTC)));
    // Dan completed a set once and reopened it: started, not completed.
    set(&mut conn, dan, datetime!(2020-11-13 10:00 UTC), false, Some(datetime!(2020-11-13 11:00 UTC)));
    // Fay was not reached: her completed set counts nowhere.
    set(&mut conn, fay, datetime!(2020-11-12 09:00 UTC), true, Some(datetime!(2020-11-12 09:05 UTC)));
    // Another sendout of the survey, and a set of no respondent: neither counts.
    let other = sendout(&mut conn, acme, pulse, Some(datetime!(2020-11-10 09:00 UTC)));
    let ivy = sent("ivy", datetime!(2020-11-10 10:00 UTC)).plant(&mut conn, acme, other);
    answer_set(
        &mut conn,
        acme,
        pulse,
        Some((ivy, other)),
        datetime!(2020-11-10 11:00 UTC),
        true,
        Some(datetime!(2020-11-10 11:00 UTC)),
    );
    answer_set(
        &mut conn,
        acme,
        pulse,
        None,
        datetime!(2020-11-10 11:00 UTC),
        true,
        Some(datetime!(2020-11-10 11:00 UTC)),
    );
    // The day is the UTC day whatever the session's time zone.
    diesel::sql_query("SET TIME ZONE 'Pacific/Honolulu'").execute(&mut conn).unwrap();

    let figures = PgUnitOfWork::new(&mut conn).sendout_figures(acme, wave, date!(2020 - 11 - 14)).unwrap();
    use RespondentStatus::*;
    let by_status: Vec<(RespondentStatus, i64)> = figures.by_status.iter().collect();
    assert_eq!(
        by_status,
        [
            (Pending, 1),
            (Scheduled, 0),
            (Released, 1),
            (Sent, 4),
            (Bounced, 1),
            (Failed, 0),
            (FrequencyLimitReached, 0),
            (Blocklisted, 1),
            (Expired, 0)
        ]
    );
    assert_eq!(figures.opted_out, 2, "eve and gus");
    assert_eq!((figures.reached, figures.started, figures.completed), (5, 4, 3));
    // 600 s (ann), 43,200 s (cat: 12 h from her addition), 172,800 s (bob): the middle one.
    assert_eq!(figures.median_seconds_to_complete, Some(43_200.0));
    let day = |date, sent, started, completed| DailyActivity { date, sent, started, completed };
    assert_eq!(
        figures.daily,
        [
            day(date!(2020 - 11 - 10), 2, 2, 2),
            day(date!(2020 - 11 - 11), 3, 1, 0),
            day(date!(2020 - 11 - 12), 0, 0, 1),
            day(date!(2020 - 11 - 13), 0, 1, 0),
            day(date!(2020 - 11 - 14), 0, 0, 0),
        ],
        "from the first activation (the 10th) to today"
    );
}

#[test]
fn an_even_count_of_completions_has_the_mean_of_the_middle_two_as_its_median() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let (pulse, _) = survey(&mut conn, acme);
    let wave = sendout(&mut conn, acme, pulse, Some(datetime!(2020-11-10 09:00 UTC)));
    let at = datetime!(2020-11-10 10:00 UTC);
    let mut ids = Vec::new();
    for (contact, seconds) in [("ann", 100), ("bob", 301), ("cat", 50), ("dan", 7_200)] {
        let planted = Planted { sent_at: Some(at), ..Planted::new(contact, "Sent", at) };
        let id = planted.plant(&mut conn, acme, wave);
        let done = at + time::Duration::seconds(seconds);
        answer_set(&mut conn, acme, pulse, Some((id, wave)), at, true, Some(done));
        ids.push(id);
    }
    // A second completed set of bob's, later: his first completion counts.
    let later = at + time::Duration::seconds(9_000);
    answer_set(&mut conn, acme, pulse, Some((ids[1], wave)), later, true, Some(later));
    let figures = PgUnitOfWork::new(&mut conn).sendout_figures(acme, wave, date!(2020 - 11 - 10)).unwrap();
    // 50, 100, 301, 7,200: (100 + 301) / 2.
    assert_eq!(figures.median_seconds_to_complete, Some(200.5));
    assert_eq!(figures.daily, [DailyActivity { date: date!(2020 - 11 - 10), sent: 4, started: 4, completed: 4 }]);
}

#[test]
fn a_sendout_never_activated_has_no_days_and_nothing_reached() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let other = account_at(&mut PgUnitOfWork::new(&mut conn), "o@other.example", NOW);
    let (pulse, _) = survey(&mut conn, acme);
    let draft = sendout(&mut conn, acme, pulse, None);
    Planted::new("ann", "Pending", datetime!(2020-11-10 10:00 UTC)).plant(&mut conn, acme, draft);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let figures = uow.sendout_figures(acme, draft, date!(2020 - 11 - 14)).unwrap();
    assert_eq!((figures.by_status.total(), figures.by_status.count(RespondentStatus::Pending)), (1, 1));
    assert_eq!((figures.reached, figures.started, figures.completed, figures.opted_out), (0, 0, 0, 0));
    assert_eq!(figures.median_seconds_to_complete, None);
    assert!(figures.daily.is_empty());
    let theirs = uow.sendout_figures(other, draft, date!(2020 - 11 - 14)).unwrap();
    assert_eq!(theirs.by_status.total(), 0, "another account's sendout counts nothing");
}

#[test]
fn a_day_before_the_first_activation_has_no_days() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let (pulse, _) = survey(&mut conn, acme);
    let wave = sendout(&mut conn, acme, pulse, Some(datetime!(2020-11-10 23:59 UTC)));
    let mut uow = PgUnitOfWork::new(&mut conn);
    assert!(uow.sendout_figures(acme, wave, date!(2020 - 11 - 09)).unwrap().daily.is_empty());
    let first = uow.sendout_figures(acme, wave, date!(2020 - 11 - 10)).unwrap().daily;
    assert_eq!(first, [DailyActivity { date: date!(2020 - 11 - 10), sent: 0, started: 0, completed: 0 }]);
}
