//! Idempotent requests: a client sends an `Idempotency-Key` with a POST, the first request with that key is
//! carried out and its answer kept for [`KEPT_FOR`], per account; a repeat of the same request answers the kept
//! answer again and changes nothing. The rules here decide what a repeat gets; `use_cases::idempotency` applies
//! them against an [`IdempotencyRepository`](ports::IdempotencyRepository).

pub mod ports;

use std::fmt;

use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use crate::error::FieldError;

/// The request header that carries the key, as errors name it.
pub const KEY_HEADER: &str = "Idempotency-Key";

/// The longest key, in characters.
pub const MAX_KEY_LENGTH: usize = 255;

/// How long a key's answer is kept: a row created this long ago or longer counts as absent.
pub const KEPT_FOR: Duration = Duration::hours(24);

/// How long a claim may run before it counts as abandoned (its process died between claim and completion): far
/// longer than any request can run (the 5 s wait for a connection plus statements of at most `STATEMENT_TIMEOUT`,
/// 30 s by default, within one use case).
pub const LEASE: Duration = Duration::minutes(10);

/// A checked key: 1 to [`MAX_KEY_LENGTH`] visible ASCII characters (0x21 to 0x7E). Its `Debug` shows no
/// characters of it, since a client may put anything in it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// Checks a key as the header carried it.
    ///
    /// ```
    /// use canvass_domain::idempotency::IdempotencyKey;
    ///
    /// assert_eq!(IdempotencyKey::parse("order-7").unwrap().as_str(), "order-7");
    /// assert_eq!(IdempotencyKey::parse("").unwrap_err().field, "Idempotency-Key");
    /// assert!(IdempotencyKey::parse("two words").is_err());
    /// assert!(IdempotencyKey::parse("caf\u{e9}").is_err());
    /// assert!(IdempotencyKey::parse(&"k".repeat(255)).is_ok());
    /// assert!(IdempotencyKey::parse(&"k".repeat(256)).is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Self, FieldError> {
        let visible = text.bytes().all(|byte| (0x21..=0x7E).contains(&byte));
        if (1..=MAX_KEY_LENGTH).contains(&text.len()) && visible {
            Ok(Self(text.to_owned()))
        } else {
            Err(FieldError::new(
                KEY_HEADER,
                format!("must be 1 to {MAX_KEY_LENGTH} visible ASCII characters (0x21 to 0x7E)"),
            ))
        }
    }

    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "IdempotencyKey({} chars)", self.0.len())
    }
}

/// What makes two requests "the same request": SHA-256 over the method, the path (with its version prefix), the
/// query string and the body bytes, each prefixed by its length so that no two different requests run together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// The fingerprint of one request.
    pub fn of(method: &str, path: &str, query: &str, body: &[u8]) -> Self {
        let mut hasher = Sha256::new();
        for part in [method.as_bytes(), path.as_bytes(), query.as_bytes(), body] {
            hasher.update((part.len() as u64).to_be_bytes());
            hasher.update(part);
        }
        Self(hasher.finalize().into())
    }

    /// A stored fingerprint; `None` unless it is 32 bytes long.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        bytes.try_into().ok().map(Self)
    }

    /// The digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

/// A kept answer: status, content type and body, replayed as they were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptResponse {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` it was served with, if any.
    pub content_type: Option<String>,
    /// The body bytes.
    pub body: Vec<u8>,
}

/// Where the request that claimed a key is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyState {
    /// Claimed, its answer not yet kept.
    Running,
    /// Carried out; its answer is kept.
    Done(KeptResponse),
    /// Carried out, and its answer erased since: it held a person an erasure took away
    /// (`use_cases::erasure`). The key stays, so that a repeat does not carry the request out again (which would
    /// bring the person back); it answers [`Claim::Erased`] until the key expires.
    Erased,
}

/// A stored key of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// The fingerprint of the request that claimed it.
    pub fingerprint: Fingerprint,
    /// Running or done.
    pub state: KeyState,
    /// When it was claimed.
    pub created_at: OffsetDateTime,
}

/// The instants before which stored keys count as absent, as of one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Staleness {
    /// A key created at or before this instant has expired, whatever its state.
    pub expired_at_or_before: OffsetDateTime,
    /// A running key created at or before this instant was abandoned.
    pub abandoned_at_or_before: OffsetDateTime,
}

impl Staleness {
    /// The limits as of `now`.
    pub fn at(now: OffsetDateTime) -> Self {
        Self { expired_at_or_before: now - KEPT_FOR, abandoned_at_or_before: now - LEASE }
    }
}

impl KeyRecord {
    /// Whether the row counts as absent at `now`: expired ([`KEPT_FOR`]) or a claim abandoned ([`LEASE`]). A new
    /// request with the key takes such a row over.
    pub fn counts_as_absent(&self, now: OffsetDateTime) -> bool {
        let limits = Staleness::at(now);
        self.created_at <= limits.expired_at_or_before
            || (self.state == KeyState::Running && self.created_at <= limits.abandoned_at_or_before)
    }

    /// What a request with `fingerprint` gets from a key this row holds (one that does not count as absent): another
    /// request is a mismatch whatever the state, the same one is told to wait while it runs, gets the kept
    /// answer once done, and is told the answer is gone once an erasure took it.
    pub fn answer_to(self, fingerprint: &Fingerprint) -> Claim {
        if self.fingerprint != *fingerprint {
            return Claim::Mismatch;
        }
        match self.state {
            KeyState::Running => Claim::InUse,
            KeyState::Done(kept) => Claim::Replay(kept),
            KeyState::Erased => Claim::Erased,
        }
    }
}

