//! A survey's results from answers stored through the port: counts per option (each option a multiple choice
//! chose), the mean, median, lowest and highest numbers, the ratings' distribution, under each filter the answer
//! lists take and the sendout; the filter applied as the answer lists apply it; choices among the most options an
//! item may have.

use canvass_domain::answer::{Answer, AnswerFilter, AnswerSetDraft, AnswerValue};
use canvass_domain::ids::{AccountId, QuestionItemId, SendoutId, SurveyId};
use canvass_domain::insight::{
    Breakdown, ChoiceCount, ItemTally, NumericSummary, QuotedTexts, RatingCount, ResultTallies, TallyGroup,
    TextTallies, WordTally,
};
use canvass_domain::limits;
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::{AnswerRepository, InsightRepository};
use canvass_domain::survey::{PageDraft, QuestionTree, QuestionType, SurveyDraft, SurveyInput};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::{PgConnection, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

use super::{sendout, survey, Planted, NOW};
use crate::support::{account_at, insert_with_tree};

/// The words and latest texts the domain counts from the texts the adapter reads row by row, as the results do.
pub(super) fn texts_read(
    uow: &mut PgUnitOfWork<'_>,
    account: AccountId,
    tree: &QuestionTree,
    filter: &AnswerFilter,
    breakdown: Option<Breakdown>,
    stop: &[String],
    quotes: u32,
) -> (Vec<(TallyGroup, WordTally)>, Vec<QuotedTexts>) {
    let mut texts = TextTallies::new(stop, quotes);
    uow.open_texts(account, tree, filter, breakdown, &mut |group, item, set, text| texts.add(group, item, set, text))
        .unwrap();
    let figures = texts.finish();
    (figures.words, figures.quoted)
}

/// The tree's items: colour, tools, info, hours, recommend, comments.
pub(super) fn items(tree: &QuestionTree) -> Vec<QuestionItemId> {
    tree.items().map(|item| item.id).collect()
}

struct Given {
    completed: bool,
    colour: &'static str,
    tools: Option<&'static [&'static str]>,
    hours: f64,
    recommend: f64,
    comment: Option<&'static str>,
}

fn draft(tree: &QuestionTree, given: &Given) -> AnswerSetDraft {
    let ids = items(tree);
    let mut answers = vec![Answer { question_item_id: ids[0], value: AnswerValue::Text(given.colour.into()) }];
    if let Some(tools) = given.tools {
        let chosen = tools.iter().map(|t| (*t).to_owned()).collect();
        answers.push(Answer { question_item_id: ids[1], value: AnswerValue::Choices(chosen) });
    }
    answers.push(Answer { question_item_id: ids[3], value: AnswerValue::Number(given.hours) });
    answers.push(Answer { question_item_id: ids[4], value: AnswerValue::Number(given.recommend) });
    if let Some(comment) = given.comment {
        answers.push(Answer { question_item_id: ids[5], value: AnswerValue::Text(comment.into()) });
    }
    AnswerSetDraft::check(given.completed, answers, tree).unwrap()
}

const DAY1: OffsetDateTime = datetime!(2020-11-01 10:00 UTC);
const DAY2: OffsetDateTime = datetime!(2020-11-02 10:00 UTC);
const DAY3: OffsetDateTime = datetime!(2020-11-03 10:00 UTC);
const DAY4: OffsetDateTime = datetime!(2020-11-04 10:00 UTC);
const DAY5: OffsetDateTime = datetime!(2020-11-05 10:00 UTC);

