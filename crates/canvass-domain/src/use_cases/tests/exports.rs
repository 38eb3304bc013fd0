//! Reading an export in chunks: its start checks the survey (404 for unknown and other accounts' surveys, before
//! anything else) and the filter's sendout (400 naming `sendoutId`), and brings the question tree; the chunks
//! together give every set that passes the filter once, in id order, with its answers, and on request its
//! respondent's background data under the label names of the exported sets' sendouts.

use crate::answer::{Answer, AnswerFilter, AnswerValue};
use crate::chunks::{ChunkRequest, CHUNK_BYTES};
use crate::distribution::{DispatchType, LabelType};
use crate::ids::{AccountId, AnswerSetId, LabelId, PageId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::survey::{Page, QuestionItem, QuestionTree, QuestionType};
use crate::use_cases::exports::{export_chunk, start_export, ExportSelection, ExportStart};

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found};
use crate::ports::AnswerRepository;
use crate::testing::Memory;

const OTHER: AccountId = AccountId::new(2);
const ITEM: QuestionItemId = QuestionItemId::new(70);

/// Survey 1 of the account with one Numeric item and `count` sets: set n answers n, and the sets from 4 on came
/// through sendout 5. Sendout 5 is of survey 1; sendout 6 of another survey; sendout 7 of another account.
fn exports(count: i64) -> (Memory, SurveyId) {
    let (mut sets, survey) = Memory::with_sets(count);
    for set in sets.state.answer_sets.iter_mut().map(|held| &mut held.set) {
        set.answers = vec![Answer { question_item_id: ITEM, value: AnswerValue::Number(set.id.get() as f64) }];
        set.sendout_id = (set.id.get() >= 4).then_some(SendoutId::new(5));
    }
    let item = QuestionItem {
        id: ITEM,
        page_id: PageId::new(1),
        kind: QuestionType::Numeric,
        text: "Hours?".into(),
        required: false,
        options: Vec::new(),
        min_label: None,
        max_label: None,
        settings: Default::default(),
    };
    let page = Page { id: PageId::new(1), title: String::new(), items: vec![item], randomize_items: false };
    sets.state.surveys.trees.push(QuestionTree::assemble(survey, vec![page], Vec::new()));
    sets.seed_survey(ACCOUNT, SurveyId::new(2));
    sets.seed_survey(OTHER, SurveyId::new(3));
    for (account, survey, sendout) in
        [(ACCOUNT, survey, 5), (ACCOUNT, SurveyId::new(2), 6), (OTHER, SurveyId::new(3), 7)]
    {
        sets.seed_sendout(account, survey, SendoutId::new(sendout), DispatchType::Email);
    }
    (sets, survey)
}

/// The selection of the sets that pass `filter`, without background data.
fn only(filter: &AnswerFilter) -> ExportSelection {
    ExportSelection { filter: filter.clone(), background_data: false }
}

/// Reads every chunk from the first on; returns what the first brought and each chunk's set ids.
fn walk(fake: &mut Memory, survey: SurveyId, filter: &AnswerFilter, size: usize) -> (ExportStart, Vec<Vec<i64>>) {
    walk_within(fake, survey, filter, size, CHUNK_BYTES)
}

/// [`walk`] with chunks of at most `budget` bytes.
fn walk_within(
    fake: &mut Memory,
    survey: SurveyId,
    filter: &AnswerFilter,
    size: usize,
    budget: u64,
) -> (ExportStart, Vec<Vec<i64>>) {
    let selection = only(filter);
    let first = start_export(fake, ACCOUNT, survey, &selection, size, budget).unwrap();
    let mut chunks = vec![first.chunk.items.iter().map(|row| row.set.id.get()).collect::<Vec<_>>()];
    let mut request = first.chunk.next.clone();
    while let Some(current) = request {
        let later = export_chunk(fake, ACCOUNT, survey, &selection, &current, budget).unwrap();
        chunks.push(later.items.iter().map(|row| row.set.id.get()).collect());
        request = later.next;
    }
    (first, chunks)
}

#[test]
fn the_first_chunk_brings_the_tree_and_the_chunks_every_set_with_its_answers_in_order() {
    let (mut fake, survey) = exports(7);
    let (first, chunks) = walk(&mut fake, survey, &AnswerFilter::default(), 3);
    let tree = first.tree;
    assert_eq!(tree.items().map(|item| item.id).collect::<Vec<_>>(), [ITEM]);
    assert_eq!(chunks, [vec![1, 2, 3], vec![4, 5, 6], vec![7]]);
    let answers: Vec<_> = first.chunk.items.iter().map(|row| row.set.answers[0].value.clone()).collect();
    assert_eq!(answers, [AnswerValue::Number(1.0), AnswerValue::Number(2.0), AnswerValue::Number(3.0)]);
    assert_eq!(first.chunk.next, Some(ChunkRequest::after(AnswerSetId::new(3), 3)));
}

