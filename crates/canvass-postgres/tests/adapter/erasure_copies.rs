//! Erasure follows copies (issue 37, finding 8): a survey copied with its answers, and the copy copied again, keep
//! nothing of the erased person. Each copied answer set names the original it copies (`answer_sets.copy_of`), so the
//! copy of a copy is reached also when the copy in between has gone with its survey; the bystander's copies stay.
//! What the whole erasure reaches through the API is scanned in tests/system/erasure_reach.rs.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::answer::{Answer, AnswerFilter, AnswerSet, AnswerSetDraft, AnswerValue};
use canvass_domain::governance::{ContactPatterns, ERASED_MARK};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::{AccountRepository, AnswerRepository, Erased, ErasureRepository};
use canvass_domain::survey::{PageDraft, QuestionItemDraft, QuestionTree, QuestionType, SurveyDraft, SurveyInput};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support::insert_with_tree;

const NOW: OffsetDateTime = datetime!(2099-11-28 10:00 UTC);
const KARI: &str = "kari.nordmann@example.no";

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// A survey of one OpenText item.
fn survey(uow: &mut PgUnitOfWork<'_>, account: AccountId, name: &str) -> SurveyAndTree {
    let item = QuestionItemDraft { kind: QuestionType::OpenText, text: "Anything else?".into(), ..Default::default() };
    let input = SurveyInput {
        name: name.into(),
        start_date: Some(NOW),
        end_date: Some(NOW + time::Duration::days(14)),
        pages: vec![PageDraft { title: "One".into(), items: vec![item], randomize_items: false }],
        ..Default::default()
    };
    let (survey, tree) = insert_with_tree(uow, account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap();
    (survey.id, tree)
}

/// A respondent of a new Draft sendout of `survey` with `contact` as details and key.
fn respondent(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    contact: &str,
) -> (RespondentId, SendoutId) {
    let sendout: Id = diesel::sql_query(
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at) \
         VALUES ($1, $2, 'Wave', 'EMAIL', 'Draft', now()) RETURNING id",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(survey.get())
    .get_result(conn)
    .unwrap();
    let respondent: Id = diesel::sql_query(
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
             status, token, added_at) \
         VALUES ($1, $2, $3, $3, false, '{}', 'Pending', $1 || '-' || $2 || '-' || $3, now()) RETURNING id",
    )
    .bind::<BigInt, _>(account.get())
    .bind::<BigInt, _>(sendout.id)
    .bind::<Text, _>(contact)
    .get_result(conn)
    .unwrap();
    (RespondentId::new(respondent.id), SendoutId::new(sendout.id))
}

/// An answer set of `survey` whose one open text answer is `text`.
fn answer(
    uow: &mut PgUnitOfWork<'_>,
    account: AccountId,
    (survey, tree): &SurveyAndTree,
    by: Option<(RespondentId, SendoutId)>,
    text: &str,
) {
    let item = tree.items().next().unwrap().id;
    let answers = vec![Answer { question_item_id: item, value: AnswerValue::Text(text.into()) }];
    let draft = AnswerSetDraft::check(true, answers, tree).unwrap();
    uow.insert_answer_set(account, *survey, by, &draft, NOW).unwrap();
}

/// Copies the answer sets of `from` to a new survey, as a survey copy with `copyanswers=true` does.
fn copy(uow: &mut PgUnitOfWork<'_>, account: AccountId, from: &SurveyAndTree) -> SurveyAndTree {
    let to = survey(uow, account, "Copy");
    let items = vec![(from.1.items().next().unwrap().id, to.1.items().next().unwrap().id)];
    uow.copy_answer_sets(account, from.0, to.0, &items).unwrap();
    to
}

/// The open texts of a survey's answer sets, in id order.
fn texts(uow: &mut PgUnitOfWork<'_>, account: AccountId, survey: SurveyId) -> Vec<String> {
    let page = PageRequest::new(1, 100, "page", "size").unwrap();
    let sets: Vec<AnswerSet> = uow.page_answer_sets(account, survey, &AnswerFilter::default(), page).unwrap().items;
    let text = |set: &AnswerSet| match &set.answers[0].value {
        AnswerValue::Text(text) => text.clone(),
        other => panic!("an open text: {other:?}"),
    };
    sets.iter().map(text).collect()
}

/// A survey and its question tree.
type SurveyAndTree = (SurveyId, QuestionTree);

/// An account whose survey holds Kari's answer set (quoting her address) and a bystander's; the survey copied with
/// its answers, the copy copied again. Returns the account, the original, the copy and the copy of the copy.
fn copied_twice(conn: &mut PgConnection) -> (AccountId, SurveyAndTree, SurveyAndTree, SurveyAndTree) {
    let new = NewAccount::new("Acme", "owner@acme.example").unwrap();
    let account = PgUnitOfWork::new(conn).create_account(&new, &ApiKey::generate(), NOW).unwrap().0;
    let original = survey(&mut PgUnitOfWork::new(conn), account, "Pulse");
    let kari = respondent(conn, account, original.0, KARI);
    let ola = respondent(conn, account, original.0, "ola@example.no");
    let mut uow = PgUnitOfWork::new(conn);
    answer(&mut uow, account, &original, Some(kari), &format!("Write to {KARI} or call +4791234567"));
    answer(&mut uow, account, &original, Some(ola), "Fine");
    let first = copy(&mut uow, account, &original);
    let second = copy(&mut uow, account, &first);
    let both = vec![format!("Write to {KARI} or call +4791234567"), "Fine".to_owned()];
    assert_eq!(texts(&mut uow, account, second.0), both, "the copy of the copy holds both");
    (account, original, first, second)
}

#[test]
fn with_answers_the_copies_go_too_also_past_a_copy_that_is_gone() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (account, original, first, second) = copied_twice(&mut conn);
    // The copy in between goes with its survey (as a survey's complete removal by retention does).
    diesel::sql_query("DELETE FROM surveys WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(first.0.get())
        .execute(&mut conn)
        .unwrap();

    let mut uow = PgUnitOfWork::new(&mut conn);
    let erased = uow.erase_contact(account, &ContactPatterns::of(KARI), true).unwrap();

    assert_eq!(erased, Erased { respondents: 1, answer_sets: 2 }, "her set and its copy's copy");
    assert_eq!(texts(&mut uow, account, original.0), ["Fine"]);
    assert_eq!(texts(&mut uow, account, second.0), ["Fine"], "the bystander's copy stays");
}

#[test]
fn without_answers_the_copies_keep_their_sets_with_the_contact_redacted() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (account, original, first, second) = copied_twice(&mut conn);

    let mut uow = PgUnitOfWork::new(&mut conn);
    let erased = uow.erase_contact(account, &ContactPatterns::of(KARI), false).unwrap();

    assert_eq!(erased, Erased { respondents: 1, answer_sets: 0 });
    let redacted = vec![format!("Write to {ERASED_MARK} or call +4791234567"), "Fine".to_owned()];
    for survey in [original.0, first.0, second.0] {
        assert_eq!(texts(&mut uow, account, survey), redacted, "survey {survey}");
    }
}
