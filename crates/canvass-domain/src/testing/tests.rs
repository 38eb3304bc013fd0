//! The in-memory store keeps what a handler test needs, scoped by account, rolls back what a failed transaction
//! wrote, and fails as a store that cannot be reached does.

use crate::error::{DomainError, RepoError};
use crate::idempotency::{Claim, Fingerprint, IdempotencyKey, KeptResponse};
use crate::ids::{CategoryId, SurveyId};
use crate::ports::{transaction, Readiness, Store, StoreExt};
use crate::survey::{PageDraft, QuestionItemDraft, SurveyInput};
use crate::use_cases::{accounts, categories, idempotency, surveys};

use super::{At, MemoryStore, NOW};

fn survey_input(name: &str) -> SurveyInput {
    let item = QuestionItemDraft { text: "How are you?".into(), ..QuestionItemDraft::default() };
    let page = PageDraft { title: "First".into(), items: vec![item], randomize_items: false };
    SurveyInput { name: name.into(), pages: vec![page], ..SurveyInput::default() }
}

#[test]
fn a_seeded_key_authenticates_and_what_it_creates_is_read_back() {
    let store = MemoryStore::new();
    let created = store.seed_account("Acme", "owner@acme.example").unwrap();

    let caller = store.with_uow(|uow| accounts::authenticate(uow, &At(NOW), created.api_key.secret())).unwrap();
    let caller = caller.expect("the seeded key authenticates");
    assert_eq!((caller.account_id, caller.user_id), (created.account_id, created.user_id));

    let survey = store.with_uow(|uow| surveys::create(uow, &At(NOW), caller.account_id, survey_input("Staff")));
    let survey = survey.unwrap();
    let (read, tree) = store.with_uow(|uow| surveys::get_with_tree(uow, caller.account_id, survey.id)).unwrap();
    assert_eq!(read, survey);
    assert_eq!(tree.pages.len(), 1);
    assert_eq!(tree.pages[0].items[0].text, "How are you?");
    assert_eq!(tree.pages[0].items[0].page_id, tree.pages[0].id);
}

#[test]
fn another_accounts_ids_answer_as_missing_ones_do() {
    let store = MemoryStore::new();
    let acme = store.seed_account("Acme", "owner@acme.example").unwrap().account_id;
    let other = store.seed_account("Other", "owner@other.example").unwrap().account_id;
    let survey = store.with_uow(|uow| surveys::create(uow, &At(NOW), acme, survey_input("Staff"))).unwrap();
    let category = store.with_uow(|uow| categories::create(uow, &At(NOW), acme, "HR")).unwrap();

    store
        .with_uow(|uow| {
            assert_eq!(uow.find_survey(other, survey.id)?, None);
            assert_eq!(uow.find_survey_tree(other, survey.id)?, None);
            assert!(uow.list_surveys(other)?.is_empty());
            assert!(uow.question_tree(other, survey.id)?.pages.is_empty());
            assert!(!uow.delete_question_item(other, survey.id, crate::ids::QuestionItemId::new(1))?);
            assert_eq!(uow.find_category(other, category.id)?, None);
            assert_eq!(uow.find_category(acme, CategoryId::new(999))?, None);
            assert_eq!(uow.find_survey(acme, SurveyId::new(999))?, None);
            Ok(())
        })
        .unwrap();
    assert_eq!(store.with_uow(|uow| surveys::list(uow, acme)).unwrap(), [survey]);
}

#[test]
fn a_revoked_or_unknown_key_authenticates_no_one() {
    let store = MemoryStore::new();
    let created = store.seed_account("Acme", "owner@acme.example").unwrap();
    let secret = created.api_key.secret().to_owned();
    let unknown = crate::account::ApiKey::generate();
    assert_eq!(store.with_uow(|uow| accounts::authenticate(uow, &At(NOW), unknown.secret())).unwrap(), None);

    let revoked = store.with_uow(|uow| accounts::revoke_key(uow, &At(NOW), created.api_key.lookup_prefix()));
    assert_eq!(revoked.unwrap(), 1);
    assert_eq!(store.with_uow(|uow| accounts::authenticate(uow, &At(NOW), &secret)).unwrap(), None);
}