/// Four answer sets of the survey, one a day from [`DAY1`] (the fourth of a respondent of the returned sendout),
/// and sets of another survey and another account that must never count.
pub(super) fn answered(conn: &mut PgConnection) -> (AccountId, SurveyId, QuestionTree, SendoutId) {
    let acme = account_at(&mut PgUnitOfWork::new(conn), "a@acme.example", NOW);
    let (pulse, tree) = survey(conn, acme);
    let wave = sendout(conn, acme, pulse, Some(DAY1));
    let ann = Planted { sent_at: Some(DAY1), ..Planted::new("ann", "Sent", DAY1) }.plant(conn, acme, wave);
    let sets = [
        (
            DAY1,
            None,
            Given {
                completed: true,
                colour: "red",
                tools: Some(&["web", "phone"]),
                hours: 4.5,
                recommend: 10.0,
                comment: Some("fine"),
            },
        ),
        (
            DAY2,
            None,
            Given {
                completed: false,
                colour: "red",
                tools: Some(&["web"]),
                hours: -1.0,
                recommend: 3.0,
                comment: None,
            },
        ),
        (
            DAY3,
            None,
            Given {
                completed: true,
                colour: "blue",
                tools: Some(&[]),
                hours: 10.0,
                recommend: 9.0,
                comment: Some("ok"),
            },
        ),
        (
            DAY4,
            Some((ann, wave)),
            Given { completed: true, colour: "green", tools: None, hours: 2.0, recommend: 7.0, comment: None },
        ),
    ];
    let mut uow = PgUnitOfWork::new(conn);
    for (at, respondent, given) in &sets {
        uow.insert_answer_set(acme, pulse, *respondent, &draft(&tree, given), *at).unwrap();
    }
    // Another survey of the account and another account's survey, answered alike.
    let (second, second_tree) = survey(conn, acme);
    let other = account_at(&mut PgUnitOfWork::new(conn), "o@other.example", NOW);
    let (theirs, their_tree) = survey(conn, other);
    let mut uow = PgUnitOfWork::new(conn);
    for (at, _, given) in &sets {
        uow.insert_answer_set(acme, second, None, &draft(&second_tree, given), *at).unwrap();
        uow.insert_answer_set(other, theirs, None, &draft(&their_tree, given), *at).unwrap();
    }
    (acme, pulse, tree, wave)
}

/// The tallies of the whole (none when no set passed).
fn whole(groups: Vec<(TallyGroup, ResultTallies)>) -> ResultTallies {
    let whole = groups.into_iter().find(|(group, _)| *group == TallyGroup::Whole);
    whole.map(|(_, tallies)| tallies).unwrap_or_default()
}

/// The whole's tallies in a fixed order: items by id, choices by item and value, ratings by item and rating.
fn sorted(groups: Vec<(TallyGroup, ResultTallies)>) -> ResultTallies {
    let mut tallies = whole(groups);
    tallies.items.sort_by_key(|t| t.item);
    tallies.choices.sort_by(|a, b| (a.item, &a.value).cmp(&(b.item, &b.value)));
    tallies.ratings.sort_by_key(|r| (r.item, r.rating));
    tallies
}

fn filter(
    from: Option<OffsetDateTime>,
    to: Option<OffsetDateTime>,
    updated: Option<OffsetDateTime>,
    completed: bool,
) -> AnswerFilter {
    AnswerFilter::new(from, to, updated, completed).unwrap()
}

fn numbers(count: i64, mean: f64, median: f64, min: f64, max: f64) -> NumericSummary {
    NumericSummary { count, mean: Some(mean), median: Some(median), min: Some(min), max: Some(max) }
}

#[test]
fn every_answer_of_the_matching_sets_is_tallied() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, _, tree, _) = answered(&mut conn);
    let ids = items(&tree);
    let tallies =
        sorted(PgUnitOfWork::new(&mut conn).result_tallies(acme, &tree, &AnswerFilter::default(), None).unwrap());
    assert_eq!(tallies.answer_sets, 4);
    let none = NumericSummary::default();
    let tally = |item: QuestionItemId, answered, numbers| ItemTally { item, answered, numbers };
    assert_eq!(
        tallies.items,
        [
            tally(ids[0], 4, none),
            tally(ids[1], 3, none),
            // 4.5, -1, 10, 2: mean 15.5 / 4, median (2 + 4.5) / 2.
            tally(ids[3], 4, numbers(4, 3.875, 3.25, -1.0, 10.0)),
            tally(ids[4], 4, none),
        ],
        "the info item has no answer; ratings are no numbers of a numeric item; the texts come apart"
    );
    let mut texts = TextTallies::new(&[], 5);
    let mut uow = PgUnitOfWork::new(&mut conn);
    uow.open_texts(acme, &tree, &AnswerFilter::default(), None, &mut |group, item, set, text| {
        texts.add(group, item, set, text);
    })
    .unwrap();
    assert_eq!(texts.finish().answered, [(TallyGroup::Whole, ids[5], 2)], "two sets answered the comments");
    let choice = |item: QuestionItemId, value: &str, count| ChoiceCount { item, value: value.into(), count };
    assert_eq!(
        tallies.choices,
        [
            choice(ids[0], "blue", 1),
            choice(ids[0], "green", 1),
            choice(ids[0], "red", 2),
            choice(ids[1], "phone", 1),
            choice(ids[1], "web", 2),
        ],
        "each option a multiple choice chose counts (an option never chosen is left out); the open texts are no choices"
    );
    let rating = |rating, count| RatingCount { item: ids[4], rating, count };
    assert_eq!(tallies.ratings, [rating(3, 1), rating(7, 1), rating(9, 1), rating(10, 1)]);
}