/// A claim that holds a key: the instant it was made, which names it (to the microsecond, the precision stores
/// keep), so that completing it never touches a row another request took over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claimed {
    /// When the claim was made.
    pub at: OffsetDateTime,
}

/// What a request with a key is to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is this request's: carry it out, then complete the claim.
    Run(Claimed),
    /// The same request was carried out: answer what it answered.
    Replay(KeptResponse),
    /// The same request is still running: 409.
    InUse,
    /// The key was used for another request: 422.
    Mismatch,
    /// The same request was carried out, but an erasure deleted its answer (it held the erased person): 410, and
    /// nothing runs.
    Erased,
}

/// Whether an answer with `status` is kept. Server errors and "try again" answers (5xx, including 503, and 429)
/// are not: the key is released so that a retry runs again.
pub fn keeps(status: u16) -> bool {
    status < 500 && status != 429
}

/// `instant` cut to whole microseconds, the precision a store keeps, so a claim's instant reads back equal.
pub fn to_micros(instant: OffsetDateTime) -> OffsetDateTime {
    instant.replace_nanosecond(instant.nanosecond() / 1_000 * 1_000).unwrap_or(instant)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-11-25 09:00 UTC);

    fn done(fingerprint: Fingerprint, created_at: OffsetDateTime) -> KeyRecord {
        let kept = KeptResponse { status: 201, content_type: Some("application/json".into()), body: b"{}".to_vec() };
        KeyRecord { fingerprint, state: KeyState::Done(kept), created_at }
    }

    #[test]
    fn the_fingerprint_covers_method_path_query_and_body() {
        let base = Fingerprint::of("POST", "/api/v1/surveys", "", b"{\"name\":\"a\"}");
        assert_eq!(base, Fingerprint::of("POST", "/api/v1/surveys", "", b"{\"name\":\"a\"}"));
        assert_ne!(base, Fingerprint::of("POST", "/api/v1.1/surveys", "", b"{\"name\":\"a\"}"));
        assert_ne!(base, Fingerprint::of("POST", "/api/v1/surveys", "x=1", b"{\"name\":\"a\"}"));
        assert_ne!(base, Fingerprint::of("POST", "/api/v1/surveys", "", b"{\"name\":\"b\"}"));
        assert_ne!(base, Fingerprint::of("PUT", "/api/v1/surveys", "", b"{\"name\":\"a\"}"));
        // Lengths separate the parts: moving bytes from the query into the body is another request.
        assert_ne!(Fingerprint::of("POST", "/p", "ab", b"c"), Fingerprint::of("POST", "/p", "a", b"bc"));
        assert_eq!(Fingerprint::from_bytes(base.as_bytes()), Some(base));
        assert_eq!(Fingerprint::from_bytes(&[0; 31]), None);
    }

    #[test]
    fn the_same_request_replays_and_another_is_a_mismatch() {
        let mine = Fingerprint::of("POST", "/api/v1/surveys", "", b"{}");
        let other = Fingerprint::of("POST", "/api/v1/surveys", "", b"{ }");
        let record = done(mine, NOW);
        assert!(matches!(record.clone().answer_to(&mine), Claim::Replay(kept) if kept.status == 201));
        assert_eq!(record.answer_to(&other), Claim::Mismatch);
        let running = KeyRecord { fingerprint: mine, state: KeyState::Running, created_at: NOW };
        assert_eq!(running.clone().answer_to(&mine), Claim::InUse);
        assert_eq!(running.answer_to(&other), Claim::Mismatch, "another body is 422 even while the first runs");
    }

    #[test]
    fn an_erased_answer_is_gone_for_the_same_request_and_a_mismatch_for_another() {
        let mine = Fingerprint::of("POST", "/api/v1/surveys/1/sendouts/2/respondents", "", b"{}");
        let erased = KeyRecord { fingerprint: mine, state: KeyState::Erased, created_at: NOW };
        assert_eq!(erased.clone().answer_to(&mine), Claim::Erased, "the request is not carried out again");
        assert_eq!(erased.clone().answer_to(&Fingerprint::of("POST", "/p", "", b"")), Claim::Mismatch);
        assert!(!erased.counts_as_absent(NOW + LEASE), "an erased key is no abandoned claim");
        assert!(erased.counts_as_absent(NOW + KEPT_FOR), "it expires as a kept answer does");
    }

    #[test]
    fn a_key_expires_at_24_hours() {
        let record = done(Fingerprint::of("POST", "/p", "", b""), NOW);
        assert!(!record.counts_as_absent(NOW + Duration::hours(24) - Duration::microseconds(1)));
        assert!(record.counts_as_absent(NOW + Duration::hours(24)));
    }

    #[test]
    fn a_running_claim_is_abandoned_after_its_lease() {
        let running = KeyRecord {
            fingerprint: Fingerprint::of("POST", "/p", "", b""),
            state: KeyState::Running,
            created_at: NOW,
        };
        assert!(!running.counts_as_absent(NOW + LEASE - Duration::seconds(1)));
        assert!(running.counts_as_absent(NOW + LEASE));
        let finished = done(running.fingerprint, NOW);
        assert!(!finished.counts_as_absent(NOW + LEASE), "a kept answer lasts its 24 hours");
    }

    #[test]
    fn server_errors_and_try_again_answers_are_not_kept() {
        for status in [200, 201, 204, 400, 404, 409, 413, 415, 422] {
            assert!(keeps(status), "{status}");
        }
        for status in [429, 500, 502, 503, 504] {
            assert!(!keeps(status), "{status}");
        }
    }

    #[test]
    fn claim_instants_are_cut_to_microseconds() {
        let precise = NOW + Duration::nanoseconds(1_234_567);
        assert_eq!(to_micros(precise), NOW + Duration::microseconds(1_234));
    }
}
