//! Authentication: [`authenticate`] reads `X-API-KEY` or `Authorization: Bearer` and finds the caller in the key
//! cache or, on a miss, in the database. The API guard (`api_guard.rs`) runs it for every `/api` request before
//! any extractor reads the body, and leaves the caller in the request's extensions, where the [`Authenticated`]
//! extractor finds it.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::http::header::HeaderMap;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use canvass_domain::account::{is_well_formed_key, Caller};
use canvass_domain::use_cases::accounts;
use canvass_domain::AccountId;
use sha2::{Digest, Sha256};

use crate::blocking;
use crate::middleware::key_limits::KeyDigest;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// The authenticated caller of a request.
#[derive(Debug, Clone, Copy)]
pub struct Authenticated(pub Caller);

impl Authenticated {
    /// The caller's account, which scopes everything the request reads or changes.
    pub fn account(&self) -> AccountId {
        self.0.account_id
    }
}

fn unauthorized(detail: &str) -> Problem {
    Problem::new(ProblemKind::Unauthorized, detail)
}

/// The key a request presents, from `X-API-KEY` or `Authorization: Bearer`.
pub fn presented_key(headers: &HeaderMap) -> Option<String> {
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(key.trim().to_owned());
    }
    let authorization = headers.get(actix_web::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = authorization.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim().to_owned())
}

/// Finds the caller of a presented key: a missing key, or one that cannot be a Canvass key (`cvs_` and 64
/// lowercase hex digits), is refused without touching the database; others are looked up in the cache, then in
/// one blocking hop. Returns the caller and the key's digest (what rate limits count by).
pub async fn authenticate(state: &AppState, key: Option<String>) -> Result<(Caller, KeyDigest), Problem> {
    let key = key.ok_or_else(|| unauthorized("send your API key as X-API-KEY or Authorization: Bearer"))?;
    if !is_well_formed_key(&key) {
        return Err(unauthorized("the API key is unknown or revoked"));
    }
    let digest: KeyDigest = Sha256::digest(key.as_bytes()).into();
    let caller = match state.keys.get(&digest) {
        Some(cached) => cached,
        None => {
            let found = blocking::run(state, move |uow, clock| accounts::authenticate(uow, clock, &key)).await?;
            state.keys.insert(digest, found);
            found
        }
    };
    caller.map(|caller| (caller, digest)).ok_or_else(|| unauthorized("the API key is unknown or revoked"))
}

impl FromRequest for Authenticated {
    type Error = Problem;
    type Future = Ready<Result<Self, Problem>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let caller = req.extensions().get::<Caller>().copied();
        ready(
            caller
                .map(Authenticated)
                .ok_or_else(|| unauthorized("send your API key as X-API-KEY or Authorization: Bearer")),
        )
    }
}
