//! What a report reads beyond the results, through the port: each sendout's funnel (zeros for one with no
//! respondent), a Numeric item's numbers per bin (out-of-range numbers in the end bins, under the filter), and the
//! latest texts of an OpenText item (never a number, nor another survey's or account's text).

use canvass_domain::answer::AnswerFilter;
use canvass_domain::insight::{BinLayout, QuotedTexts, SendoutFunnel};
use canvass_domain::ports::InsightRepository;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;

use super::results::{answered, items};
use super::sendout;

#[test]
fn every_sendout_has_its_funnel_zeros_included() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, _, wave) = answered(&mut conn);
    let draft = sendout(&mut conn, acme, pulse, None);
    let funnels = PgUnitOfWork::new(&mut conn).sendout_funnels(acme, pulse).unwrap();
    let funnel = |sendout, respondents, reached, started, completed| SendoutFunnel {
        sendout,
        name: "Wave".into(),
        respondents,
        reached,
        started,
        completed,
    };
    assert_eq!(funnels, [funnel(wave, 1, 1, 1, 1), funnel(draft, 0, 0, 0, 0)]);
}

#[test]
fn numbers_fall_in_their_bins_and_outside_ones_in_the_end_bins() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, _) = answered(&mut conn);
    let hours = items(&tree)[3];
    let mut uow = PgUnitOfWork::new(&mut conn);
    let all = AnswerFilter::default();
    // -1, 2, 4.5 and 10 hours: bins of 2 from -2.
    let layout = BinLayout::of(hours, -1.0, 10.0);
    assert_eq!((layout.lower, layout.width, layout.bins), (-2.0, 2.0, 7));
    let bins = uow.numeric_bins(acme, pulse, &all, &[layout]).unwrap();
    assert!(bins.iter().all(|(item, ..)| *item == hours));
    let mut bins: Vec<(u32, i64)> = bins.into_iter().map(|(_, bin, n)| (bin, n)).collect();
    bins.sort_unstable();
    assert_eq!(bins, [(0, 1), (2, 1), (3, 1), (6, 1)]);
    let narrow = BinLayout { item: hours, lower: 0.0, width: 1.0, bins: 3 };
    let mut clamped: Vec<(u32, i64)> =
        uow.numeric_bins(acme, pulse, &all, &[narrow]).unwrap().into_iter().map(|(_, bin, n)| (bin, n)).collect();
    clamped.sort_unstable();
    assert_eq!(clamped, [(0, 1), (2, 3)], "-1 in the first bin; 2, 4.5 and 10 in the last");
    let completed = AnswerFilter { completed_only: true, ..AnswerFilter::default() };
    let mut of_completed: Vec<(u32, i64)> =
        uow.numeric_bins(acme, pulse, &completed, &[layout]).unwrap().into_iter().map(|(_, bin, n)| (bin, n)).collect();
    of_completed.sort_unstable();
    assert_eq!(of_completed, [(2, 1), (3, 1), (6, 1)], "the incomplete set's -1 left out");
}

#[test]
fn the_latest_texts_come_first_and_numbers_never() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, _) = answered(&mut conn);
    let (hours, comments) = (items(&tree)[3], items(&tree)[5]);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let all = AnswerFilter::default();
    let texts = uow.quoted_texts(acme, pulse, &all, &[comments, hours], 5).unwrap();
    assert_eq!(texts, [QuotedTexts { item: comments, texts: vec!["ok".into(), "fine".into()] }]);
    let one = uow.quoted_texts(acme, pulse, &all, &[comments], 1).unwrap();
    assert_eq!(one, [QuotedTexts { item: comments, texts: vec!["ok".into()] }]);
}
