//! Answer sets: a set is recorded checked against its survey's tree, with a respondent only of a sendout of that
//! survey; a completed one is written with its `answerSet.completed` event, all or nothing; a replacement replaces
//! every answer; the reads find the account's own sets only, another account's as missing ones.

use crate::answer::{Answer, AnswerFilter, AnswerValue};
use crate::chunks::{ChunkRequest, CHUNK_BYTES};
use crate::distribution::DispatchType;
use crate::error::DomainError;
use crate::ids::{AnswerSetId, PageId, QuestionItemId, RespondentId, SendoutId, SurveyId};
use crate::paging::PageRequest;
use crate::survey::{ChoiceOption, Page, QuestionItem, QuestionTree, QuestionType};
use crate::use_cases::answers::{self, AnswerSetInput};
use crate::webhook::{EventSubject, WebhookEvent};
use crate::AccountId;

use super::seeds::distribution::ACCOUNT;
use super::seeds::{invalid_fields, not_found, At, NOW};
use crate::testing::Memory;

const OTHER: AccountId = AccountId::new(2);
/// The account's survey, with [`NAME`], [`RATING`] and [`COLOUR`].
const SURVEY: SurveyId = SurveyId::new(1);
/// Another survey of the account.
const SECOND: SurveyId = SurveyId::new(2);
/// The other account's survey, with item [`THEIR_ITEM`].
const THEIRS: SurveyId = SurveyId::new(3);
/// Required open text.
const NAME: QuestionItemId = QuestionItemId::new(10);
/// Optional rating.
const RATING: QuestionItemId = QuestionItemId::new(11);
/// Optional single choice of `red` and `blue`.
const COLOUR: QuestionItemId = QuestionItemId::new(12);
const THEIR_ITEM: QuestionItemId = QuestionItemId::new(30);
/// A respondent of a sendout of [`SURVEY`].
const ANN: RespondentId = RespondentId::new(7);
const ANNS_SENDOUT: SendoutId = SendoutId::new(5);
/// A respondent of a sendout of [`SURVEY`] without answer sets.
const BOB: RespondentId = RespondentId::new(8);
/// A respondent of a sendout of [`SECOND`].
const CAROL: RespondentId = RespondentId::new(9);
/// The other account's respondent, of a sendout of [`THEIRS`].
const DAN: RespondentId = RespondentId::new(10);

fn item(id: QuestionItemId, page: PageId, kind: QuestionType, required: bool) -> QuestionItem {
    let options = match kind {
        QuestionType::SingleChoice => {
            ["red", "blue"].iter().map(|v| ChoiceOption { value: (*v).into(), label: (*v).into() }).collect()
        }
        _ => Vec::new(),
    };
    QuestionItem {
        id,
        page_id: page,
        kind,
        text: format!("Question {id}"),
        required,
        options,
        min_label: None,
        max_label: None,
        settings: Default::default(),
    }
}

/// The account's surveys and the other account's, with their respondents and no answer sets.
fn fixture() -> Memory {
    let mut fake = Memory::default();
    fake.seed_survey(ACCOUNT, SURVEY);
    fake.seed_survey(ACCOUNT, SECOND);
    fake.seed_survey(OTHER, THEIRS);
    let surveys = &mut fake.state.surveys;
    let (first, second) = (PageId::new(20), PageId::new(21));
    let pages = vec![
        Page {
            id: first,
            title: String::new(),
            items: vec![
                item(NAME, first, QuestionType::OpenText, true),
                item(RATING, first, QuestionType::Rating, false),
            ],
            randomize_items: false,
        },
        Page {
            id: second,
            title: String::new(),
            items: vec![item(COLOUR, second, QuestionType::SingleChoice, false)],
            randomize_items: false,
        },
    ];
    surveys.trees.push(QuestionTree::assemble(SURVEY, pages, Vec::new()));
    let theirs = PageId::new(40);
    let their_page = Page {
        id: theirs,
        title: String::new(),
        items: vec![item(THEIR_ITEM, theirs, QuestionType::OpenText, false)],
        randomize_items: false,
    };
    surveys.trees.push(QuestionTree::assemble(THEIRS, vec![their_page], Vec::new()));
    for (account, survey, sendout, id) in [
        (ACCOUNT, SURVEY, ANNS_SENDOUT.get(), ANN),
        (ACCOUNT, SURVEY, 6, BOB),
        (ACCOUNT, SECOND, 7, CAROL),
        (OTHER, THEIRS, 8, DAN),
    ] {
        let sendout = SendoutId::new(sendout);
        fake.seed_sendout(account, survey, sendout, DispatchType::Email);
        fake.seed_respondent_as(account, sendout, id, &format!("{id}@example.com"));
    }
    fake
}

