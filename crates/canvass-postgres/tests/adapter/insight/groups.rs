//! Breakdowns and answer conditions in the results' statements: each group tallied beside the whole in the same
//! statements, and each condition narrowing the sets as the answer lists narrow them.

use canvass_domain::answer::{AnswerCondition, AnswerFilter};
use canvass_domain::ids::{LabelId, QuestionItemId};
use canvass_domain::insight::{Breakdown, ResultTallies, TallyGroup};
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::{AnswerRepository, InsightRepository};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::RunQueryDsl;

use super::results::{answered, items, texts_read};

/// Each group's sets and its numeric item's count and mean, keys sorted, the whole as `"*"`.
fn summarised(groups: Vec<(TallyGroup, ResultTallies)>, numeric: QuestionItemId) -> Vec<(String, i64, Option<f64>)> {
    let mut found: Vec<(String, i64, Option<f64>)> = groups
        .into_iter()
        .map(|(group, tallies)| {
            let name = match group {
                TallyGroup::Whole => "*".to_owned(),
                TallyGroup::Key(key) => key.unwrap_or_else(|| "-".to_owned()),
            };
            let mean = tallies.items.iter().find(|tally| tally.item == numeric).and_then(|tally| tally.numbers.mean);
            (name, tallies.answer_sets, mean)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn each_group_is_tallied_beside_the_whole() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, _, tree, wave) = answered(&mut conn);
    let ids = items(&tree);
    // The fourth set's respondent works in Sales; a label the others' respondents (none) lack.
    diesel::sql_query(
        "UPDATE respondents SET background_data = jsonb_build_object('77', 'Sales') \
         WHERE account_id = $1 AND sendout_id = $2",
    )
    .bind::<BigInt, _>(acme.get())
    .bind::<BigInt, _>(wave.get())
    .execute(&mut conn)
    .unwrap();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let mut grouped =
        |by| summarised(uow.result_tallies(acme, &tree, &AnswerFilter::default(), Some(by)).unwrap(), ids[3]);
    // Hours 4.5, -1, 10, 2 by colour red, red, blue, green.
    assert_eq!(
        grouped(Breakdown::Item(ids[0])),
        [
            ("*".into(), 4, Some(3.875)),
            ("blue".into(), 1, Some(10.0)),
            ("green".into(), 1, Some(2.0)),
            ("red".into(), 2, Some(1.75)),
        ]
    );
    let ratings: Vec<String> = grouped(Breakdown::Item(ids[4])).into_iter().map(|(key, ..)| key).collect();
    assert_eq!(ratings, ["*", "10", "3", "7", "9"], "ratings as numbers without a fraction");
    let wave_key = wave.get().to_string();
    assert_eq!(
        grouped(Breakdown::Sendout),
        [("*".into(), 4, Some(3.875)), ("-".into(), 3, Some(13.5 / 3.0)), (wave_key, 1, Some(2.0))],
        "sets of no sendout have no key"
    );
    assert_eq!(grouped(Breakdown::Language), [("*".into(), 4, Some(3.875)), ("-".into(), 4, Some(3.875))]);
    assert_eq!(
        grouped(Breakdown::Label(LabelId::new(77))),
        [("*".into(), 4, Some(3.875)), ("-".into(), 3, Some(13.5 / 3.0)), ("Sales".into(), 1, Some(2.0))]
    );
    let by_colour = Some(Breakdown::Item(ids[0]));
    let (words, _) = texts_read(&mut uow, acme, &tree, &AnswerFilter::default(), by_colour, &[], 1);
    let mut found: Vec<(TallyGroup, String)> = words.into_iter().map(|(group, word)| (group, word.word)).collect();
    found.sort_by_key(|(group, word)| (format!("{group:?}"), word.clone()));
    let key = |key: &str| TallyGroup::Key(Some(key.to_owned()));
    assert_eq!(
        found,
        [
            (key("blue"), "ok".to_owned()),
            (key("red"), "fine".to_owned()),
            (TallyGroup::Whole, "fine".to_owned()),
            (TallyGroup::Whole, "ok".to_owned()),
        ]
    );
}

#[test]
fn each_condition_narrows_the_sets_as_the_answer_lists_do() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree, _) = answered(&mut conn);
    let ids: Vec<i64> = items(&tree).iter().map(|id| id.get()).collect();
    let (colour, tools, hours, recommend, comment) = (ids[0], ids[1], ids[3], ids[4], ids[5]);
    // The sets: red [web, phone] 4.5 10 "fine"; red [web] -1 3; blue [] 10 9 "ok"; green (no tools) 2 7.
    let cases: Vec<(Vec<String>, i64)> = vec![
        (vec![format!("{colour}:eq:red")], 2),
        (vec![format!("{colour}:ne:red")], 2),
        (vec![format!("{colour}:in:blue|green|pink")], 2),
        (vec![format!("{tools}:eq:web")], 2),
        (vec![format!("{tools}:ne:web")], 2),
        (vec![format!("{tools}:in:app|phone")], 1),
        (vec![format!("{hours}:gt:2")], 2),
        (vec![format!("{hours}:lt:2")], 1),
        (vec![format!("{hours}:eq:10.0")], 1),
        (vec![format!("{hours}:eq:4.50")], 1),
        (vec![format!("{recommend}:in:9|10")], 2),
        (vec![format!("{comment}:eq:fine")], 1),
        (vec![format!("{comment}:ne:fine")], 3),
        (vec![format!("{comment}:gt:a")], 2),
        (vec![format!("{colour}:eq:red"), format!("{hours}:gt:0")], 1),
        (vec![format!("{colour}:eq:red"), format!("{colour}:eq:blue")], 0),
    ];
    let mut uow = PgUnitOfWork::new(&mut conn);
    for (texts, expected) in cases {
        let conditions = texts.iter().map(|text| AnswerCondition::parse(text).unwrap()).collect();
        let filter = AnswerFilter::default().meeting(conditions);
        let tallies = uow.result_tallies(acme, &tree, &filter, None).unwrap();
        let counted = tallies.iter().find(|(group, _)| *group == TallyGroup::Whole).map_or(0, |(_, t)| t.answer_sets);
        let listed = uow.page_answer_sets(acme, pulse, &filter, PageRequest::new(1, 100, "page", "size").unwrap());
        assert_eq!((counted, listed.unwrap().total_count), (expected, expected), "{texts:?}");
    }
}
