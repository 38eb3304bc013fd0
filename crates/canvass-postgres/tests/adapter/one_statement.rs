//! The question tree read in one statement, and answer sets written in one: what they read and write, that each is
//! one cached prepared statement whatever the number of answers, and that two replacements of one set do not mix.

use std::time::{Duration, Instant};

use canvass_domain::answer::{Answer, AnswerSetDraft, AnswerValue};
use canvass_domain::ids::{QuestionItemId, SurveyId};
use canvass_domain::ports::{transaction, AnswerRepository, SurveyRepository, Transactional};
use canvass_domain::survey::{
    Condition, ConditionalRule, Conditions, LogicRuleDraft, LogicRules, Operator, PageDraft, QuestionItemDraft,
    QuestionType, RuleAction, RuleDraft, Subject, SurveyDraft,
};
use canvass_domain::survey::{QuestionTree, SurveyInput};
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use diesel::sql_types::{BigInt, Text};
use diesel::{PgConnection, QueryableByName, RunQueryDsl};
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support::{account_at, insert_with_tree};

const NOW: OffsetDateTime = datetime!(2020-11-22 10:00 UTC);

/// A survey of `pages` pages of `items_per_page` OpenText items.
fn draft(pages: usize, items_per_page: usize) -> SurveyDraft {
    let item = |text: String| QuestionItemDraft { kind: QuestionType::OpenText, text, ..QuestionItemDraft::default() };
    let input = SurveyInput {
        name: "Pulse".into(),
        start_date: Some(NOW),
        end_date: Some(NOW + time::Duration::days(1)),
        pages: (0..pages)
            .map(|p| PageDraft {
                title: format!("page {p}"),
                items: (0..items_per_page).map(|i| item(format!("{p}.{i}"))).collect(),
                randomize_items: false,
            })
            .collect(),
        ..Default::default()
    };
    SurveyDraft::new(input, NOW).unwrap()
}

/// Text answers to `items`, each saying `word` and its item.
fn answers(tree: &QuestionTree, items: &[QuestionItemId], word: &str) -> AnswerSetDraft {
    let answers =
        items.iter().map(|&item| Answer { question_item_id: item, value: AnswerValue::Text(format!("{word} {item}")) });
    AnswerSetDraft::check(false, answers.collect(), tree).unwrap()
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// How many statements this connection has prepared whose text starts with `prefix`.
fn prepared_like(conn: &mut PgConnection, prefix: &str) -> i64 {
    diesel::sql_query("SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE $1 || '%'")
        .bind::<Text, _>(prefix)
        .get_result::<Count>(conn)
        .unwrap()
        .n
}

#[test]
fn the_survey_and_its_tree_are_read_together_or_not_at_all() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let other = account_at(&mut uow, "b@other.example", NOW);
    let (survey, inserted) = insert_with_tree(&mut uow, acme, &draft(3, 2), NOW).unwrap();
    let empty = uow.insert_survey(acme, &draft(0, 0), NOW).unwrap();

    let (read, tree) = uow.find_survey_tree(acme, survey.id).unwrap().unwrap();
    assert_eq!((read, tree), (survey.clone(), inserted.clone()));
    let (_, tree) = uow.find_survey_tree(acme, empty.id).unwrap().expect("a survey without pages is found");
    assert!(tree.pages.is_empty() && tree.logic.is_empty());
    assert_eq!(tree.survey_id, empty.id);
    assert_eq!(uow.find_survey_tree(other, survey.id).unwrap(), None, "another account's survey");
    assert_eq!(uow.find_survey_tree(acme, SurveyId::new(987_654)).unwrap(), None);

    // Rules come back in their order; one whose item is deleted reads as broken.
    let items: Vec<_> = inserted.items().map(|i| i.id).collect();
    let rule = |item: QuestionItemId, page: usize| {
        RuleDraft::from(LogicRuleDraft {
            question_item_id: item,
            equals: format!("to {page}"),
            go_to_page_id: inserted.pages[page].id,
        })
    };
    let answered =
        |item: QuestionItemId| Condition { subject: Subject::Item(item), operator: Operator::Answered, value: None };
    let ending = RuleDraft::Conditional(ConditionalRule {
        when: Conditions::Any(vec![Conditions::One(answered(items[0])), Conditions::One(answered(items[1]))]),
        action: RuleAction::EndSurvey,
    });
    let given = vec![rule(items[1], 2), rule(items[0], 1), ending];
    let rules = LogicRules::check(given.clone(), &inserted).unwrap();
    uow.replace_logic(acme, survey.id, &rules).unwrap();
    let (_, tree) = uow.find_survey_tree(acme, survey.id).unwrap().unwrap();
    let logic: Vec<_> = tree.logic.iter().map(|r| (r.rule.clone(), r.broken)).collect();
    assert_eq!(logic, given.iter().map(|rule| (rule.clone(), false)).collect::<Vec<_>>(), "both forms read back");
    assert!(uow.delete_question_item(acme, survey.id, items[1]).unwrap());
    let (_, tree) = uow.find_survey_tree(acme, survey.id).unwrap().unwrap();
    let broken: Vec<_> = tree.logic.iter().map(|r| r.broken).collect();
    assert_eq!(broken, [true, false, true], "the rules that name the deleted item");
    assert_eq!(tree.pages[0].items.len(), 1);
    assert_eq!(uow.question_tree(acme, survey.id).unwrap(), tree);
}