fn text(item: QuestionItemId, value: &str) -> Answer {
    Answer { question_item_id: item, value: AnswerValue::Text(value.into()) }
}

fn number(item: QuestionItemId, value: f64) -> Answer {
    Answer { question_item_id: item, value: AnswerValue::Number(value) }
}

fn input(respondent: Option<RespondentId>, completed: bool, answers: Vec<Answer>) -> AnswerSetInput {
    AnswerSetInput { respondent_id: respondent, completed, answers, language: None }
}

fn record(fake: &mut Memory, at_minute: i64, input: AnswerSetInput) -> crate::answer::AnswerSet {
    answers::record(fake, &At(NOW + time::Duration::minutes(at_minute)), ACCOUNT, SURVEY, input).unwrap()
}

fn ids(sets: &[crate::answer::AnswerSet]) -> Vec<AnswerSetId> {
    sets.iter().map(|set| set.id).collect()
}

#[test]
fn an_open_set_is_recorded_with_its_respondent_and_answers_in_tree_order_without_an_event() {
    let mut fake = fixture();
    let given = vec![text(COLOUR, "blue"), number(RATING, 7.0), text(NAME, "Ann")];

    let set = answers::record(&mut fake, &At(NOW), ACCOUNT, SURVEY, input(Some(ANN), false, given)).unwrap();

    assert_eq!((set.survey_id, set.respondent_id, set.sendout_id), (SURVEY, Some(ANN), Some(ANNS_SENDOUT)));
    assert_eq!((set.completed, set.created_at, set.updated_at), (false, NOW, NOW));
    assert_eq!(set.answers, [text(NAME, "Ann"), number(RATING, 7.0), text(COLOUR, "blue")]);
    assert_eq!(answers::get(&mut fake, ACCOUNT, SURVEY, set.id).unwrap(), set);
    assert!(fake.state.events.is_empty());
    assert_eq!(fake.transactions.committed, 0, "a single write needs no transaction");
}

#[test]
fn a_completed_set_is_written_with_its_event_in_one_transaction() {
    let mut fake = fixture();

    let set =
        answers::record(&mut fake, &At(NOW), ACCOUNT, SURVEY, input(Some(ANN), true, vec![text(NAME, "Ann")])).unwrap();
    let anonymous =
        answers::record(&mut fake, &At(NOW), ACCOUNT, SURVEY, input(None, true, vec![text(NAME, "?")])).unwrap();

    let subject = |set: &crate::answer::AnswerSet| EventSubject {
        account_id: ACCOUNT,
        survey_id: Some(SURVEY),
        sendout_id: set.sendout_id,
        respondent_id: set.respondent_id,
        answer_set_id: Some(set.id),
        hold: None,
    };
    assert_eq!(
        fake.state.events,
        [(WebhookEvent::AnswerSetCompleted, subject(&set)), (WebhookEvent::AnswerSetCompleted, subject(&anonymous))]
    );
    assert_eq!((anonymous.respondent_id, anonymous.sendout_id), (None, None));
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (2, 0));
}

#[test]
fn a_completed_set_whose_event_cannot_be_written_is_not_stored() {
    let mut fake = fixture();
    fake.hooks.events_fail = true;

    let failed = answers::record(&mut fake, &At(NOW), ACCOUNT, SURVEY, input(Some(ANN), true, vec![text(NAME, "Ann")]));

    assert!(matches!(failed, Err(DomainError::Repo(_))), "{failed:?}");
    assert!(fake.state.answer_sets.is_empty(), "the set written before the event is rolled back");
    assert_eq!((fake.transactions.committed, fake.transactions.rolled_back), (0, 1));
}