#[test]
fn the_filters_of_the_answer_lists_and_the_sendout_narrow_the_sets() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, wave) = answered(&mut conn);
    let ids = items(&tree);
    let mut uow = PgUnitOfWork::new(&mut conn);
    let mut tallied = |filter: &AnswerFilter| sorted(uow.result_tallies(acme, &tree, filter, None).unwrap());

    let completed = tallied(&filter(None, None, None, true));
    assert_eq!(completed.answer_sets, 3);
    // 4.5, 10, 2.
    assert_eq!(completed.items[2], ItemTally { item: ids[3], answered: 3, numbers: numbers(3, 5.5, 4.5, 2.0, 10.0) });
    let ratings: Vec<i64> = completed.ratings.iter().map(|r| r.rating).collect();
    assert_eq!(ratings, [7, 9, 10]);

    // From and to include their instants: the second and third sets.
    let between = tallied(&filter(Some(DAY2), Some(DAY3), None, false));
    assert_eq!(between.answer_sets, 2);
    assert_eq!(between.items[2].numbers, numbers(2, 4.5, 4.5, -1.0, 10.0), "-1 and 10");

    let of_wave = tallied(&AnswerFilter::default().of_sendout(Some(wave)));
    assert_eq!(of_wave.answer_sets, 1);
    assert_eq!(of_wave.items[1], ItemTally { item: ids[3], answered: 1, numbers: numbers(1, 2.0, 2.0, 2.0, 2.0) });
    let chosen = |value: &str, count| ChoiceCount { item: ids[0], value: value.into(), count };
    assert_eq!(of_wave.choices, [chosen("green", 1)], "no multiple choice answered");
    assert_eq!(of_wave.ratings, [RatingCount { item: ids[4], rating: 7, count: 1 }]);

    let other_wave = tallied(&AnswerFilter::default().of_sendout(Some(SendoutId::new(wave.get() + 1_000))));
    assert_eq!(other_wave, ResultTallies::default(), "no set matches: nothing is tallied");

    // A replacement moves the first set's update time: only it was updated since the fifth.
    let replaced = Given { completed: true, colour: "blue", tools: None, hours: 6.0, recommend: 0.0, comment: None };
    let first = uow
        .answer_sets_chunk(acme, pulse, &AnswerFilter::default(), &canvass_domain::chunks::ChunkRequest::first(1))
        .unwrap()[0]
        .id;
    uow.replace_answers(acme, pulse, first, &draft(&tree, &replaced), DAY5).unwrap();
    let updated = sorted(uow.result_tallies(acme, &tree, &filter(None, None, Some(DAY5), false), None).unwrap());
    assert_eq!(updated.answer_sets, 1);
    assert_eq!(updated.choices, [chosen("blue", 1)]);
    assert_eq!(updated.ratings, [RatingCount { item: ids[4], rating: 0, count: 1 }]);
}

#[test]
fn the_aggregates_pass_the_same_sets_as_the_answer_lists() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, wave) = answered(&mut conn);
    let colour = items(&tree)[0];
    let mut uow = PgUnitOfWork::new(&mut conn);
    let filters = [
        AnswerFilter::default(),
        filter(None, None, None, true),
        filter(Some(DAY2), None, None, false),
        filter(None, Some(DAY2), None, true),
        filter(Some(DAY1), Some(DAY4), None, true),
        filter(None, None, Some(DAY3), false),
        filter(None, None, Some(DAY3), true).of_sendout(Some(wave)),
        AnswerFilter::default().of_sendout(Some(wave)),
    ];
    for filter in filters {
        let listed =
            uow.page_answer_sets(acme, pulse, &filter, PageRequest::new(1, 100, "page", "size").unwrap()).unwrap();
        let tallies = whole(uow.result_tallies(acme, &tree, &filter, None).unwrap());
        // Every set answers the colour: its answers are the sets the aggregates passed.
        let answered = tallies.items.iter().find(|t| t.item == colour).map_or(0, |t| t.answered);
        assert_eq!((tallies.answer_sets, answered), (listed.total_count, listed.total_count), "{filter:?}");
    }
}

