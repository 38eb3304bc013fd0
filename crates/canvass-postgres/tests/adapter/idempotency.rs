//! Idempotency keys in the store, with a fixed clock: a claim runs, is in use, replays its kept response or
//! mismatches another request; a key expires after 24 hours and an abandoned claim after its lease; the purge deletes
//! every account's expired keys in batches and keeps live ones. What a client sees of them over HTTP is in the
//! black-box suite (tests/api/platform/idempotency.rs).

use canvass_domain::clock::Clock;
use canvass_domain::idempotency::{Claim, Fingerprint, IdempotencyKey, KeptResponse, KEPT_FOR, LEASE};
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::idempotency;
use canvass_domain::AccountId;
use canvass_testdb::TestDatabase;
use time::OffsetDateTime;

use crate::support::account;

/// A clock that reads a fixed instant.
struct At(OffsetDateTime);

impl Clock for At {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}

#[test]
fn the_store_expires_keys_after_24_hours_and_purges_them() {
    let db = TestDatabase::new();
    let store = db.store();
    let account = account(&store, "Acme", "owner@acme.example");
    let key = IdempotencyKey::parse("nightly").unwrap();
    let request = Fingerprint::of("POST", "/api/v1/surveys", "", b"{}");
    let start = time::macros::datetime!(2020-11-25 09:00:00.123456 UTC);
    let claim = |at: OffsetDateTime, fingerprint: Fingerprint| {
        let key = key.clone();
        store.with_uow(move |uow| idempotency::claim(uow, &At(at), account, &key, &fingerprint)).unwrap()
    };
    let Claim::Run(claimed) = claim(start, request) else { panic!("the first claim runs") };
    assert_eq!(claim(start, request), Claim::InUse);
    let kept = KeptResponse { status: 201, content_type: Some("application/json".into()), body: b"{\"a\":1}".to_vec() };
    assert!(store.with_uow(|uow| idempotency::complete(uow, account, &key, claimed, &kept)).unwrap());
    let almost = start + KEPT_FOR - time::Duration::microseconds(1);
    assert_eq!(claim(almost, request), Claim::Replay(kept.clone()));
    assert_eq!(claim(almost, Fingerprint::of("POST", "/api/v1/surveys", "", b"[]")), Claim::Mismatch);
    assert_eq!(store.with_uow(|uow| idempotency::purge(uow, almost)).unwrap(), 0);
    // At 24 hours the row counts as absent: a new request takes it over, even with another body.
    let later = start + KEPT_FOR;
    let Claim::Run(_abandoned) = claim(later, Fingerprint::of("POST", "/p", "", b"")) else { panic!("expired") };
    // Its process dies: the running claim is abandoned after the lease, then taken over.
    assert_eq!(claim(later + LEASE - time::Duration::seconds(1), request), Claim::Mismatch);
    assert!(matches!(claim(later + LEASE, request), Claim::Run(_)), "an abandoned claim is taken over");
    assert_eq!(store.with_uow(|uow| idempotency::purge(uow, later + LEASE)).unwrap(), 0);
    assert_eq!(store.with_uow(|uow| idempotency::purge(uow, later + LEASE + KEPT_FOR)).unwrap(), 1);
    assert!(store.with_uow(|uow| idempotency::purge(uow, later + LEASE + KEPT_FOR)).unwrap() == 0);
}

#[test]
fn the_purge_deletes_every_accounts_expired_keys_in_batches_and_keeps_live_ones() {
    let db = TestDatabase::new();
    let store = db.store();
    let accounts = [account(&store, "Acme", "owner@acme.example"), account(&store, "Other", "owner@other.example")];
    let request = Fingerprint::of("POST", "/api/v1/surveys", "", b"{}");
    let start = time::macros::datetime!(2020-11-25 09:00:00 UTC);
    let claim = |account: AccountId, name: &str, at: OffsetDateTime| {
        let key = IdempotencyKey::parse(name).unwrap();
        store.with_uow(move |uow| idempotency::claim(uow, &At(at), account, &key, &request)).unwrap()
    };
    for name in ["a1", "a2", "a3"] {
        assert!(matches!(claim(accounts[0], name, start), Claim::Run(_)));
    }
    for name in ["b1", "b2"] {
        assert!(matches!(claim(accounts[1], name, start), Claim::Run(_)));
    }
    let fresh = start + time::Duration::hours(1);
    assert!(matches!(claim(accounts[0], "live", fresh), Claim::Run(_)));
    // As the purge sees it at `start + KEPT_FOR`: the keys claimed at `start` have expired, the live one has not.
    let expired = start;
    let batch = |limit: usize| store.with_uow(|uow| Ok(uow.purge_idempotency_keys(expired, limit)?)).unwrap();
    assert_eq!(batch(4), 4, "a batch spans accounts up to its limit");
    assert_eq!(batch(4), 1);
    assert_eq!(batch(4), 0);
    assert_eq!(claim(accounts[0], "live", fresh), Claim::InUse, "a live key of a purged account stays");
    assert!(matches!(claim(accounts[1], "b1", fresh), Claim::Run(_)), "a purged key is claimed anew");
}