#[test]
fn answers_that_break_the_tree_are_named_by_their_index_and_nothing_is_stored() {
    let mut fake = fixture();
    let clock = At(NOW);

    let broken =
        vec![number(NAME, 3.0), text(QuestionItemId::new(99), "x"), number(RATING, 11.0), text(THEIR_ITEM, "y")];
    let fields = invalid_fields(answers::record(&mut fake, &clock, ACCOUNT, SURVEY, input(None, false, broken)));
    assert_eq!(
        fields,
        ["answers[0].value", "answers[1].questionItemId", "answers[2].value", "answers[3].questionItemId"]
    );

    let twice = vec![text(NAME, "Ann"), text(NAME, "Anne")];
    let fields = invalid_fields(answers::record(&mut fake, &clock, ACCOUNT, SURVEY, input(None, false, twice)));
    assert_eq!(fields, ["answers[1].questionItemId"]);
    let unfinished = vec![text(COLOUR, "red")];
    let fields = invalid_fields(answers::record(&mut fake, &clock, ACCOUNT, SURVEY, input(None, true, unfinished)));
    assert_eq!(fields, ["answers"], "a completed set answers every required item");

    assert!(fake.state.answer_sets.is_empty());
}

#[test]
fn a_respondent_must_be_one_of_a_sendout_of_the_survey_whatever_else_it_is() {
    let mut fake = fixture();

    // Another account's respondent, one of another survey's sendout and one that never was are refused alike.
    for respondent in [DAN, CAROL, RespondentId::new(99)] {
        let given = input(Some(respondent), false, vec![text(NAME, "Ann")]);
        let fields = invalid_fields(answers::record(&mut fake, &At(NOW), ACCOUNT, SURVEY, given));
        assert_eq!(fields, ["respondentId"], "{respondent}");
    }
    assert!(fake.state.answer_sets.is_empty());
}

#[test]
fn another_accounts_survey_is_not_found_by_every_answer_use_case_as_a_missing_one_is() {
    let mut fake = fixture();
    let their_set =
        answers::record(&mut fake, &At(NOW), OTHER, THEIRS, input(Some(DAN), false, vec![text(THEIR_ITEM, "x")]))
            .unwrap();
    let clock = At(NOW);

    for survey in [THEIRS, SurveyId::new(99)] {
        // The survey is looked up first: even answers that could not be checked name no field.
        let given = input(Some(DAN), false, vec![text(THEIR_ITEM, "x")]);
        assert!(not_found(&answers::record(&mut fake, &clock, ACCOUNT, survey, given), "survey"), "{survey}");
        let replaced =
            answers::replace(&mut fake, &clock, ACCOUNT, survey, their_set.id, replacement(false, Vec::new()));
        assert!(not_found(&replaced, "survey"));
        let page = PageRequest::new(1, 10, "page", "pagesize").unwrap();
        assert!(not_found(&answers::weigh_page(&mut fake, ACCOUNT, survey, &AnswerFilter::default(), page), "survey"));
        assert!(not_found(&answers::get(&mut fake, ACCOUNT, survey, their_set.id), "survey"));
        assert!(not_found(&answers::item_answer(&mut fake, ACCOUNT, survey, their_set.id, THEIR_ITEM), "survey"));
        assert!(not_found(&answers::of_respondent(&mut fake, ACCOUNT, survey, DAN), "survey"));
    }
    // Through the account's own survey, their set is as missing as one that never was.
    for id in [their_set.id, AnswerSetId::new(99)] {
        assert!(not_found(&answers::get(&mut fake, ACCOUNT, SURVEY, id), "answer set"));
        assert!(not_found(
            &answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, id, replacement(false, Vec::new())),
            "answer set"
        ));
    }
    let theirs = answers::get(&mut fake, OTHER, THEIRS, their_set.id).unwrap();
    assert_eq!(theirs, their_set, "untouched");
}

#[test]
fn a_replacement_replaces_every_answer_and_the_flag_and_completes_once() {
    let mut fake = fixture();
    let set = record(&mut fake, 0, input(Some(ANN), false, vec![text(NAME, "Ann"), number(RATING, 3.0)]));
    let later = At(NOW + time::Duration::hours(1));

    let replaced =
        answers::replace(&mut fake, &later, ACCOUNT, SURVEY, set.id, replacement(true, vec![text(NAME, "Anne")]))
            .unwrap();

    assert_eq!(replaced.answers, [text(NAME, "Anne")], "the rating is gone, not kept");
    assert!(replaced.completed);
    assert_eq!((replaced.created_at, replaced.updated_at), (NOW, later.0));
    assert_eq!((replaced.respondent_id, replaced.sendout_id), (Some(ANN), Some(ANNS_SENDOUT)));
    assert_eq!(answers::get(&mut fake, ACCOUNT, SURVEY, set.id).unwrap(), replaced);
    assert_eq!(fake.state.events.len(), 1, "completing an open set is an event");
    assert_eq!(fake.state.events[0].1.answer_set_id, Some(set.id));

    let again = vec![text(NAME, "Ann"), text(COLOUR, "red")];
    let replaced = answers::replace(&mut fake, &later, ACCOUNT, SURVEY, set.id, replacement(true, again)).unwrap();
    assert_eq!(replaced.answers.len(), 2);
    assert_eq!(fake.state.events.len(), 1, "a set completed already is not completed again");
    assert_eq!(fake.state.answer_sets.len(), 1);
}