#[test]
fn a_failed_transaction_leaves_nothing_behind() {
    let store = MemoryStore::new();
    let acme = store.seed_account("Acme", "owner@acme.example").unwrap().account_id;
    let failed: Result<(), DomainError> = store.with_uow(|uow| {
        transaction(uow, |tx| {
            tx.insert_category(acme, &crate::category::CategoryName::new("HR").unwrap(), NOW)?;
            Err(DomainError::NotFound(crate::Resource::Survey))
        })
    });
    assert!(failed.is_err());
    assert!(store.with_uow(|uow| categories::list(uow, acme)).unwrap().is_empty(), "rolled back");
    assert_eq!(store.inspect(|memory| memory.transactions.rolled_back), 1);
}

#[test]
fn an_idempotent_request_is_replayed_from_the_store() {
    let store = MemoryStore::new();
    let acme = store.seed_account("Acme", "owner@acme.example").unwrap().account_id;
    let key = IdempotencyKey::parse("create-staff").unwrap();
    let fingerprint = Fingerprint::of("POST", "/api/v1/surveys", "", b"{}");
    let answer = KeptResponse { status: 201, content_type: None, body: b"{}".to_vec() };

    let first = store.with_uow(|uow| idempotency::claim(uow, &At(NOW), acme, &key, &fingerprint)).unwrap();
    let Claim::Run(claimed) = first else { panic!("the first request runs, got {first:?}") };
    store.with_uow(|uow| idempotency::complete(uow, acme, &key, claimed, &answer)).unwrap();

    let again = store.with_uow(|uow| idempotency::claim(uow, &At(NOW), acme, &key, &fingerprint)).unwrap();
    assert_eq!(again, Claim::Replay(answer));
}

#[test]
fn an_unavailable_store_answers_unavailable_until_it_is_back() {
    let store = MemoryStore::unavailable();
    let lent = store.with_uow(|uow| Ok(uow.list_surveys(crate::AccountId::new(1))?));
    assert!(matches!(lent, Err(DomainError::Repo(RepoError::Unavailable(_)))), "{lent:?}");
    assert!(matches!(store.readiness(), Err(DomainError::Repo(RepoError::Unavailable(_)))));

    store.set_available(true);
    assert_eq!(store.readiness().unwrap(), Readiness { pending_migrations: 0 });
    store.set_readiness(Readiness { pending_migrations: 2 });
    assert_eq!(store.readiness().unwrap().pending_migrations, 2);
}

/// Acme's survey with an EMAIL sendout holding Ann, and Other's account; their ids.
fn distribution(store: &MemoryStore) -> (crate::AccountId, crate::AccountId, SurveyId, crate::ids::SendoutId) {
    use crate::distribution::{DispatchType, MessageInput, RespondentInput, SendoutInput};
    use crate::use_cases::{respondents, sendouts};
    let acme = store.seed_account("Acme", "owner@acme.example").unwrap().account_id;
    let other = store.seed_account("Other", "owner@other.example").unwrap().account_id;
    let survey = store.with_uow(|uow| surveys::create(uow, &At(NOW), acme, survey_input("Staff"))).unwrap();
    let message = MessageInput {
        send_date: Some(NOW),
        sender: Some("hr@acme.example".into()),
        subject: Some("Your view".into()),
        message: Some("Answer: {{surveyLink}}".into()),
        messages: Vec::new(),
    };
    let input = SendoutInput {
        name: "Spring".into(),
        kind: DispatchType::Email,
        message,
        expiry_date: None,
        language: None,
        open_link: Default::default(),
    };
    let sendout = store.with_uow(|uow| sendouts::create(uow, &At(NOW), acme, survey.id, input)).unwrap();
    let ann = RespondentInput {
        contact_details: "ann@example.com".into(),
        send_mail: true,
        background_data: Default::default(),
        language: None,
    };
    store.with_uow(|uow| respondents::add(uow, &At(NOW), acme, survey.id, sendout.id, ann)).unwrap();
    (acme, other, survey.id, sendout.id)
}