#[test]
fn a_stored_value_of_another_shape_is_counted_as_answered_and_read_as_nothing() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, _) = answered(&mut conn);
    let ids = items(&tree);
    // Values no write through the domain makes: text for the numeric, rating and multiple choice items, a number
    // for the single choice, a fraction and an out-of-range rating.
    let first = first_set(&mut conn, acme, pulse);
    diesel::sql_query(
        // A searched CASE: Citus deparses a simple `CASE question_item_id WHEN $3` for the shard as comparisons of
        // the column with booleans.
        "UPDATE answers SET value = CASE WHEN question_item_id = $3 THEN '7' WHEN question_item_id = $4 THEN '\"many\"' \
             WHEN question_item_id = $5 THEN '\"ten\"' WHEN question_item_id = $6 THEN '\"web\"' END::jsonb \
         WHERE account_id = $1 AND answer_set_id = $2 AND question_item_id IN ($3, $4, $5, $6)",
    )
    .bind::<BigInt, _>(acme.get())
    .bind::<BigInt, _>(first)
    .bind::<BigInt, _>(ids[0].get())
    .bind::<BigInt, _>(ids[3].get())
    .bind::<BigInt, _>(ids[4].get())
    .bind::<BigInt, _>(ids[1].get())
    .execute(&mut conn)
    .unwrap();
    diesel::sql_query(
        "UPDATE answers SET value = '7.5' WHERE account_id = $1 AND question_item_id = $2 AND answer_set_id = $3 + 1",
    )
    .bind::<BigInt, _>(acme.get())
    .bind::<BigInt, _>(ids[4].get())
    .bind::<BigInt, _>(first)
    .execute(&mut conn)
    .unwrap();
    let tallies =
        sorted(PgUnitOfWork::new(&mut conn).result_tallies(acme, &tree, &AnswerFilter::default(), None).unwrap());
    assert_eq!(tallies.items[0].answered, 4, "still answered");
    // -1, 10, 2 remain numbers.
    assert_eq!(
        tallies.items[2],
        ItemTally { item: ids[3], answered: 4, numbers: numbers(3, 11.0 / 3.0, 2.0, -1.0, 10.0) }
    );
    let colours: Vec<&str> = tallies.choices.iter().filter(|c| c.item == ids[0]).map(|c| c.value.as_str()).collect();
    assert_eq!(colours, ["blue", "green", "red"], "the number is no option value");
    let tools: Vec<(&str, i64)> =
        tallies.choices.iter().filter(|c| c.item == ids[1]).map(|c| (c.value.as_str(), c.count)).collect();
    assert_eq!(tools, [("web", 1)], "a text is no array of choices");
    let ratings: Vec<i64> = tallies.ratings.iter().map(|r| r.rating).collect();
    assert_eq!(ratings, [7, 9], "the text and the fraction are no ratings");
}

/// The id of the survey's first answer set.
fn first_set(conn: &mut PgConnection, account: AccountId, survey: SurveyId) -> i64 {
    let mut uow = PgUnitOfWork::new(conn);
    let first = uow.answer_sets_chunk(
        account,
        survey,
        &AnswerFilter::default(),
        &canvass_domain::chunks::ChunkRequest::first(1),
    );
    first.unwrap()[0].id.get()
}

/// A survey of one page: a SingleChoice and a MultipleChoice item of [`limits::OPTIONS`] options each (`v0`, `v1`,
/// ...), and an OpenText item.
fn survey_of_many_options(conn: &mut PgConnection, account: AccountId) -> (SurveyId, QuestionTree) {
    let values: Vec<String> = (0..limits::OPTIONS).map(|n| format!("v{n}")).collect();
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    let items = vec![
        super::item(QuestionType::SingleChoice, "One of many?", &values),
        super::item(QuestionType::MultipleChoice, "Some of many?", &values),
        super::item(QuestionType::OpenText, "Why?", &[]),
    ];
    let input = SurveyInput {
        name: "Many".into(),
        start_date: Some(DAY1),
        end_date: Some(DAY5),
        pages: vec![PageDraft { title: "One".into(), items, randomize_items: false }],
        ..Default::default()
    };
    let (survey, tree) =
        insert_with_tree(&mut PgUnitOfWork::new(conn), account, &SurveyDraft::new(input, DAY1).unwrap(), DAY1).unwrap();
    (survey.id, tree)
}

