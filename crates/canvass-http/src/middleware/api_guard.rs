//! The guard in front of every `/api` endpoint (except the OpenAPI document): it authenticates the request before
//! any extractor runs, so a missing or wrong key answers 401 whatever the body or its content type, counts the
//! request against the key's rate limit (429 over it), checks the key's permission for the operation
//! (`permissions.rs`: 403 before any id or body is read), hands a keyed POST to `Idempotency-Key` (`idempotency.rs`)
//! with the caller's account as the request's share of the store's lane (`blocking/share.rs`), and writes the
//! `RateLimit-*` headers on the answer. It is wrapped on the `/api` scope (`crate::routes::api_scope`), so it runs
//! for every request routed there, an unknown path under `/api` included, and for no other.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, ResponseError};
use canvass_domain::account::Caller;

use crate::blocking::Share;
use crate::middleware::auth::{authenticate, presented_key};
use crate::middleware::permissions::Operations;
use crate::middleware::request::MatchedRoute;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// Whether the caller may run the operation the request asked: its key has not expired (401), and its role holds
/// the operation's permission and its key may change what the operation changes (403 naming the permission). A
/// request that matched no operation (an unknown path or method) passes on, to be answered 404 or 405.
fn permitted(req: &ServiceRequest, caller: &Caller) -> Result<(), Problem> {
    if let Some(state) = req.app_data::<web::Data<AppState>>() {
        if caller.expired_at(state.clock.now()) {
            return Err(Problem::new(ProblemKind::Unauthorized, "the API key has expired"));
        }
    }
    let extensions = req.extensions();
    let Some(MatchedRoute(template)) = extensions.get::<MatchedRoute>() else { return Ok(()) };
    let Some(operations) = req.app_data::<web::Data<Operations>>() else { return Ok(()) };
    let Some(operation) = operations.find(req.method(), template) else { return Ok(()) };
    caller
        .may(operation.permission, operation.changes)
        .map_err(|refusal| Problem::new(ProblemKind::Forbidden, refusal.detail(caller.role)))
}

/// The middleware: see the module documentation.
pub async fn guard(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        let problem = Problem::internal(&"application state missing");
        return Ok(req.into_response(problem.error_response()));
    };
    let (caller, digest) = match Share::KeyLookup.scope(authenticate(&state, presented_key(req.headers()))).await {
        Ok(found) => found,
        Err(problem) => return Ok(req.into_response(problem.error_response())),
    };
    let standing = state.key_limits.check(&digest);
    if standing.retry_after.is_some() {
        return Ok(req.into_response(standing.too_many_requests()));
    }
    if let Err(problem) = permitted(&req, &caller) {
        let mut response = req.into_response(problem.error_response());
        standing.write(response.headers_mut());
        return Ok(response);
    }
    req.extensions_mut().insert(caller);
    // Everything the request does at the store, its streamed body included, takes the account's turns.
    let mut response = Share::Account(caller.account_id).scope(super::idempotency::layer(req, next)).await?;
    standing.write(response.headers_mut());
    Ok(response)
}
