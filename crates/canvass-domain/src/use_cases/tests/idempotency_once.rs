//! A keyed request and its kept answer in one transaction (`run_and_complete`): a success commits with its answer,
//! a client error is kept while its writes roll back, a server error rolls back everything, a claim taken over
//! changes nothing, and a completion that fails takes the change down with it.

use time::OffsetDateTime;

use super::seeds::{At, NOW};
use crate::error::{DomainError, RepoError};
use crate::idempotency::ports::IdempotencyRepository;
use crate::idempotency::{
    Claim, Claimed, Fingerprint, IdempotencyKey, KeptResponse, KeyRecord, KeyState, Staleness, LEASE,
};
use crate::ids::AccountId;
use crate::ports::{RepoResult, Transactional};
use crate::testing::Memory;
use crate::use_cases::categories;
use crate::use_cases::idempotency::{claim, run_and_complete, Completion, ServedAnswer};

const ACCOUNT: AccountId = AccountId::new(1);

fn key() -> IdempotencyKey {
    IdempotencyKey::parse("add-staff-category").unwrap()
}

fn fingerprint() -> Fingerprint {
    Fingerprint::of("POST", "/api/v1/accounts/categories", "", b"{\"name\":\"Staff\"}")
}

fn claimed_at(repo: &mut (impl IdempotencyRepository + ?Sized), at: OffsetDateTime) -> Claimed {
    match claim(repo, &At(at), ACCOUNT, &key(), &fingerprint()).unwrap() {
        Claim::Run(claimed) => claimed,
        other => panic!("expected to run, got {other:?}"),
    }
}

/// The answer a transport would serve for a use case's outcome: 201 for a category, the error's status otherwise.
fn served(outcome: &Result<String, u16>) -> ServedAnswer {
    let (status, body) = match outcome {
        Ok(name) => (201, name.clone()),
        Err(status) => (*status, format!("error {status}")),
    };
    ServedAnswer::Keepable(KeptResponse { status, content_type: Some("application/json".into()), body: body.into() })
}

/// Adds a category (a write outside any transaction of its own), then answers `refusal` if there is one.
fn add_category(uow: &mut Memory, refusal: Option<u16>) -> Result<String, u16> {
    let category = categories::create(uow, &At(NOW), ACCOUNT, "Staff").map_err(|_| 500_u16)?;
    match refusal {
        Some(status) => Err(status),
        None => Ok(category.name),
    }
}

fn record(memory: &mut Memory) -> Option<KeyRecord> {
    memory.find_idempotency_key(ACCOUNT, &key()).unwrap()
}

#[test]
fn a_change_and_its_kept_answer_commit_together() {
    let mut memory = Memory::default();
    let claimed = claimed_at(&mut memory, NOW);
    let (answer, completion) =
        run_and_complete(&mut memory, ACCOUNT, &key(), claimed, |uow| add_category(uow, None), served).unwrap();
    assert_eq!((answer, completion), (Ok("Staff".to_owned()), Completion::Kept));
    assert_eq!(memory.state.categories.len(), 1);
    let kept = match record(&mut memory).map(|record| record.state) {
        Some(KeyState::Done(kept)) => kept,
        other => panic!("expected a kept answer, got {other:?}"),
    };
    assert_eq!((kept.status, kept.body.as_slice()), (201, &b"Staff"[..]));
    assert!(memory.transactions.committed >= 2, "the work's savepoint and the transaction");
    assert_eq!(claim(&mut memory, &At(NOW), ACCOUNT, &key(), &fingerprint()).unwrap(), Claim::Replay(kept));
}

#[test]
fn a_client_error_is_kept_and_rolls_back_what_the_request_wrote() {
    let mut memory = Memory::default();
    let claimed = claimed_at(&mut memory, NOW);
    let (answer, completion) =
        run_and_complete(&mut memory, ACCOUNT, &key(), claimed, |uow| add_category(uow, Some(409)), served).unwrap();
    assert_eq!((answer, completion), (Err(409), Completion::Kept));
    assert!(memory.state.categories.is_empty(), "the refused request's write was rolled back");
    assert!(matches!(record(&mut memory).map(|r| r.state), Some(KeyState::Done(kept)) if kept.status == 409));
}