#[test]
fn the_filter_and_its_sendout_apply_across_chunks() {
    let (mut fake, survey) = exports(9);
    let completed_of_sendout = AnswerFilter::new(None, None, None, true).unwrap().of_sendout(Some(SendoutId::new(5)));
    let (_, chunks) = walk(&mut fake, survey, &completed_of_sendout, 2);
    assert_eq!(chunks, [vec![4, 6], vec![8]], "even ids are the completed sets; 1 to 3 came through no sendout");
}

#[test]
fn an_unknown_or_foreign_survey_is_not_found_before_its_sendout_is_judged() {
    let (mut fake, _) = exports(2);
    let foreign_sendout = AnswerFilter::default().of_sendout(Some(SendoutId::new(7)));
    for (account, survey) in [(ACCOUNT, SurveyId::new(99)), (OTHER, SurveyId::new(1))] {
        let read = start_export(&mut fake, account, survey, &only(&foreign_sendout), 10, CHUNK_BYTES);
        assert!(not_found(&read, "survey"), "{account} {survey}: {read:?}");
    }
    assert_eq!(fake.hooks.chunks_read, 0);
}

#[test]
fn a_sendout_of_another_survey_or_account_or_none_at_all_is_invalid() {
    let (mut fake, survey) = exports(2);
    for sendout in [6, 7, 99] {
        let filter = AnswerFilter::default().of_sendout(Some(SendoutId::new(sendout)));
        let read = start_export(&mut fake, ACCOUNT, survey, &only(&filter), 10, CHUNK_BYTES);
        assert_eq!(invalid_fields(read), ["sendoutId"], "sendout {sendout}");
    }
    assert_eq!(fake.hooks.chunks_read, 0, "nothing is read for a refused filter");
    let own = AnswerFilter::default().of_sendout(Some(SendoutId::new(5)));
    let read = start_export(&mut fake, ACCOUNT, survey, &only(&own), 10, CHUNK_BYTES).unwrap();
    assert!(read.chunk.items.is_empty() && read.chunk.next.is_none(), "sets 1 and 2 came through no sendout");
}

#[test]
fn a_later_chunk_reads_on_after_its_cursor_within_the_account() {
    let (mut fake, survey) = exports(5);
    let after = ChunkRequest::after(AnswerSetId::new(2), 2);
    let all = only(&AnswerFilter::default());
    let later = export_chunk(&mut fake, ACCOUNT, survey, &all, &after, CHUNK_BYTES).unwrap();
    assert_eq!(later.items.iter().map(|row| row.set.id.get()).collect::<Vec<_>>(), [3, 4]);
    let theirs = export_chunk(&mut fake, OTHER, survey, &all, &after, CHUNK_BYTES).unwrap();
    assert_eq!(theirs.items, Vec::new(), "another account reads none of the sets");
}

/// Gives set `id` of the store an open text of `bytes` bytes.
fn large(fake: &mut Memory, id: i64, bytes: usize) {
    let set = fake.state.answer_sets.iter_mut().map(|held| &mut held.set).find(|set| set.id.get() == id).unwrap();
    set.answers = vec![Answer { question_item_id: ITEM, value: AnswerValue::Text("x".repeat(bytes)) }];
}

#[test]
fn a_chunk_of_large_sets_is_cut_where_they_reach_its_budget_and_the_next_reads_on_after_it() {
    let (mut fake, survey) = exports(9);
    for id in [2, 3, 4, 7] {
        large(&mut fake, id, 4_000);
    }
    // A large set weighs about 4.3 KB, a small one about 320 bytes: 10 KB hold two large sets and a few small.
    let (_, chunks) = walk_within(&mut fake, survey, &AnswerFilter::default(), 5, 10_000);
    assert_eq!(chunks, [vec![1, 2, 3], vec![4, 5, 6, 7, 8], vec![9]]);
    assert_eq!(
        fake.hooks.sets_read,
        chunks.iter().map(|ids| ids.iter().map(|id| AnswerSetId::new(*id)).collect()).collect::<Vec<Vec<_>>>(),
        "only the sets a chunk holds are read with their answers"
    );

    let (_, alone) = walk_within(&mut fake, survey, &AnswerFilter::default(), 5, 1_000);
    assert_eq!(
        alone,
        [vec![1], vec![2], vec![3], vec![4], vec![5, 6], vec![7], vec![8, 9]],
        "a set over the budget comes alone"
    );
}

#[test]
fn a_chunk_cut_by_its_budget_at_the_end_of_the_list_ends_it() {
    let (mut fake, survey) = exports(3);
    large(&mut fake, 3, 4_000);
    let all = only(&AnswerFilter::default());
    let first = start_export(&mut fake, ACCOUNT, survey, &all, 10, 1_000).unwrap();
    assert_eq!(first.chunk.next, Some(ChunkRequest::after(AnswerSetId::new(2), 10)), "set 3 is left for later");
    let last = export_chunk(&mut fake, ACCOUNT, survey, &all, &first.chunk.next.unwrap(), 1_000).unwrap();
    assert_eq!((last.items.len(), last.next), (1, None), "a short chunk not cut ends the list");
}

