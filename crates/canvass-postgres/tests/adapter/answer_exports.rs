//! The chunks an export reads: answer sets with their answers in question tree order, the filter (its sendout
//! included) applied in SQL across chunks, and nothing of another account's; each set weighed before it is read.

use canvass_domain::account::{ApiKey, NewAccount};
use canvass_domain::answer::ports::{ANSWER_BYTES, ANSWER_SET_BYTES};
use canvass_domain::answer::{Answer, AnswerFilter, AnswerSet, AnswerSetDraft, AnswerValue};
use canvass_domain::chunks::{ChunkRequest, Weighed};
use canvass_domain::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use canvass_domain::paging::PageRequest;
use canvass_domain::ports::{AccountRepository, AnswerRepository};
use canvass_domain::survey::{
    ChoiceOption, PageDraft, QuestionItemDraft, QuestionTree, QuestionType, SurveyDraft, SurveyInput,
};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::BigInt;
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support::insert_with_tree;

const NOW: OffsetDateTime = datetime!(2020-11-22 10:00 UTC);

#[derive(QueryableByName)]
struct Id {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

fn item(kind: QuestionType, text: &str) -> QuestionItemDraft {
    let options = if kind.has_options() {
        ["a", "b", "c"].iter().map(|v| ChoiceOption { value: (*v).into(), label: v.to_uppercase() }).collect()
    } else {
        Vec::new()
    };
    QuestionItemDraft { kind, text: text.into(), options, ..QuestionItemDraft::default() }
}

/// An account with a survey of two pages: a single and a multiple choice, then a number and open text.
fn survey(uow: &mut PgUnitOfWork<'_>, email: &str) -> (AccountId, SurveyId, QuestionTree) {
    let account = uow.create_account(&NewAccount::new("Acme", email).unwrap(), &ApiKey::generate(), NOW).unwrap().0;
    let pages = vec![
        PageDraft {
            title: "One".into(),
            items: vec![item(QuestionType::SingleChoice, "Pick"), item(QuestionType::MultipleChoice, "Picks")],
            randomize_items: false,
        },
        PageDraft {
            title: "Two".into(),
            items: vec![item(QuestionType::Numeric, "Hours"), item(QuestionType::OpenText, "Why")],
            randomize_items: false,
        },
    ];
    let input = SurveyInput {
        name: "Pulse".into(),
        start_date: Some(NOW),
        end_date: Some(NOW + time::Duration::days(1)),
        pages,
        ..Default::default()
    };
    let (survey, tree) = insert_with_tree(uow, account, &SurveyDraft::new(input, NOW).unwrap(), NOW).unwrap();
    (account, survey.id, tree)
}

fn id(conn: &mut PgConnection, sql: &str, account: i64, other: i64) -> i64 {
    diesel::sql_query(sql).bind::<BigInt, _>(account).bind::<BigInt, _>(other).get_result::<Id>(conn).unwrap().id
}

/// A sendout of the survey with one respondent; returns both.
fn respondent_of_a_sendout(conn: &mut PgConnection, account: AccountId, survey: SurveyId) -> (RespondentId, SendoutId) {
    let sendout = id(
        conn,
        "INSERT INTO sendouts (account_id, survey_id, name, dispatch_type, status, created_at, respondent_count, \
         pending_count) VALUES ($1, $2, 'Wave', 'EMAIL', 'Draft', now(), 1, 1) RETURNING id",
        account.get(),
        survey.get(),
    );
    let respondent = id(
        conn,
        "INSERT INTO respondents (account_id, sendout_id, contact_details, contact_key, send_mail, background_data, \
         status, token, added_at) VALUES ($1, $2, 'x', 'key' || nextval('respondents_id_seq'), true, '{}', \
         'Pending', 'token' || currval('respondents_id_seq'), now()) RETURNING id",
        account.get(),
        sendout,
    );
    (RespondentId::new(respondent), SendoutId::new(sendout))
}

fn ids(sets: &[AnswerSet]) -> Vec<i64> {
    sets.iter().map(|set| set.id.get()).collect()
}

/// Every chunk of `size` from the first on, with answers; and how many chunks were read.
fn all_chunks(
    uow: &mut PgUnitOfWork<'_>,
    account: AccountId,
    survey: SurveyId,
    filter: &AnswerFilter,
    size: usize,
) -> (Vec<AnswerSet>, usize) {
    let (mut sets, mut reads, mut request) = (Vec::new(), 0, Some(ChunkRequest::first(size)));
    while let Some(current) = request {
        let weighed = uow.weigh_answer_sets(account, survey, filter, &current).unwrap();
        let ids: Vec<_> = weighed.iter().map(|set| set.key).collect();
        let chunk = uow.answer_sets_with_answers(account, survey, &ids).unwrap();
        assert_eq!(chunk.iter().map(|set| set.id).collect::<Vec<_>>(), ids, "the weighed sets, read whole");
        reads += 1;
        request = (chunk.len() == size).then(|| current.next(chunk[size - 1].id));
        sets.extend(chunk);
    }
    (sets, reads)
}

#[test]
fn chunks_with_answers_come_in_id_order_with_answers_in_tree_order_filtered_within_the_account() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree) = survey(&mut PgUnitOfWork::new(&mut conn), "a@acme.example");
    let (other, theirs, their_tree) = survey(&mut PgUnitOfWork::new(&mut conn), "a@other.example");
    let through = respondent_of_a_sendout(&mut conn, acme, pulse);
    let items: Vec<_> = tree.items().map(|item| item.id).collect();
    let answer = |index: usize, value: AnswerValue| Answer { question_item_id: items[index], value };
    let mut uow = PgUnitOfWork::new(&mut conn);
    // Five sets, the answers given out of tree order; sets 2 and 4 came through the sendout, 3 and 4 completed.
    let mut planted = Vec::new();
    for n in 1..=5_i64 {
        let answers = vec![
            answer(3, AnswerValue::Text(format!("set {n}, \"quoted\"; åäö"))),
            answer(1, AnswerValue::Choices(vec!["c".into(), "a".into()])),
            answer(2, AnswerValue::Number(n as f64 + 0.5)),
            answer(0, AnswerValue::Text("b".into())),
        ];
        let draft = AnswerSetDraft::check(n >= 3 && n != 5, answers, &tree).unwrap();
        let respondent = (n % 2 == 0).then_some(through);
        planted.push(uow.insert_answer_set(acme, pulse, respondent, &draft, NOW + time::Duration::minutes(n)).unwrap());
    }
    let foreign = AnswerSetDraft::check(true, Vec::new(), &their_tree).unwrap();
    uow.insert_answer_set(other, theirs, None, &foreign, NOW).unwrap();

    let (sets, reads) = all_chunks(&mut uow, acme, pulse, &AnswerFilter::default(), 2);
    assert_eq!(sets, planted, "each set as it was stored, answers in tree order");
    assert_eq!(reads, 3);
    let values: Vec<_> = sets[0].answers.iter().map(|a| a.value.clone()).collect();
    assert_eq!(
        values,
        [
            AnswerValue::Text("b".into()),
            AnswerValue::Choices(vec!["c".into(), "a".into()]),
            AnswerValue::Number(1.5),
            AnswerValue::Text("set 1, \"quoted\"; åäö".into()),
        ],
        "a multiple choice keeps the order it was given in"
    );

    let ids_of = |uow: &mut PgUnitOfWork<'_>, filter: AnswerFilter| ids(&all_chunks(uow, acme, pulse, &filter, 1).0);
    let first = planted[0].id.get();
    let sendout = AnswerFilter::default().of_sendout(Some(through.1));
    assert_eq!(ids_of(&mut uow, sendout), [first + 1, first + 3]);
    let completed = AnswerFilter::new(None, None, None, true).unwrap();
    assert_eq!(ids_of(&mut uow, completed.clone()), [first + 2, first + 3]);
    assert_eq!(ids_of(&mut uow, completed.of_sendout(Some(through.1))), [first + 3]);
    let window =
        AnswerFilter::new(Some(NOW + time::Duration::minutes(2)), Some(NOW + time::Duration::minutes(3)), None, false);
    assert_eq!(ids_of(&mut uow, window.unwrap()), [first + 1, first + 2]);

    // Another account reads nothing of the survey, and the survey's own account nothing of theirs.
    assert_eq!(all_chunks(&mut uow, other, pulse, &AnswerFilter::default(), 2).0, Vec::new());
    assert_eq!(all_chunks(&mut uow, acme, theirs, &AnswerFilter::default(), 2).0, Vec::new());
    let (their_sets, _) = all_chunks(&mut uow, other, theirs, &AnswerFilter::default(), 2);
    assert_eq!((their_sets.len(), their_sets[0].answers.len()), (1, 0));
}

