//! Idempotency keys: claiming, replaying, mismatches, expiry at 24 hours with a fixed clock, release of answers
//! that are not kept, abandoned claims, and the purge.

use time::{Duration, OffsetDateTime};

use super::seeds::{At, NOW};
use crate::idempotency::{Claim, Claimed, Fingerprint, IdempotencyKey, KeptResponse, KeyState, LEASE};
use crate::ids::AccountId;
use crate::testing::Keys;
use crate::use_cases::idempotency::{claim, complete, purge};

const ACCOUNT: AccountId = AccountId::new(1);

fn key() -> IdempotencyKey {
    IdempotencyKey::parse("batch-2026-11-25").unwrap()
}

fn request(body: &str) -> Fingerprint {
    Fingerprint::of("POST", "/api/v1/surveys", "", body.as_bytes())
}

fn answer(status: u16) -> KeptResponse {
    KeptResponse {
        status,
        content_type: Some("application/json".into()),
        body: format!("{{\"s\":{status}}}").into_bytes(),
    }
}

fn claim_at(keys: &mut Keys, at: OffsetDateTime, account: AccountId, fingerprint: &Fingerprint) -> Claim {
    claim(keys, &At(at), account, &key(), fingerprint).unwrap()
}

fn run(claim: Claim) -> Claimed {
    match claim {
        Claim::Run(claimed) => claimed,
        other => panic!("expected to run, got {other:?}"),
    }
}

#[test]
fn the_first_request_runs_a_repeat_waits_then_replays_and_another_body_is_a_mismatch() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    assert_eq!(claim_at(&mut keys, NOW, ACCOUNT, &request("a")), Claim::InUse, "still running");
    assert_eq!(claim_at(&mut keys, NOW, ACCOUNT, &request("b")), Claim::Mismatch);
    assert!(complete(&mut keys, ACCOUNT, &key(), claimed, &answer(201)).unwrap());
    let later = NOW + Duration::hours(1);
    assert_eq!(claim_at(&mut keys, later, ACCOUNT, &request("a")), Claim::Replay(answer(201)));
    assert_eq!(claim_at(&mut keys, later, ACCOUNT, &request("b")), Claim::Mismatch);
}

#[test]
fn a_repeat_of_an_answer_an_erasure_took_is_told_so_and_never_runs_until_the_key_expires() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    complete(&mut keys, ACCOUNT, &key(), claimed, &answer(201)).unwrap();
    // What an erasure leaves of a kept answer that held the person: the key, its fingerprint and its age.
    keys.rows.get_mut(&(ACCOUNT, key().as_str().to_owned())).unwrap().state = KeyState::Erased;
    let later = NOW + Duration::hours(23);
    assert_eq!(claim_at(&mut keys, later, ACCOUNT, &request("a")), Claim::Erased);
    assert_eq!(claim_at(&mut keys, later, ACCOUNT, &request("b")), Claim::Mismatch);
    assert_eq!(claim_at(&mut keys, NOW + LEASE, ACCOUNT, &request("a")), Claim::Erased, "it is no abandoned claim");
    run(claim_at(&mut keys, NOW + Duration::hours(24), ACCOUNT, &request("a")));
}

#[test]
fn keys_are_per_account() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    complete(&mut keys, ACCOUNT, &key(), claimed, &answer(201)).unwrap();
    run(claim_at(&mut keys, NOW, AccountId::new(2), &request("b")));
}

#[test]
fn a_kept_answer_expires_after_24_hours_and_the_key_runs_again() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    complete(&mut keys, ACCOUNT, &key(), claimed, &answer(201)).unwrap();
    let almost = NOW + Duration::hours(24) - Duration::microseconds(1);
    assert_eq!(claim_at(&mut keys, almost, ACCOUNT, &request("a")), Claim::Replay(answer(201)));
    let again = run(claim_at(&mut keys, NOW + Duration::hours(24), ACCOUNT, &request("b")));
    assert_eq!(again.at, NOW + Duration::hours(24), "the expired row was taken over, even for another body");
}

#[test]
fn server_errors_and_try_again_answers_release_the_key() {
    for status in [500, 503, 429] {
        let mut keys = Keys::default();
        let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
        assert!(complete(&mut keys, ACCOUNT, &key(), claimed, &answer(status)).unwrap());
        assert!(keys.rows.is_empty(), "{status} is not kept");
        run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    }
}

#[test]
fn a_client_error_is_kept_and_replayed() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW, ACCOUNT, &request("{}")));
    complete(&mut keys, ACCOUNT, &key(), claimed, &answer(400)).unwrap();
    assert_eq!(claim_at(&mut keys, NOW, ACCOUNT, &request("{}")), Claim::Replay(answer(400)));
}

#[test]
fn an_abandoned_claim_is_taken_over_after_its_lease_and_its_late_completion_changes_nothing() {
    let mut keys = Keys::default();
    let abandoned = run(claim_at(&mut keys, NOW, ACCOUNT, &request("a")));
    let before_lease = NOW + LEASE - Duration::seconds(1);
    assert_eq!(claim_at(&mut keys, before_lease, ACCOUNT, &request("a")), Claim::InUse);
    let taken_over = run(claim_at(&mut keys, NOW + LEASE, ACCOUNT, &request("a")));
    assert!(!complete(&mut keys, ACCOUNT, &key(), abandoned, &answer(201)).unwrap());
    assert!(!complete(&mut keys, ACCOUNT, &key(), abandoned, &answer(500)).unwrap(), "nor releases the new claim");
    assert!(complete(&mut keys, ACCOUNT, &key(), taken_over, &answer(200)).unwrap());
    assert_eq!(claim_at(&mut keys, NOW + LEASE, ACCOUNT, &request("a")), Claim::Replay(answer(200)));
}

#[test]
fn claims_are_made_at_whole_microseconds() {
    let mut keys = Keys::default();
    let claimed = run(claim_at(&mut keys, NOW + Duration::nanoseconds(1_500), ACCOUNT, &request("a")));
    assert_eq!(claimed.at, NOW + Duration::microseconds(1));
}

#[test]
fn the_purge_deletes_expired_keys_of_every_account_only() {
    let mut keys = Keys::default();
    for (account, at) in [(1, NOW), (2, NOW), (3, NOW + Duration::hours(2))] {
        let claimed = run(claim_at(&mut keys, at, AccountId::new(account), &request("a")));
        complete(&mut keys, AccountId::new(account), &key(), claimed, &answer(201)).unwrap();
    }
    assert_eq!(purge(&mut keys, NOW + Duration::hours(24)).unwrap(), 2);
    assert_eq!(keys.rows.len(), 1);
    assert_eq!(purge(&mut keys, NOW + Duration::hours(24)).unwrap(), 0);
}