#[test]
fn respondents_blocklist_and_messages_are_kept_and_scoped_by_account() {
    use crate::chunks::ChunkRequest;
    use crate::distribution::{BlocklistType, RespondentStatus};
    use crate::use_cases::{blocklist, sendouts};
    let store = MemoryStore::new();
    let (acme, other, survey, sendout) = distribution(&store);

    store
        .with_uow(|uow| {
            let first = ChunkRequest::first(10);
            let ours = uow.respondents_chunk(acme, sendout, &first)?;
            assert_eq!(ours.len(), 1);
            assert!(uow.respondents_chunk(other, sendout, &first)?.is_empty());
            assert_eq!(uow.find_respondent(other, sendout, ours[0].id)?, None);
            assert_eq!(uow.respondent_sendout(other, survey, ours[0].id)?, None);
            assert_eq!(uow.find_sendout(other, survey, sendout, false)?, None);
            assert!(uow.list_labels(other, sendout)?.is_empty() && uow.list_documents(other)?.is_empty());
            assert_eq!(uow.list_documents(acme)?.len(), 1, "a sendout has its document");
            Ok(())
        })
        .unwrap();

    let activated = store.with_uow(|uow| sendouts::activate(uow, &At(NOW), acme, survey, sendout)).unwrap();
    assert_eq!((activated.respondent_count, activated.pending_count), (1, 0));
    let claimed = store.with_uow(|uow| Ok(uow.claim_due(NOW, NOW + time::Duration::minutes(5), 10)?)).unwrap();
    assert_eq!(claimed.len(), 1, "the invitation is queued");
    assert_eq!((claimed[0].recipient.as_str(), claimed[0].attempts), ("ann@example.com", 1));

    // Another account's blocklist does not reach Acme's respondents; Acme's does.
    store.with_uow(|uow| blocklist::add(uow, &At(NOW), other, "ann@example.com", BlocklistType::Blocked)).unwrap();
    let status = |store: &MemoryStore| store.inspect(|memory| memory.respondent_rows()[0].status);
    assert_eq!(status(&store), RespondentStatus::Scheduled);
    let blocked = store.with_uow(|uow| Ok(uow.blocked_keys(acme, &["ann@example.com".to_owned()])?)).unwrap();
    assert!(blocked.is_empty());
    store.with_uow(|uow| blocklist::add(uow, &At(NOW), acme, "Ann@Example.com", BlocklistType::Blocked)).unwrap();
    assert_eq!(status(&store), RespondentStatus::Blocklisted);
    let again = store.with_uow(|uow| {
        Ok(uow.insert_blocklist(acme, "ann@example.com", "ann@example.com", BlocklistType::Blocked, NOW)?)
    });
    assert_eq!(again.unwrap(), None, "a contact is on the list once");
}

#[test]
fn labels_are_unique_by_name_within_their_sendout() {
    use crate::distribution::{LabelDraft, LabelType};
    let store = MemoryStore::new();
    let (acme, other, _, sendout) = distribution(&store);
    let draft = LabelDraft::new("Office", LabelType::Text).unwrap();
    let label = store.with_uow(|uow| Ok(uow.insert_label(acme, sendout, &draft, NOW)?)).unwrap();
    let twice = store.with_uow(|uow| Ok(uow.insert_label(acme, sendout, &draft, NOW)?));
    assert!(matches!(twice, Err(DomainError::Repo(RepoError::Duplicate { .. }))), "{twice:?}");
    let theirs = store.with_uow(|uow| Ok(uow.insert_label(other, sendout, &draft, NOW)?));
    assert!(theirs.is_err(), "another account's sendout takes no label");
    assert_eq!(store.with_uow(|uow| Ok(uow.background_label_ids(acme)?)).unwrap(), [label.id]);
    assert!(store.with_uow(|uow| Ok(uow.background_label_ids(other)?)).unwrap().is_empty());
}