#[test]
fn choices_among_the_most_options_an_item_may_have_are_counted_once_per_answer() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let (many, tree) = survey_of_many_options(&mut conn, acme);
    let ids = items(&tree);
    let options = limits::OPTIONS;
    // Set k chooses option (7k mod n) of the single choice, and options k, k + 1 and 2k (mod n) of the multiple
    // choice, two of them the same now and then; every fifth set leaves the multiple choice empty.
    let mut expected_single = vec![0_i64; options];
    let mut expected_multiple = vec![0_i64; options];
    let mut uow = PgUnitOfWork::new(&mut conn);
    for k in 0..300 {
        let single = (7 * k) % options;
        expected_single[single] += 1;
        let mut chosen: Vec<usize> =
            if k % 5 == 0 { vec![] } else { vec![k % options, (k + 1) % options, (2 * k) % options] };
        chosen.sort_unstable();
        chosen.dedup();
        for &option in &chosen {
            expected_multiple[option] += 1;
        }
        let answers = vec![
            Answer { question_item_id: ids[0], value: AnswerValue::Text(format!("v{single}")) },
            Answer {
                question_item_id: ids[1],
                value: AnswerValue::Choices(chosen.iter().map(|n| format!("v{n}")).collect()),
            },
            Answer { question_item_id: ids[2], value: AnswerValue::Text("v1".into()) },
        ];
        let draft = AnswerSetDraft::check(true, answers, &tree).unwrap();
        uow.insert_answer_set(acme, many, None, &draft, DAY2).unwrap();
    }
    // A stored array no write through the domain makes: a value twice, a number, a value of no option. It counts once
    // for `v3`, and nothing else.
    let last = first_set(&mut conn, acme, many) + 299;
    diesel::sql_query(
        "UPDATE answers SET value = '[\"v3\", \"v3\", 4, \"v4 \", \"elsewhere\"]'::jsonb \
         WHERE account_id = $1 AND answer_set_id = $2 AND question_item_id = $3",
    )
    .bind::<BigInt, _>(acme.get())
    .bind::<BigInt, _>(last)
    .bind::<BigInt, _>(ids[1].get())
    .execute(&mut conn)
    .unwrap();
    for option in [299 % options, 300 % options, 598 % options] {
        expected_multiple[option] -= 1;
    }
    expected_multiple[3] += 1;

    let tallies =
        sorted(PgUnitOfWork::new(&mut conn).result_tallies(acme, &tree, &AnswerFilter::default(), None).unwrap());
    assert_eq!(tallies.answer_sets, 300);
    let counts = |item: QuestionItemId| {
        let mut found: Vec<(usize, i64)> = tallies
            .choices
            .iter()
            .filter(|c| c.item == item)
            .map(|c| (c.value[1..].parse().unwrap(), c.count))
            .collect();
        found.sort_unstable();
        found
    };
    let listed = |expected: &[i64]| expected.iter().copied().enumerate().filter(|(_, n)| *n > 0).collect::<Vec<_>>();
    assert_eq!(counts(ids[0]), listed(&expected_single), "every option of the single choice chosen");
    assert_eq!(counts(ids[1]), listed(&expected_multiple), "every option of the multiple choice chosen");
    assert!(expected_multiple.iter().filter(|&&n| n == 0).count() > 100, "many options were never chosen");
    let chosen = expected_single.iter().chain(&expected_multiple).filter(|n| **n > 0).count();
    assert_eq!(tallies.choices.len(), chosen, "the open text's `v1` is no choice");
}

/// An OpenText item's words: each answer's distinct words, lower-cased in any script, digits too, one letter and
/// the stop words given left out, under the filter.
#[test]
fn the_words_of_open_texts_count_once_per_answer_without_stop_words() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let (pulse, tree) = survey(&mut conn, acme);
    let texts = [
        (true, "Göteborg, KONTOR göteborg! och fika"),
        (true, "Fika i GÖTEBORG"),
        (true, "MALMÖ 42 x"),
        (false, "fika, fika"),
    ];
    let mut uow = PgUnitOfWork::new(&mut conn);
    for (completed, comment) in texts {
        let given = Given { completed, colour: "red", tools: None, hours: 1.0, recommend: 5.0, comment: Some(comment) };
        uow.insert_answer_set(acme, pulse, None, &draft(&tree, &given), DAY1).unwrap();
    }
    let stop = canvass_domain::insight::stop_words(&[canvass_domain::language::Language::Sv]);
    let mut counted = |filter: &AnswerFilter| {
        let (read, _) = texts_read(&mut uow, acme, &tree, filter, None, &stop, 1);
        let mut words: Vec<(String, i64)> = read.into_iter().map(|(_, w)| (w.word, w.count)).collect();
        words.sort();
        words
    };
    let pairs = |list: &[(&str, i64)]| list.iter().map(|(w, n)| ((*w).to_owned(), *n)).collect::<Vec<_>>();
    assert_eq!(
        counted(&AnswerFilter::default()),
        pairs(&[("42", 1), ("fika", 3), ("göteborg", 2), ("kontor", 1), ("malmö", 1)])
    );
    assert_eq!(
        counted(&filter(None, None, None, true)),
        pairs(&[("42", 1), ("fika", 2), ("göteborg", 2), ("kontor", 1), ("malmö", 1)])
    );
}