#[test]
fn the_tree_comes_back_in_position_order_whatever_order_the_rows_are_stored_in() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let (survey, inserted) = insert_with_tree(&mut uow, acme, &draft(3, 3), NOW).unwrap();
    let items: Vec<_> = inserted.items().map(|i| i.id).collect();
    let rule = |item: QuestionItemId, page: usize| {
        RuleDraft::from(LogicRuleDraft {
            question_item_id: item,
            equals: format!("to {page}"),
            go_to_page_id: inserted.pages[page].id,
        })
    };
    let rules = LogicRules::check(vec![rule(items[0], 1), rule(items[1], 2), rule(items[2], 2)], &inserted).unwrap();
    uow.replace_logic(acme, survey.id, &rules).unwrap();
    // Every position reversed, the rows stored in their old order and read by sequential scans (no index hands
    // them over in position order): the order comes from the positions, not from the plan.
    diesel::sql_query("SET enable_indexscan = off").execute(&mut conn).unwrap();
    diesel::sql_query("SET enable_bitmapscan = off").execute(&mut conn).unwrap();
    for table in ["survey_pages", "question_items", "logic_rules"] {
        diesel::sql_query(format!("UPDATE {table} SET position = 100 - position WHERE account_id = $1"))
            .bind::<BigInt, _>(acme.get())
            .execute(&mut conn)
            .unwrap();
    }
    let mut uow = PgUnitOfWork::new(&mut conn);
    let (_, tree) = uow.find_survey_tree(acme, survey.id).unwrap().unwrap();
    let titles: Vec<_> = tree.pages.iter().map(|page| page.title.as_str()).collect();
    assert_eq!(titles, ["page 2", "page 1", "page 0"]);
    let texts: Vec<_> = tree.pages[0].items.iter().map(|item| item.text.as_str()).collect();
    assert_eq!(texts, ["2.2", "2.1", "2.0"]);
    let logic: Vec<_> = tree.logic.iter().map(|r| r.rule.clone()).collect();
    assert_eq!(logic, [rule(items[2], 2), rule(items[1], 2), rule(items[0], 1)]);
}

#[test]
fn each_write_is_one_prepared_statement_whatever_the_number_of_answers() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let (survey, tree) = insert_with_tree(&mut uow, acme, &draft(4, 50), NOW).unwrap();
    let items: Vec<_> = tree.items().map(|i| i.id).collect();
    for count in [0, 1, 7, 200] {
        let draft = answers(&tree, &items[..count], "first");
        let set = uow.insert_answer_set(acme, survey.id, None, &draft, NOW).unwrap();
        let stored = uow.find_answer_set(acme, survey.id, set.id).unwrap().unwrap();
        assert_eq!(stored, set, "{count} answers read back as written");
        for kept in [count / 2, count] {
            let draft = answers(&tree, &items[count - kept..count], "again");
            let later = NOW + time::Duration::minutes(1);
            let replaced = uow.replace_answers(acme, survey.id, set.id, &draft, later).unwrap().unwrap().set;
            assert_eq!(replaced.answers, draft.answers());
            assert_eq!(uow.find_answer_set(acme, survey.id, set.id).unwrap().unwrap(), replaced);
        }
        uow.find_survey_tree(acme, survey.id).unwrap().unwrap();
    }
    assert_eq!(prepared_like(&mut conn, "WITH answer_set AS (\n    INSERT"), 1);
    assert_eq!(prepared_like(&mut conn, "WITH answer_set AS (\n    UPDATE"), 1);
    assert_eq!(prepared_like(&mut conn, "SELECT s.id, s.name"), 1);
}

/// Waits until some session of the database waits for a lock.
fn until_one_waits_for_a_lock(conn: &mut PgConnection) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let query =
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    while diesel::sql_query(query).get_result::<Count>(conn).unwrap().n == 0 {
        assert!(Instant::now() < deadline, "no session came to wait for the answer set's lock");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_replacement_that_waited_for_another_replaces_the_whole_set() {
    let db = TestDatabase::new();
    let (mut first, mut second, mut watcher) = (db.connect(), db.connect(), db.connect());
    let mut uow = PgUnitOfWork::new(&mut first);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let (survey, tree) = insert_with_tree(&mut uow, acme, &draft(1, 3), NOW).unwrap();
    let items: Vec<_> = tree.items().map(|i| i.id).collect();
    let set = uow.insert_answer_set(acme, survey.id, None, &answers(&tree, &items[..2], "start"), NOW).unwrap();

    // The first replacement completes the set and holds it while the second one starts and waits for it.
    uow.begin().unwrap();
    let first_one = answers(&tree, &items[2..], "first").finished();
    let replaced = uow.replace_answers(acme, survey.id, set.id, &first_one, NOW).unwrap().unwrap();
    assert!(replaced.completes(), "the set was open before the first replacement");
    let last = answers(&tree, &items[..1], "second");
    let waiting = {
        let (tree_items, last) = (items.clone(), last.clone());
        std::thread::spawn(move || {
            let mut uow = PgUnitOfWork::new(&mut second);
            let replaced = transaction(&mut uow, |tx| Ok(tx.replace_answers(acme, survey.id, set.id, &last, NOW)?));
            let replaced = replaced.unwrap().unwrap();
            assert_eq!(replaced.set.answers[0].question_item_id, tree_items[0]);
            assert!(replaced.was_completed, "the waiting replacement sees the flag the first one committed");
        })
    };
    until_one_waits_for_a_lock(&mut watcher);
    uow.commit().unwrap();
    waiting.join().unwrap();

    let stored = uow.find_answer_set(acme, survey.id, set.id).unwrap().unwrap();
    assert_eq!(stored.answers, last.answers(), "the second replacement left none of the first one's answers");
}