/// Labels `(id, sendout, name, type)` of the account, and respondents of sendout 5 (sets 4 and 5) and of a second
/// sendout 8 of survey 1 (set 6) with background data; set 7 is of a respondent with none.
fn with_background(fake: &mut Memory, survey: SurveyId) {
    fake.seed_sendout(ACCOUNT, survey, SendoutId::new(8), DispatchType::Email);
    for (id, sendout, name, label_type) in [
        (100, 5, "dept", LabelType::Text),
        (101, 5, "age", LabelType::Number),
        (102, 8, "region", LabelType::Text),
        (103, 8, "dept", LabelType::Text),
        (104, 6, "other survey", LabelType::Text),
    ] {
        fake.seed_label(ACCOUNT, SendoutId::new(sendout), LabelId::new(id));
        let label = &mut fake.state.labels.last_mut().unwrap().1;
        (label.name, label.label_type) = (name.into(), label_type);
    }
    let data = [
        (4, 5, vec![(100, "Sales"), (101, "41")]),
        (5, 5, vec![(100, "HR")]),
        (6, 8, vec![(102, "North"), (103, "Ops")]),
        (7, 8, vec![]),
    ];
    for (set, sendout, cells) in data {
        let respondent = RespondentId::new(200 + set);
        fake.seed_respondent_as(ACCOUNT, SendoutId::new(sendout), respondent, "someone@example.com");
        let held = fake.state.respondents.last_mut().unwrap();
        held.row.background_data =
            cells.into_iter().map(|(label, value)| (LabelId::new(label), value.into())).collect();
        let answer_set =
            fake.state.answer_sets.iter_mut().map(|held| &mut held.set).find(|s| s.id.get() == set).unwrap();
        (answer_set.respondent_id, answer_set.sendout_id) = (Some(respondent), Some(SendoutId::new(sendout)));
    }
}

/// Each row's set id and its background data as `name=value`, sorted.
fn background_of(rows: &[crate::answer::export::ExportRow]) -> Vec<(i64, Vec<String>)> {
    rows.iter()
        .map(|row| {
            let mut cells: Vec<String> = row.background.iter().map(|c| format!("{}={}", c.name, c.value)).collect();
            cells.sort();
            (row.set.id.get(), cells)
        })
        .collect()
}

#[test]
fn background_data_comes_on_request_under_the_label_names_of_the_exported_sets_sendouts() {
    let (mut fake, survey) = exports(8);
    with_background(&mut fake, survey);
    let selection = ExportSelection { filter: AnswerFilter::default(), background_data: true };
    let first = start_export(&mut fake, ACCOUNT, survey, &selection, 10, CHUNK_BYTES).unwrap();
    assert_eq!(first.labels, ["dept", "age", "region"], "dept of both sendouts is one name; sendout 6 is not exported");
    assert_eq!(
        background_of(&first.chunk.items)[3..7],
        [
            (4, vec!["age=41".into(), "dept=Sales".into()]),
            (5, vec!["dept=HR".into()]),
            (6, vec!["dept=Ops".into(), "region=North".into()]),
            (7, vec![])
        ]
    );
    assert!(first.chunk.items[..3].iter().all(|row| row.background.is_empty()), "sets of no respondent have none");

    let of_five = ExportSelection { filter: AnswerFilter::default().of_sendout(Some(SendoutId::new(5))), ..selection };
    let first = start_export(&mut fake, ACCOUNT, survey, &of_five, 10, CHUNK_BYTES).unwrap();
    assert_eq!(first.labels, ["dept", "age"], "only the names of the sendouts whose sets pass the filter");

    let plain = start_export(&mut fake, ACCOUNT, survey, &only(&AnswerFilter::default()), 10, CHUNK_BYTES).unwrap();
    assert!(plain.labels.is_empty());
    assert!(plain.chunk.items.iter().all(|row| row.background.is_empty()), "no background data unless asked for");
}

#[test]
fn another_accounts_export_reads_none_of_the_background_data() {
    let (mut fake, survey) = exports(8);
    with_background(&mut fake, survey);
    let selection = ExportSelection { filter: AnswerFilter::default(), background_data: true };
    let after = ChunkRequest::after(AnswerSetId::new(3), 10);
    let theirs = export_chunk(&mut fake, OTHER, survey, &selection, &after, CHUNK_BYTES).unwrap();
    assert!(theirs.items.is_empty());
    let cells = fake.background_cells(OTHER, &[RespondentId::new(204)]).unwrap();
    assert!(cells.is_empty(), "a respondent of another account is left out");
    assert!(fake.export_label_names(OTHER, survey, &AnswerFilter::default()).unwrap().is_empty());
}
