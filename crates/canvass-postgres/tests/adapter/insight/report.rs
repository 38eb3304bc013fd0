//! What a report reads, through the port: each sendout's funnel (zeros for one with no respondent), a Numeric
//! item's numbers per bin from the numbers the results read (out-of-range numbers in the end bins, under the
//! filter), and the latest texts of an OpenText item from the texts the words read (never a number, nor another
//! survey's or account's text).

use canvass_domain::answer::AnswerFilter;
use canvass_domain::ids::AccountId;
use canvass_domain::insight::{BinLayout, Histogram, QuotedTexts, SendoutFunnel, TallyGroup};
use canvass_domain::ports::InsightRepository;
use canvass_domain::survey::QuestionTree;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;

use super::results::{answered, items, texts_read};
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

/// The bins of the layout the numbers the results read fall in, as a report counts them.
fn bins(
    uow: &mut PgUnitOfWork<'_>,
    account: AccountId,
    tree: &QuestionTree,
    filter: &AnswerFilter,
    layout: BinLayout,
) -> Vec<(u32, i64)> {
    let tallies = uow.result_tallies(account, tree, filter, None).unwrap();
    let (_, whole) = tallies.into_iter().find(|(group, _)| *group == TallyGroup::Whole).unwrap();
    let numbers = whole.numbers.iter().filter(|given| given.item == layout.item);
    let histogram = Histogram::of(layout, numbers.map(|given| (layout.bin_of(given.number), given.count)));
    (0..).zip(histogram.counts).filter(|(_, n)| *n > 0).collect()
}

#[test]
fn numbers_fall_in_their_bins_and_outside_ones_in_the_end_bins() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, _, tree, _) = answered(&mut conn);
    let hours = items(&tree)[3];
    let mut uow = PgUnitOfWork::new(&mut conn);
    let all = AnswerFilter::default();
    // -1, 2, 4.5 and 10 hours: bins of 2 from -2.
    let layout = BinLayout::of(hours, -1.0, 10.0);
    assert_eq!((layout.lower, layout.width, layout.bins), (-2.0, 2.0, 7));
    assert_eq!(bins(&mut uow, acme, &tree, &all, layout), [(0, 1), (2, 1), (3, 1), (6, 1)]);
    let narrow = BinLayout { item: hours, lower: 0.0, width: 1.0, bins: 3 };
    let clamped = bins(&mut uow, acme, &tree, &all, narrow);
    assert_eq!(clamped, [(0, 1), (2, 3)], "-1 in the first bin; 2, 4.5 and 10 in the last");
    let completed = AnswerFilter { completed_only: true, ..AnswerFilter::default() };
    let of_completed = bins(&mut uow, acme, &tree, &completed, layout);
    assert_eq!(of_completed, [(2, 1), (3, 1), (6, 1)], "the incomplete set's -1 left out");
}

#[test]
fn the_latest_texts_come_first_and_numbers_never() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, _, tree, _) = answered(&mut conn);
    let comments = items(&tree)[5];
    let mut uow = PgUnitOfWork::new(&mut conn);
    let all = AnswerFilter::default();
    let (_, texts) = texts_read(&mut uow, acme, &tree, &all, None, &[], 5);
    assert_eq!(texts, [QuotedTexts { item: comments, texts: vec!["ok".into(), "fine".into()] }]);
    let (_, one) = texts_read(&mut uow, acme, &tree, &all, None, &[], 1);
    assert_eq!(one, [QuotedTexts { item: comments, texts: vec!["ok".into()] }]);
}
