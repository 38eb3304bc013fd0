//! The PostgreSQL adapter against a real database: order, tenancy, transactions, bulk copies.

use canvass_domain::account::{ApiKey, KeyPrefix, KeySpec, NewAccount, NewUser, Role, UserChange};
use canvass_domain::answer::{Answer, AnswerFilter, AnswerSetDraft, AnswerValue};
use canvass_domain::chunks::ChunkRequest;
use canvass_domain::distribution::BlocklistType;
use canvass_domain::ids::AccountId;
use canvass_domain::ports::{transaction, AccountRepository, AnswerRepository, BlocklistRepository, SurveyRepository};
use canvass_domain::survey::{ChoiceOption, PageDraft, QuestionItemDraft, QuestionType, SurveyDraft, SurveyInput};
use canvass_domain::DomainError;
use canvass_postgres::PgUnitOfWork;
use canvass_testdb::TestDatabase;
use time::macros::datetime;
use time::OffsetDateTime;

use crate::support::{account_at, insert_with_tree};

const NOW: OffsetDateTime = datetime!(2020-11-22 10:00 UTC);

fn item(kind: QuestionType, text: &str) -> QuestionItemDraft {
    let options = if kind.has_options() {
        vec![
            ChoiceOption { value: "a".into(), label: "A".into() },
            ChoiceOption { value: "b".into(), label: "B".into() },
        ]
    } else {
        vec![]
    };
    QuestionItemDraft { kind, text: text.into(), options, ..QuestionItemDraft::default() }
}

fn draft(pages: usize, items_per_page: usize) -> SurveyDraft {
    let input = SurveyInput {
        name: "Pulse".into(),
        start_date: Some(NOW),
        end_date: Some(NOW + time::Duration::days(1)),
        pages: (0..pages)
            .map(|p| PageDraft {
                title: format!("page {p}"),
                items: (0..items_per_page).map(|i| item(QuestionType::MultipleChoice, &format!("{p}.{i}"))).collect(),
                randomize_items: false,
            })
            .collect(),
        ..Default::default()
    };
    SurveyDraft::new(input, NOW).unwrap()
}

#[test]
fn a_stored_tree_reads_back_in_the_given_order() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let survey = uow.insert_survey(acme, &draft(12, 7), NOW).unwrap();
    let read = uow.question_tree(acme, survey.id).unwrap();
    let texts: Vec<_> = read.items().map(|i| i.text.clone()).collect();
    let expected: Vec<_> = (0..12).flat_map(|p| (0..7).map(move |i| format!("{p}.{i}"))).collect();
    assert_eq!(texts, expected);
    assert_eq!(read.pages[3].items[0].options[1].label, "B");
}

#[test]
fn another_account_reads_nothing() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let other = account_at(&mut uow, "b@other.example", NOW);
    let (survey, tree) = insert_with_tree(&mut uow, acme, &draft(1, 1), NOW).unwrap();
    assert_eq!(uow.find_survey(other, survey.id).unwrap(), None);
    assert!(uow.list_surveys(other).unwrap().is_empty());
    assert!(uow.question_tree(other, survey.id).unwrap().pages.is_empty());
    let item = tree.pages[0].items[0].id;
    assert!(!uow.delete_question_item(other, survey.id, item).unwrap());
    assert!(uow.question_tree(acme, survey.id).unwrap().item(item).is_some());
}

#[test]
fn a_failed_unit_of_work_leaves_nothing_behind() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let result: Result<(), DomainError> = transaction(&mut uow, |tx| {
        tx.insert_survey(acme, &draft(2, 2), NOW)?;
        Err(DomainError::invalid("name", "refused after the write"))
    });
    assert!(result.is_err());
    assert!(uow.list_surveys(acme).unwrap().is_empty());
    let kept = transaction(&mut uow, |tx| Ok(tx.insert_survey(acme, &draft(1, 1), NOW)?)).unwrap();
    assert_eq!(uow.list_surveys(acme).unwrap(), vec![kept]);
}