#[test]
fn an_invalid_replacement_names_its_fields_only_for_a_set_that_exists_and_changes_nothing() {
    let mut fake = fixture();
    let set = record(&mut fake, 0, input(None, false, vec![text(NAME, "Ann")]));
    let clock = At(NOW + time::Duration::hours(1));

    let bad = vec![text(QuestionItemId::new(99), "x")];
    let missing =
        answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, AnswerSetId::new(99), replacement(false, bad.clone()));
    assert!(not_found(&missing, "answer set"), "{missing:?}");
    let fields = invalid_fields(answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, set.id, replacement(false, bad)));
    assert_eq!(fields, ["answers[0].questionItemId"]);
    let unfinished =
        invalid_fields(answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, set.id, replacement(true, Vec::new())));
    assert_eq!(unfinished, ["answers"]);

    assert_eq!(answers::get(&mut fake, ACCOUNT, SURVEY, set.id).unwrap(), set);
}

#[test]
fn a_replacement_whose_event_cannot_be_written_leaves_the_set_as_it_was() {
    let mut fake = fixture();
    let set = record(&mut fake, 0, input(None, false, vec![text(NAME, "Ann")]));
    fake.hooks.events_fail = true;

    let clock = At(NOW + time::Duration::hours(1));
    let failed =
        answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, set.id, replacement(true, vec![text(NAME, "Anne")]));

    assert!(matches!(failed, Err(DomainError::Repo(_))), "{failed:?}");
    assert_eq!(answers::get(&mut fake, ACCOUNT, SURVEY, set.id).unwrap(), set, "answers, flag and time as before");
    assert_eq!(fake.transactions.rolled_back, 1);
    // An open set stays open without an event: that replacement is written.
    let kept =
        answers::replace(&mut fake, &clock, ACCOUNT, SURVEY, set.id, replacement(false, vec![text(NAME, "Anne")]))
            .unwrap();
    assert_eq!(kept.answers, [text(NAME, "Anne")]);
}

/// A page read as the server reads it: weighed, then in chunks of `budget` bytes; its sets, its total and how many
/// chunks it took.
fn read_page(
    fake: &mut Memory,
    filter: &AnswerFilter,
    page: PageRequest,
    budget: u64,
) -> (Vec<crate::answer::AnswerSet>, i64, usize) {
    let weighed = answers::weigh_page(fake, ACCOUNT, SURVEY, filter, page).unwrap();
    let (mut sets, mut chunks, mut request) = (Vec::new(), 0, Some(ChunkRequest::first(1)));
    while let Some(current) = request {
        let chunk = answers::page_chunk(fake, ACCOUNT, SURVEY, &weighed.items, &current, budget).unwrap();
        (chunks, request) = (chunks + 1, chunk.next);
        sets.extend(chunk.items);
    }
    (sets, weighed.total_count, chunks)
}

