//! Authentication: the [`Authenticated`] extractor reads `X-API-KEY` or `Authorization: Bearer`, and finds the
//! caller in the key cache or, on a miss, in the database.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{web, FromRequest, HttpRequest};
use canvass_domain::account::Caller;
use canvass_domain::use_cases::accounts;
use canvass_domain::AccountId;
use sha2::{Digest, Sha256};

use crate::blocking;
use crate::problem::Problem;
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
    Problem::new(StatusCode::UNAUTHORIZED, "unauthorized", detail)
}

/// The key a request presents, from `X-API-KEY` or `Authorization: Bearer`.
fn presented_key(req: &HttpRequest) -> Option<String> {
    let headers = req.headers();
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(key.trim().to_owned());
    }
    let authorization = headers.get(actix_web::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = authorization.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim().to_owned())
}

impl FromRequest for Authenticated {
    type Error = Problem;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Problem>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let key = presented_key(req);
        Box::pin(async move {
            let state = state.ok_or_else(|| Problem::internal(&"application state missing"))?;
            let key = key.ok_or_else(|| unauthorized("send your API key as X-API-KEY or Authorization: Bearer"))?;
            let digest: [u8; 32] = Sha256::digest(key.as_bytes()).into();
            let caller = match state.keys.get(&digest) {
                Some(cached) => cached,
                None => {
                    let found = blocking::run(&state, move |uow, _| accounts::authenticate(uow, &key)).await?;
                    state.keys.insert(digest, found);
                    found
                }
            };
            caller.map(Authenticated).ok_or_else(|| unauthorized("the API key is unknown or revoked"))
        })
    }
}