#[test]
fn answer_sets_are_copied_in_bulk_with_item_ids_mapped() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let (source, tree) = insert_with_tree(&mut uow, acme, &draft(2, 2), NOW).unwrap();
    let (target, copy) = insert_with_tree(&mut uow, acme, &draft(2, 2), NOW).unwrap();
    let items: Vec<_> = tree.items().map(|i| i.id).collect();
    for n in 0..300 {
        let answers = vec![
            Answer { question_item_id: items[0], value: AnswerValue::Choices(vec!["a".into()]) },
            Answer { question_item_id: items[3], value: AnswerValue::Choices(vec!["b".into(), "a".into()]) },
        ];
        let set = AnswerSetDraft::check(n % 2 == 0, answers, &tree).unwrap();
        uow.insert_answer_set(acme, source.id, None, &set, NOW + time::Duration::seconds(n)).unwrap();
    }
    let map: Vec<_> = tree.items().zip(copy.items()).map(|(o, n)| (o.id, n.id)).collect();
    let copied = uow.copy_answer_sets(acme, source.id, target.id, &map).unwrap();
    assert_eq!(copied, 600, "answers copied");
    let filter = AnswerFilter::new(None, None, None, true).unwrap();
    let completed = uow.answer_sets_chunk(acme, target.id, &filter, &ChunkRequest::first(1000)).unwrap();
    assert_eq!(completed.len(), 150);
    let page = canvass_domain::paging::PageRequest::new(2, 100, "page", "pagesize").unwrap();
    let second = uow.page_answer_sets(acme, target.id, &AnswerFilter::default(), page).unwrap();
    assert_eq!((second.total_count, second.items.len()), (300, 100));
    let new_items: Vec<_> = copy.items().map(|i| i.id).collect();
    let first = &second.items[0];
    assert_eq!(first.created_at, NOW + time::Duration::seconds(100));
    assert_eq!(first.answers[0].question_item_id, new_items[0]);
    assert_eq!(
        first.answers[1],
        Answer { question_item_id: new_items[3], value: AnswerValue::Choices(vec!["b".into(), "a".into()]) }
    );
    let all = uow.answer_sets_chunk(acme, source.id, &AnswerFilter::default(), &ChunkRequest::first(1000)).unwrap();
    assert_eq!(all.len(), 300);
}

#[test]
fn blocklist_chunks_break_ties_of_created_at_by_contact_key() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let acme = account_at(&mut uow, "a@acme.example", NOW);
    let other = account_at(&mut uow, "b@other.example", NOW);
    uow.insert_blocklist(other, "x@other.example", "x@other.example", BlocklistType::Blocked, NOW).unwrap();
    // Five entries at one instant, one before and one after, added in no particular order.
    let later = NOW + time::Duration::microseconds(1);
    let earlier = NOW - time::Duration::microseconds(1);
    for (contact, at) in [("e@x.example", NOW), ("late@x.example", later), ("b@x.example", NOW), ("d@x.example", NOW)]
        .into_iter()
        .chain([("early@x.example", earlier), ("a@x.example", NOW), ("c@x.example", NOW)])
    {
        uow.insert_blocklist(acme, contact, contact, BlocklistType::OptedOut, at).unwrap().unwrap();
    }
    let mut read = Vec::new();
    let mut request = Some(ChunkRequest::first(2));
    while let Some(current) = request {
        let rows = uow.blocklist_chunk(acme, &current).unwrap();
        assert!(rows.len() <= 2);
        request = match rows.last() {
            Some((key, _)) if rows.len() == 2 => Some(current.next(key.clone())),
            _ => None,
        };
        read.extend(rows.into_iter().map(|(key, entry)| (key.contact_key, entry.contact_details)));
    }
    let contacts: Vec<&str> = read.iter().map(|(_, details)| details.as_str()).collect();
    assert_eq!(
        contacts,
        [
            "early@x.example",
            "a@x.example",
            "b@x.example",
            "c@x.example",
            "d@x.example",
            "e@x.example",
            "late@x.example"
        ]
    );
    assert!(read.iter().all(|(key, details)| key == details));
}