#[test]
fn a_page_holds_the_sets_that_pass_the_filter_with_their_answers_in_creation_order() {
    let mut fake = fixture();
    let sets: Vec<_> = (0..5)
        .map(|n| record(&mut fake, n, input(None, n % 2 == 1, vec![text(NAME, &format!("Person {n}"))])))
        .collect();
    answers::record(&mut fake, &At(NOW), ACCOUNT, SECOND, input(None, false, Vec::new())).unwrap();
    let page = |number| PageRequest::new(number, 2, "page", "pagesize").unwrap();

    let (second, total, chunks) = read_page(&mut fake, &AnswerFilter::default(), page(2), CHUNK_BYTES);
    assert_eq!((ids(&second), total, chunks), (ids(&sets[2..4]), 5, 1), "the other survey's set is not counted");
    assert_eq!(second[0].answers, [text(NAME, "Person 2")], "with answers");
    let (beyond, total, chunks) = read_page(&mut fake, &AnswerFilter::default(), page(4), CHUNK_BYTES);
    assert!(beyond.is_empty() && total == 5 && chunks == 1, "past the end: one empty chunk");

    let completed = AnswerFilter::new(None, None, None, true).unwrap();
    let (done, total, _) = read_page(&mut fake, &completed, page(1), CHUNK_BYTES);
    assert_eq!((ids(&done), total), (vec![sets[1].id, sets[3].id], 2));
    let window =
        AnswerFilter::new(Some(NOW + time::Duration::minutes(1)), Some(NOW + time::Duration::minutes(2)), None, false)
            .unwrap();
    let (between, _, _) = read_page(&mut fake, &window, page(1), CHUNK_BYTES);
    assert_eq!(ids(&between), ids(&sets[1..3]), "both ends inclusive");
    assert!(not_found(&answers::weigh_page(&mut fake, OTHER, SURVEY, &AnswerFilter::default(), page(1)), "survey"));
}

#[test]
fn a_page_of_large_sets_keeps_its_size_and_is_read_in_chunks_of_its_budget() {
    let mut fake = fixture();
    let long = "x".repeat(5_000);
    let sets: Vec<_> =
        (0..7).map(|n| record(&mut fake, n, input(None, false, vec![text(NAME, &format!("{n}{long}"))]))).collect();
    let page = PageRequest::new(1, 6, "page", "pagesize").unwrap();
    // Each set weighs about 5.4 KB: two to a chunk of 12 KB, one to a chunk of 1 KB (never none).
    let (read, total, chunks) = read_page(&mut fake, &AnswerFilter::default(), page, 12_000);
    assert_eq!((ids(&read), total, chunks), (ids(&sets[..6]), 7, 3), "the page holds pagesize sets");
    let (read, _, chunks) = read_page(&mut fake, &AnswerFilter::default(), page, 1_000);
    assert_eq!((ids(&read), chunks), (ids(&sets[..6]), 6));
    assert_eq!(fake.hooks.sets_read.len(), 9, "each chunk read only its own sets");
}

#[test]
fn a_sets_answer_to_one_item_is_found_and_an_unanswered_item_is_not() {
    let mut fake = fixture();
    let set = record(&mut fake, 0, input(None, false, vec![text(NAME, "Ann"), number(RATING, 9.0)]));

    assert_eq!(answers::item_answer(&mut fake, ACCOUNT, SURVEY, set.id, RATING).unwrap(), number(RATING, 9.0));
    assert!(not_found(&answers::item_answer(&mut fake, ACCOUNT, SURVEY, set.id, COLOUR), "answer"), "not answered");
    let elsewhere = QuestionItemId::new(99);
    assert!(not_found(&answers::item_answer(&mut fake, ACCOUNT, SURVEY, set.id, elsewhere), "answer"));
    let missing_set = answers::item_answer(&mut fake, ACCOUNT, SURVEY, AnswerSetId::new(99), NAME);
    assert!(not_found(&missing_set, "answer set"), "{missing_set:?}");
}

#[test]
fn a_respondents_sets_of_the_survey_are_listed_and_anyone_else_is_not_found() {
    let mut fake = fixture();
    let first = record(&mut fake, 0, input(Some(ANN), false, vec![text(NAME, "Ann")]));
    record(&mut fake, 1, input(None, false, vec![text(NAME, "Someone")]));
    let second = record(&mut fake, 2, input(Some(ANN), true, vec![text(NAME, "Ann")]));

    let anns = answers::of_respondent(&mut fake, ACCOUNT, SURVEY, ANN).unwrap();
    assert_eq!(anns, [first, second], "with answers, in creation order");
    assert!(answers::of_respondent(&mut fake, ACCOUNT, SURVEY, BOB).unwrap().is_empty(), "a respondent without sets");
    // Another account's respondent, one of another survey's sendout and one that never was: not found alike.
    for respondent in [DAN, CAROL, RespondentId::new(99)] {
        let found = answers::of_respondent(&mut fake, ACCOUNT, SURVEY, respondent);
        assert!(not_found(&found, "respondent"), "{respondent}: {found:?}");
    }
}

/// A replacement of a set's answers, in no language.
fn replacement(completed: bool, answers: Vec<crate::answer::Answer>) -> answers::Replacement {
    answers::Replacement { completed, answers, language: None }
}
