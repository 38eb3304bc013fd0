//! An erasure's patterns on PostgreSQL's own regular expressions: kept `Idempotency-Key` answers that hold the
//! contact in any case (non-ASCII letters and their Unicode look-alikes included, bytes that are not UTF-8 read
//! without error) become erased, and only the erasing account's; a login identifier is found only as a whole JSON
//! string; the text pattern redacts a relay's reply. What the whole erasure reaches is scanned in the black-box
//! suite (tests/system/erasure_reach.rs).

use canvass_domain::clock::Clock;
use canvass_domain::governance::{ContactPatterns, ERASED_MARK};
use canvass_domain::idempotency::{Claim, Fingerprint, IdempotencyKey, KeptResponse};
use canvass_domain::ports::StoreExt;
use canvass_domain::use_cases::{erasure, idempotency};
use canvass_domain::AccountId;
use canvass_postgres::PgStore;
use canvass_testdb::TestDatabase;
use diesel::sql_types::Text;
use diesel::{QueryableByName, RunQueryDsl};
use time::OffsetDateTime;

use crate::support::account;

struct At(OffsetDateTime);

impl Clock for At {
    fn now(&self) -> OffsetDateTime {
        self.0
    }
}

/// The fingerprint of the request kept under `key`.
fn request(key: &str) -> Fingerprint {
    Fingerprint::of("POST", "/api/v1/things", "", key.as_bytes())
}

/// Keeps `body` as the answer of a request under `key`.
fn keep(store: &PgStore, account: AccountId, key: &str, body: &[u8]) {
    let (key, fingerprint) = (IdempotencyKey::parse(key).unwrap(), request(key));
    let now = OffsetDateTime::now_utc();
    let Claim::Run(claimed) =
        store.with_uow(|uow| idempotency::claim(uow, &At(now), account, &key, &fingerprint)).unwrap()
    else {
        panic!("a new key runs")
    };
    let kept = KeptResponse { status: 201, content_type: Some("application/json".into()), body: body.to_vec() };
    assert!(store.with_uow(|uow| idempotency::complete(uow, account, &key, claimed, &kept)).unwrap());
}

/// What a repeat of the request kept under `key` gets now.
fn repeat(store: &PgStore, account: AccountId, key: &str) -> Claim {
    let (idempotency_key, fingerprint) = (IdempotencyKey::parse(key).unwrap(), request(key));
    let now = OffsetDateTime::now_utc();
    store.with_uow(|uow| idempotency::claim(uow, &At(now), account, &idempotency_key, &fingerprint)).unwrap()
}

#[test]
fn kept_answers_holding_the_contact_in_any_case_are_erased_in_the_erasing_account_only() {
    let db = TestDatabase::new();
    let store = db.store();
    let acme = account(&store, "Acme", "owner@acme.example");
    let globex = account(&store, "Globex", "owner@globex.example");
    let holding: [(&str, &[u8]); 4] = [
        ("as-written", "{\"contactDetails\":\"\u{c5}se@Eksempel.no\"}".as_bytes()),
        ("upper-case", "{\"contactDetails\":\"\u{c5}SE@EKSEMPEL.NO\"}".as_bytes()),
        ("angstrom-sign", "{\"reason\":\"550 <\u{212b}se@eksempel.no>: unknown\"}".as_bytes()),
        (
            "in-a-list",
            "[{\"contactDetails\":\"ola@example.no\"},{\"contactDetails\":\"\u{e5}se@eksempel.no\"}]".as_bytes(),
        ),
    ];
    let not_holding: [(&str, &[u8]); 3] = [
        ("another-person", b"{\"contactDetails\":\"ase@eksempel.no\"}"),
        ("not-utf-8", b"\xff\xfe{\"x\":1}"),
        ("nobody", b"{\"recorded\":1}"),
    ];
    for (key, body) in holding.iter().chain(&not_holding) {
        keep(&store, acme, key, body);
    }
    keep(&store, globex, "as-written", holding[0].1);

    store.with_uow(|uow| erasure::erase_person(uow, acme, "\u{e5}se@eksempel.NO", false)).unwrap();

    for (key, _) in holding {
        assert_eq!(repeat(&store, acme, key), Claim::Erased, "{key}");
    }
    for (key, body) in not_holding {
        assert!(matches!(repeat(&store, acme, key), Claim::Replay(kept) if kept.body == body), "{key}");
    }
    assert!(matches!(repeat(&store, globex, "as-written"), Claim::Replay(_)), "another account's keys are its own");
}

#[test]
fn a_login_identifier_is_found_only_as_a_whole_json_string() {
    let db = TestDatabase::new();
    let store = db.store();
    let acme = account(&store, "Acme", "owner@acme.example");
    keep(&store, acme, "the-person", b"{\"respondentId\":3,\"contactDetails\":\"7\"}");
    keep(&store, acme, "a-number", b"{\"respondentId\":7,\"count\":7}");
    keep(&store, acme, "in-words", b"{\"name\":\"Survey 7\"}");
    keep(&store, acme, "quoted", br#"{"contactDetails":"say \"hi\\"}"#);

    store.with_uow(|uow| erasure::erase_person(uow, acme, "7", false)).unwrap();
    store.with_uow(|uow| erasure::erase_person(uow, acme, "say \"hi\\", false)).unwrap();

    assert_eq!(repeat(&store, acme, "the-person"), Claim::Erased);
    assert_eq!(repeat(&store, acme, "quoted"), Claim::Erased, "quotes and backslashes as JSON escapes them");
    assert!(matches!(repeat(&store, acme, "a-number"), Claim::Replay(_)));
    assert!(matches!(repeat(&store, acme, "in-words"), Claim::Replay(_)));
}

#[derive(QueryableByName)]
struct Redacted {
    #[diesel(sql_type = Text)]
    text: String,
}

#[test]
fn the_text_pattern_redacts_every_case_of_an_address_in_a_relays_reply() {
    let db = TestDatabase::new();
    let mut conn = db.connect();
    let mut redact = |text: &str, contact: &str| -> String {
        let patterns = ContactPatterns::of(contact);
        let row: Redacted = diesel::sql_query("SELECT regexp_replace($1, $2, $3, 'g') AS text")
            .bind::<Text, _>(text)
            .bind::<Text, _>(patterns.text_pattern().unwrap())
            .bind::<Text, _>(ERASED_MARK)
            .get_result(&mut conn)
            .unwrap();
        row.text
    };
    let reply =
        "550 5.1.1 <\u{c5}SE.Berg@Eksempel.no>: unknown; was \u{e5}se.berg@eksempel.no; not ase.berg@eksempel.no";
    assert_eq!(
        redact(reply, "\u{e5}se.berg@EKSEMPEL.no"),
        "550 5.1.1 <[erased]>: unknown; was [erased]; not ase.berg@eksempel.no"
    );
    assert_eq!(redact("400 invalid To +4791234567.", "+4791234567"), "400 invalid To [erased].");
    assert_eq!(redact("a.b+c@x.no", "A.B+C@X.NO"), "[erased]", "dots and plus signs are literal");
    assert_eq!(redact("aXb+c@x.no", "a.b+c@x.no"), "aXb+c@x.no");
}