#[test]
fn keys_are_found_by_prefix_until_revoked() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let new = NewAccount::new("Acme", "a@acme.example").unwrap();
    let key = ApiKey::generate();
    let (acme, user) = uow.create_account(&new, &key, NOW).unwrap();
    let prefix = KeyPrefix::parse(key.lookup_prefix()).unwrap();
    let found = uow.active_keys_with_prefix(&prefix).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].caller.account_id, found[0].caller.user_id), (acme, user));
    assert_eq!((found[0].caller.role, found[0].caller.read_only, found[0].caller.key), (Role::Owner, false, prefix));
    assert!(found[0].hash.matches(key.secret()));
    assert_eq!(uow.revoke_keys(Some(AccountId::new(acme.get() + 1)), &prefix, NOW).unwrap(), 0, "not its account");
    assert_eq!(uow.revoke_keys(Some(acme), &prefix, NOW).unwrap(), 1);
    assert!(uow.active_keys_with_prefix(&prefix).unwrap().is_empty());
    assert_eq!(uow.find_user_by_email("A@ACME.example").unwrap().map(|u| u.id), Some(user));
    let listed = uow.list_keys(acme).unwrap();
    assert_eq!((listed.len(), listed[0].name.as_str(), listed[0].revoked_at), (1, "command line", Some(NOW)));
}

#[test]
fn users_and_their_keys_carry_role_activity_expiry_and_read_only() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let new = NewAccount::new("Acme", "a@acme.example").unwrap();
    let (acme, owner) = uow.create_account(&new, &ApiKey::generate(), NOW).unwrap();
    let analyst = NewUser::new("Ann", "ann@acme.example", Role::Analyst).unwrap();
    let ann = uow.create_user(acme, &analyst, NOW).unwrap().unwrap();
    assert_eq!((ann.role, ann.active), (Role::Analyst, true));
    let again = NewUser::new("Ann again", "ANN@acme.example", Role::Viewer).unwrap();
    assert_eq!(uow.create_user(acme, &again, NOW).unwrap(), None, "one user per address in an account");

    let key = ApiKey::generate();
    let expires = NOW + time::Duration::days(7);
    let spec = KeySpec { name: "exports".into(), expires_at: Some(expires), read_only: true };
    assert_eq!(uow.create_key(ann.id, &key, &spec, NOW).unwrap(), Some(acme));
    let prefix = KeyPrefix::parse(key.lookup_prefix()).unwrap();
    let caller = uow.active_keys_with_prefix(&prefix).unwrap()[0].caller;
    assert_eq!((caller.role, caller.read_only, caller.expires_at), (Role::Analyst, true, Some(expires)));
    uow.mark_key_used(acme, &prefix, NOW).unwrap();
    let record = uow.find_key(acme, &prefix).unwrap().unwrap();
    assert_eq!((record.name.as_str(), record.last_used_at, record.user_id), ("exports", Some(NOW), ann.id));

    assert_eq!(uow.lock_active_owners(acme).unwrap(), [owner]);
    let off = UserChange { active: Some(false), role: Some(Role::Viewer) };
    let changed = uow.change_user(acme, ann.id, off).unwrap().unwrap();
    assert_eq!((changed.role, changed.active), (Role::Viewer, false));
    assert!(uow.active_keys_with_prefix(&prefix).unwrap().is_empty(), "a deactivated user's keys are not found");
    let other = AccountId::new(acme.get() + 1);
    assert_eq!(uow.change_user(other, ann.id, off).unwrap(), None, "another account's user");
    assert_eq!(uow.find_key(other, &prefix).unwrap(), None);
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// How many statements this connection has prepared that contain `fragment`.
fn prepared_containing(conn: &mut diesel::PgConnection, fragment: &str) -> i64 {
    use diesel::RunQueryDsl;
    diesel::sql_query("SELECT count(*) AS n FROM pg_prepared_statements WHERE strpos(statement, $1) > 0")
        .bind::<diesel::sql_types::Text, _>(fragment)
        .get_result::<Count>(conn)
        .unwrap()
        .n
}

