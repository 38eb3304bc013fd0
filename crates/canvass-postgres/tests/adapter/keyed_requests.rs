//! A keyed request and its kept answer in one PostgreSQL transaction (`idempotency::run_and_complete`): the use
//! case's own transactions become savepoints, a refused request is kept while what it wrote rolls back (even after
//! a statement failed inside it), and a kept answer that cannot be written takes the change down with it. What a
//! client sees of it over HTTP is in the black-box suite (tests/api/platform/idempotency_once.rs and
//! tests/system/idempotency_faults.rs).

use canvass_domain::clock::{Clock, SystemClock};
use canvass_domain::distribution::{LabelDraft, LabelType};
use canvass_domain::idempotency::{Claim, Claimed, Fingerprint, IdempotencyKey, KeptResponse};
use canvass_domain::ids::SendoutId;
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::categories;
use canvass_domain::use_cases::idempotency::{self, Completion, ServedAnswer};
use canvass_domain::{AccountId, DomainError};
use canvass_postgres::PgStore;
use canvass_testdb::TestDatabase;
use diesel::RunQueryDsl;

use crate::support::account;

const REQUEST: &[u8] = b"{\"name\":\"Staff\"}";

fn claim(store: &PgStore, account: AccountId, key: &IdempotencyKey) -> Claim {
    let fingerprint = Fingerprint::of("POST", "/api/v1/accounts/categories", "", REQUEST);
    store.with_uow(|uow| idempotency::claim(uow, &SystemClock, account, key, &fingerprint)).unwrap()
}

fn claimed(store: &PgStore, account: AccountId, key: &IdempotencyKey) -> Claimed {
    match claim(store, account, key) {
        Claim::Run(claimed) => claimed,
        other => panic!("expected to run, got {other:?}"),
    }
}

/// The answer a transport would serve: the category's name as 201, or the error's status.
fn served<T>(outcome: &Result<T, DomainError>) -> ServedAnswer {
    let status = match outcome {
        Ok(_) => 201,
        Err(DomainError::NotFound(_)) => 404,
        Err(DomainError::Conflict { .. }) => 409,
        Err(DomainError::Invalid(_)) => 400,
        Err(DomainError::Forbidden(_)) => 403,
        Err(DomainError::Repo(_)) => 500,
    };
    ServedAnswer::Keepable(KeptResponse { status, content_type: None, body: status.to_string().into_bytes() })
}

fn category_names(store: &PgStore, account: AccountId) -> Vec<String> {
    let listed = store.with_uow(|uow| categories::list(uow, account)).unwrap();
    listed.into_iter().map(|category| category.name).collect()
}

#[test]
fn a_change_commits_with_its_kept_answer_and_a_refusal_is_kept_while_its_writes_roll_back() {
    let db = TestDatabase::new();
    let store = db.store();
    let account = account(&store, "Acme", "owner@acme.example");
    let key = IdempotencyKey::parse("add-staff").unwrap();
    let claimed_first = claimed(&store, account, &key);
    let (_, completion) = store
        .with_uow(|uow| {
            idempotency::run_and_complete(
                uow,
                account,
                &key,
                claimed_first,
                |uow| categories::create(uow, &SystemClock, account, "Staff"),
                served,
            )
        })
        .unwrap();
    assert_eq!(completion, Completion::Kept);
    assert_eq!(category_names(&store, account), ["Staff"]);
    assert!(matches!(claim(&store, account, &key), Claim::Replay(kept) if kept.status == 201));

    // A request that writes, then runs a statement that fails (a label for a sendout that does not exist), and is
    // refused: what it wrote rolls back, and its 404 is kept in the same transaction.
    let refused = IdempotencyKey::parse("refused").unwrap();
    let claimed_refused = claimed(&store, account, &refused);
    let (_, completion) = store
        .with_uow(|uow| {
            idempotency::run_and_complete(
                uow,
                account,
                &refused,
                claimed_refused,
                |uow| {
                    categories::create(uow, &SystemClock, account, "Temporary")?;
                    let draft =
                        LabelDraft::new("Department", LabelType::Text).map_err(|e| DomainError::Invalid(vec![e]))?;
                    uow.insert_label(account, SendoutId::new(4242), &draft, SystemClock.now())
                        .map_err(|_| DomainError::NotFound(canvass_domain::Resource::Sendout))
                },
                served,
            )
        })
        .unwrap();
    assert_eq!(completion, Completion::Kept);
    assert_eq!(category_names(&store, account), ["Staff"], "the refused request's write rolled back");
    assert!(matches!(claim(&store, account, &refused), Claim::Replay(kept) if kept.status == 404));
}

#[test]
fn a_kept_answer_that_cannot_be_written_takes_the_change_down_with_it() {
    let db = TestDatabase::new();
    let store = db.store();
    let account = account(&store, "Acme", "owner@acme.example");
    // The second write of a keyed request fails: the database refuses to mark a key done (a constraint, which
    // Citus propagates to its shards as it does the schema's own).
    diesel::sql_query(
        "ALTER TABLE idempotency_keys ADD CONSTRAINT refuse_kept_answers CHECK (state <> 'done') NOT VALID",
    )
    .execute(&mut db.connect())
    .unwrap();
    let key = IdempotencyKey::parse("add-staff").unwrap();
    let claimed = claimed(&store, account, &key);
    let outcome = store.with_uow(|uow| {
        idempotency::run_and_complete(
            uow,
            account,
            &key,
            claimed,
            |uow| categories::create(uow, &SystemClock, account, "Staff"),
            served,
        )
    });
    assert!(outcome.is_err(), "{outcome:?}");
    assert!(category_names(&store, account).is_empty(), "the change rolled back with its answer");
    assert_eq!(claim(&store, account, &key), Claim::InUse, "the claim still runs until it is released");
    assert!(store.with_uow(|uow| idempotency::release(uow, account, &key, claimed)).unwrap());
    assert!(matches!(claim(&store, account, &key), Claim::Run(_)), "a retry runs once released");
}