#[test]
fn sets_are_weighed_by_their_answers_text_before_they_are_read_in_chunks_and_pages() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree) = survey(&mut PgUnitOfWork::new(&mut conn), "a@acme.example");
    let items: Vec<_> = tree.items().map(|item| item.id).collect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let mut record = |answers: Vec<Answer>| {
        let draft = AnswerSetDraft::check(false, answers, &tree).unwrap();
        uow.insert_answer_set(acme, pulse, None, &draft, NOW).unwrap().id
    };
    let empty = record(Vec::new());
    let long = "é".repeat(5_000);
    let large = record(vec![
        Answer { question_item_id: items[3], value: AnswerValue::Text(long) },
        Answer { question_item_id: items[1], value: AnswerValue::Choices(vec!["a".into(), "c".into()]) },
    ]);
    let small = record(vec![Answer { question_item_id: items[2], value: AnswerValue::Number(12.5) }]);
    let expected = [
        Weighed { key: empty, bytes: ANSWER_SET_BYTES },
        // 10,000 bytes of UTF-8 in quotes, and `["a", "c"]` as jsonb writes it.
        Weighed { key: large, bytes: ANSWER_SET_BYTES + 2 * ANSWER_BYTES + 10_002 + 10 },
        Weighed { key: small, bytes: ANSWER_SET_BYTES + ANSWER_BYTES + 4 },
    ];
    let filter = AnswerFilter::default();
    assert_eq!(uow.weigh_answer_sets(acme, pulse, &filter, &ChunkRequest::first(10)).unwrap(), expected);
    assert_eq!(uow.weigh_answer_sets(acme, pulse, &filter, &ChunkRequest::after(empty, 1)).unwrap(), expected[1..2]);
    let page = uow.weigh_answer_set_page(acme, pulse, &filter, PageRequest::new(2, 2, "page", "size").unwrap());
    let page = page.unwrap();
    assert_eq!((page.items, page.total_count), (expected[2..].to_vec(), 3));
    let other = AccountId::new(acme.get() + 1_000);
    assert_eq!(uow.weigh_answer_sets(other, pulse, &filter, &ChunkRequest::first(10)).unwrap(), Vec::new());
    assert_eq!(uow.answer_sets_with_answers(other, pulse, &[empty, large]).unwrap(), Vec::new());
    let read = uow.answer_sets_with_answers(acme, pulse, &[small, empty]).unwrap();
    assert_eq!(ids(&read), [empty.get(), small.get()], "in id order");
}