#[test]
fn every_chunk_of_a_list_is_one_cached_prepared_statement() {
    use diesel::RunQueryDsl;
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let acme = account_at(&mut PgUnitOfWork::new(&mut conn), "a@acme.example", NOW);
    let survey = PgUnitOfWork::new(&mut conn).insert_survey(acme, &draft(1, 1), NOW).unwrap();
    diesel::sql_query(
        "INSERT INTO answer_sets (account_id, survey_id, completed, created_at, updated_at) \
         SELECT $1, $2, g % 2 = 0, $3, $3 FROM generate_series(1, 5) g",
    )
    .bind::<diesel::sql_types::BigInt, _>(acme.get())
    .bind::<diesel::sql_types::BigInt, _>(survey.id.get())
    .bind::<diesel::sql_types::Timestamptz, _>(NOW)
    .execute(&mut conn)
    .unwrap();
    for n in 0..5 {
        let contact = format!("p{n}@x.example");
        PgUnitOfWork::new(&mut conn).insert_blocklist(acme, &contact, &contact, BlocklistType::Blocked, NOW).unwrap();
    }

    let mut uow = PgUnitOfWork::new(&mut conn);
    let mut sets = Vec::new();
    let mut request = Some(ChunkRequest::first(2));
    while let Some(current) = request {
        let chunk = uow.answer_sets_chunk(acme, survey.id, &AnswerFilter::default(), &current).unwrap();
        request = (chunk.len() == 2).then(|| current.next(chunk[1].id));
        sets.extend(chunk);
    }
    assert_eq!(sets.len(), 5);
    let mut entries = 0;
    let mut request = Some(ChunkRequest::first(2));
    while let Some(current) = request {
        let chunk = uow.blocklist_chunk(acme, &current).unwrap();
        request = (chunk.len() == 2).then(|| current.next(chunk[1].0.clone()));
        entries += chunk.len();
    }
    assert_eq!(entries, 5);

    // Three chunks of answer sets, one statement: the first starts after the smallest id, as the others after theirs.
    assert_eq!(prepared_containing(&mut conn, "FROM \"answer_sets\""), 1);
    // The blocklist's first chunk has no cursor, the later ones one: two statements for three chunks.
    assert_eq!(prepared_containing(&mut conn, "FROM \"blocklist\""), 2);
}

#[test]
fn audit_events_read_newest_first_by_filter_within_their_account_and_purge_by_age() {
    use canvass_domain::audit::{Actor, AuditCursor, AuditFilter, NewAuditEvent, Target};
    use canvass_domain::ports::AuditRepository;

    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut uow = PgUnitOfWork::new(&mut conn);
    let (acme, other) = (AccountId::new(1), AccountId::new(2));
    let event = |minutes: i64, action: &str, user: i64| NewAuditEvent {
        at: NOW + time::Duration::minutes(minutes),
        actor: Actor {
            user_id: canvass_domain::ids::UserId::new(user),
            key: KeyPrefix::parse("cvs_0123456789ab").unwrap(),
        },
        action: action.into(),
        target: Target { kind: "survey".into(), id: Some(minutes.to_string()) },
        client_address: Some("192.0.2.1".into()),
        request_id: None,
        status: 201,
    };
    for minute in 0..4 {
        uow.record_audit(acme, &event(minute, if minute % 2 == 0 { "survey.create" } else { "key.revoke" }, minute))
            .unwrap();
    }
    uow.record_audit(other, &event(9, "survey.create", 9)).unwrap();

    let all = uow.audit_events(acme, &AuditFilter::default(), None, 10).unwrap();
    let minutes: Vec<_> = all.iter().map(|e| e.event.target.id.clone().unwrap()).collect();
    assert_eq!(minutes, ["3", "2", "1", "0"]);
    assert_eq!(all[0].event, event(3, "key.revoke", 3), "read back as written");
    let after = uow.audit_events(acme, &AuditFilter::default(), Some(AuditCursor(all[1].id)), 10).unwrap();
    assert_eq!(after.len(), 2);
    let creates = AuditFilter { action: Some("survey.create".into()), ..AuditFilter::default() };
    assert_eq!(uow.audit_events(acme, &creates, None, 10).unwrap().len(), 2);
    let of_user = AuditFilter { actor: Some(canvass_domain::ids::UserId::new(1)), ..AuditFilter::default() };
    assert_eq!(uow.audit_events(acme, &of_user, None, 10).unwrap().len(), 1);
    let window = AuditFilter {
        from: Some(NOW + time::Duration::minutes(1)),
        to: Some(NOW + time::Duration::minutes(3)),
        ..AuditFilter::default()
    };
    assert_eq!(uow.audit_events(acme, &window, None, 10).unwrap().len(), 2);

    assert_eq!(uow.purge_audit(NOW + time::Duration::minutes(2)).unwrap(), 2);
    assert_eq!(uow.audit_events(acme, &AuditFilter::default(), None, 10).unwrap().len(), 2);
    assert_eq!(uow.audit_events(other, &AuditFilter::default(), None, 10).unwrap().len(), 1);
}