#[test]
fn a_server_error_rolls_back_everything_and_leaves_the_claim_to_release() {
    let mut memory = Memory::default();
    let claimed = claimed_at(&mut memory, NOW);
    let (answer, completion) =
        run_and_complete(&mut memory, ACCOUNT, &key(), claimed, |uow| add_category(uow, Some(500)), served).unwrap();
    assert_eq!((answer, completion), (Err(500), Completion::Undone));
    assert!(!completion.is_settled());
    assert!(memory.state.categories.is_empty());
    assert_eq!(record(&mut memory).map(|r| r.state), Some(KeyState::Running), "the caller releases it");
}

#[test]
fn an_answer_the_transport_cannot_keep_releases_the_key_in_the_same_transaction() {
    let mut memory = Memory::default();
    let claimed = claimed_at(&mut memory, NOW);
    let not_keepable = |_: &Result<String, u16>| ServedAnswer::NotKeepable { status: 201 };
    let (_, completion) =
        run_and_complete(&mut memory, ACCOUNT, &key(), claimed, |uow| add_category(uow, None), not_keepable).unwrap();
    assert_eq!(completion, Completion::Released);
    assert_eq!(memory.state.categories.len(), 1, "the change stands");
    assert_eq!(record(&mut memory), None, "a retry runs again");
}

#[test]
fn a_claim_taken_over_after_its_lease_rolls_back_and_leaves_the_new_claim_alone() {
    let mut memory = Memory::default();
    let abandoned = claimed_at(&mut memory, NOW);
    let taken_over = claimed_at(&mut memory, NOW + LEASE);
    let (_, completion) =
        run_and_complete(&mut memory, ACCOUNT, &key(), abandoned, |uow| add_category(uow, None), served).unwrap();
    assert_eq!(completion, Completion::TakenOver);
    assert!(memory.state.categories.is_empty());
    let record = record(&mut memory).unwrap();
    assert_eq!((record.state, record.created_at), (KeyState::Running, taken_over.at));
}

/// A store whose kept answers cannot be written: the second write of a keyed request fails.
#[derive(Default)]
struct FailingKeep(Memory);

impl Transactional for FailingKeep {
    fn begin(&mut self) -> RepoResult<()> {
        self.0.begin()
    }
    fn commit(&mut self) -> RepoResult<()> {
        self.0.commit()
    }
    fn rollback(&mut self) -> RepoResult<()> {
        self.0.rollback()
    }
}

impl IdempotencyRepository for FailingKeep {
    fn claim_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        fingerprint: &Fingerprint,
        at: OffsetDateTime,
        stale: Staleness,
    ) -> RepoResult<bool> {
        self.0.claim_idempotency_key(account, key, fingerprint, at, stale)
    }
    fn find_idempotency_key(&mut self, account: AccountId, key: &IdempotencyKey) -> RepoResult<Option<KeyRecord>> {
        self.0.find_idempotency_key(account, key)
    }
    fn finish_idempotency_key(
        &mut self,
        _: AccountId,
        _: &IdempotencyKey,
        _: OffsetDateTime,
        _: &KeptResponse,
    ) -> RepoResult<bool> {
        Err(RepoError::Other("the kept answer could not be written".into()))
    }
    fn release_idempotency_key(
        &mut self,
        account: AccountId,
        key: &IdempotencyKey,
        claimed_at: OffsetDateTime,
    ) -> RepoResult<bool> {
        self.0.release_idempotency_key(account, key, claimed_at)
    }
    fn purge_idempotency_keys(&mut self, expired_at_or_before: OffsetDateTime, limit: usize) -> RepoResult<u64> {
        self.0.purge_idempotency_keys(expired_at_or_before, limit)
    }
}

#[test]
fn a_kept_answer_that_cannot_be_written_takes_the_change_down_with_it() {
    let mut store = FailingKeep::default();
    let claimed = claimed_at(&mut store, NOW);
    let outcome = run_and_complete(&mut store, ACCOUNT, &key(), claimed, |uow| add_category(&mut uow.0, None), served);
    assert!(matches!(outcome, Err(DomainError::Repo(RepoError::Other(_)))), "{outcome:?}");
    assert!(store.0.state.categories.is_empty(), "the change rolled back with its answer");
    assert_eq!(record(&mut store.0).map(|r| r.state), Some(KeyState::Running), "the caller releases it");
    assert_eq!(store.0.transactions.rolled_back, 1);
}