/// A label of the sendout; returns its id.
fn label(conn: &mut PgConnection, account: AccountId, sendout: SendoutId, name: &str, kind: &str) -> i64 {
    let sql = format!(
        "INSERT INTO bg_labels (account_id, sendout_id, name, label_type, function, created_at) \
         VALUES ($1, $2, '{name}', '{kind}', 0, now()) RETURNING id"
    );
    id(conn, &sql, account.get(), sendout.get())
}

/// Sets the respondent's background data to this JSON object.
fn background(conn: &mut PgConnection, account: AccountId, respondent: RespondentId, json: &str) {
    diesel::sql_query("UPDATE respondents SET background_data = $3::jsonb WHERE account_id = $1 AND id = $2")
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(respondent.get())
        .bind::<diesel::sql_types::Text, _>(json)
        .execute(conn)
        .unwrap();
}

#[test]
fn an_exports_label_names_and_its_respondents_values_are_read_within_the_account() {
    use canvass_domain::answer::export::BackgroundCell;
    use canvass_domain::distribution::LabelType;

    let db = TestDatabase::new();
    let mut conn = db.connect();
    let (acme, pulse, tree) = survey(&mut PgUnitOfWork::new(&mut conn), "a@acme.example");
    let (other, theirs, their_tree) = survey(&mut PgUnitOfWork::new(&mut conn), "a@other.example");
    let (ann, spring) = respondent_of_a_sendout(&mut conn, acme, pulse);
    let (bob, autumn) = respondent_of_a_sendout(&mut conn, acme, pulse);
    let (_, unanswered) = respondent_of_a_sendout(&mut conn, acme, pulse);
    let (eve, their_sendout) = respondent_of_a_sendout(&mut conn, other, theirs);
    let dept = label(&mut conn, acme, spring, "dept", "Text");
    let age = label(&mut conn, acme, spring, "age", "Number");
    let region = label(&mut conn, acme, autumn, "region", "Text");
    let autumn_dept = label(&mut conn, acme, autumn, "dept", "Text");
    label(&mut conn, acme, unanswered, "never", "Text");
    let secret = label(&mut conn, other, their_sendout, "secret", "Text");
    background(&mut conn, acme, ann, &format!(r#"{{"{dept}": "Sales", "{age}": "41"}}"#));
    background(&mut conn, acme, bob, &format!(r#"{{"{region}": "North", "{autumn_dept}": "Ops"}}"#));
    background(&mut conn, other, eve, &format!(r#"{{"{secret}": "x"}}"#));

    let mut uow = PgUnitOfWork::new(&mut conn);
    let draft = |completed| AnswerSetDraft::check(completed, Vec::new(), &tree).unwrap();
    uow.insert_answer_set(acme, pulse, Some((ann, spring)), &draft(true), NOW).unwrap();
    uow.insert_answer_set(acme, pulse, Some((bob, autumn)), &draft(false), NOW).unwrap();
    let their_draft = AnswerSetDraft::check(true, Vec::new(), &their_tree).unwrap();
    uow.insert_answer_set(other, theirs, Some((eve, their_sendout)), &their_draft, NOW).unwrap();

    let names = |uow: &mut PgUnitOfWork<'_>, account, survey, filter: AnswerFilter| {
        uow.export_label_names(account, survey, &filter).unwrap()
    };
    assert_eq!(names(&mut uow, acme, pulse, AnswerFilter::default()), ["dept", "age", "region"]);
    let completed = AnswerFilter::new(None, None, None, true).unwrap();
    assert_eq!(names(&mut uow, acme, pulse, completed), ["dept", "age"], "only the sendouts of passing sets");
    let of_autumn = AnswerFilter::default().of_sendout(Some(autumn));
    assert_eq!(names(&mut uow, acme, pulse, of_autumn), ["region", "dept"]);
    assert!(names(&mut uow, other, pulse, AnswerFilter::default()).is_empty(), "another account's survey");
    assert_eq!(names(&mut uow, other, theirs, AnswerFilter::default()), ["secret"]);

    let mut cells = uow.background_cells(acme, &[ann, bob, eve]).unwrap();
    cells.sort_by(|a, b| (a.0, &a.1.name).cmp(&(b.0, &b.1.name)));
    let cell = |respondent, name: &str, label_type, value: &str| {
        (respondent, BackgroundCell { name: name.into(), label_type, value: value.into() })
    };
    assert_eq!(
        cells,
        [
            cell(ann, "age", LabelType::Number, "41"),
            cell(ann, "dept", LabelType::Text, "Sales"),
            cell(bob, "dept", LabelType::Text, "Ops"),
            cell(bob, "region", LabelType::Text, "North"),
        ],
        "eve is another account's respondent"
    );
    assert!(uow.background_cells(other, &[ann, bob]).unwrap().is_empty());
}
