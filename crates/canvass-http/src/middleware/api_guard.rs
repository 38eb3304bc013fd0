//! The guard in front of every `/api` endpoint (except the OpenAPI document): it authenticates the request before
//! any extractor runs, so a missing or wrong key answers 401 whatever the body or its content type, counts the
//! request against the key's rate limit (429 over it), checks the key's permission for the operation
//! (`permissions.rs`: 403 before any id or body is read), opens the request's audit event when the log records its
//! operation (`crate::audit`) and writes its refusal when it is refused with a 4xx, hands a keyed POST to
//! `Idempotency-Key` (`idempotency.rs`) with the caller's account as the request's share of the store's lane
//! (`blocking/share.rs`), and writes the `RateLimit-*` headers on the answer. It is wrapped on the `/api` scope
//! (`crate::routes::api_scope`), so it runs for every request routed there, an unknown path under `/api` included,
//! and for no other.

use std::sync::Arc;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, ResponseError};
use canvass_domain::account::Caller;
use canvass_domain::use_cases::audit;

use crate::audit::{request_id, AuditSlot, Draft, REQUEST_ID};
use crate::blocking::{self, Share};
use crate::middleware::auth::{authenticate, presented_key};
use crate::middleware::permissions::{Operation, Operations};
use crate::middleware::request::MatchedRoute;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// The operation a request asked, by its method and the route template it matched; `None` for an unknown path or
/// method, which passes on to be answered 404 or 405.
fn operation_of(req: &ServiceRequest) -> Option<Operation> {
    let extensions = req.extensions();
    let MatchedRoute(template) = extensions.get::<MatchedRoute>()?;
    req.app_data::<web::Data<Operations>>()?.find(req.method(), template).cloned()
}

/// Whether the caller may run `operation`: its key has not expired (401), and its role holds the operation's
/// permission and its key may change what the operation changes (403 naming the permission).
fn permitted(state: &AppState, caller: &Caller, operation: Option<&Operation>) -> Result<(), Problem> {
    if caller.expired_at(state.clock.now()) {
        return Err(Problem::new(ProblemKind::Unauthorized, "the API key has expired"));
    }
    let Some(operation) = operation else { return Ok(()) };
    caller
        .may(operation.permission, operation.changes)
        .map_err(|refusal| Problem::new(ProblemKind::Forbidden, refusal.detail(caller.role)))
}

/// The audit event a request of `operation` opens, when the log records the operation.
fn audit_slot(
    req: &ServiceRequest,
    state: &AppState,
    caller: Caller,
    operation: Option<&Operation>,
) -> Option<Arc<AuditSlot>> {
    let operation = operation?;
    let action = operation.audit.as_deref()?.to_owned();
    let trusted = &state.protection.trusted_proxies;
    let client_address = req.peer_addr().map(|peer| trusted.client_address(peer.ip(), req.headers()).to_string());
    let sent = req.headers().get(REQUEST_ID).and_then(|id| id.to_str().ok());
    Some(AuditSlot::new(Draft {
        caller,
        action,
        success: operation.success,
        client_address,
        request_id: request_id(sent),
    }))
}

/// Writes the refusal of an audited request, in a hop of its own (its use case's transaction, if any, rolled
/// back); a failure to write it is logged, and the answer stands.
async fn record_refusal(state: &AppState, slot: &AuditSlot, status: u16) {
    let account = slot.account();
    let recorded = Share::Account(account)
        .scope(blocking::run(state, {
            let event = slot.refusal(state.clock.now(), status);
            move |uow, _| audit::record(uow, account, &event)
        }))
        .await;
    if recorded.is_err() {
        tracing::error!(http.status_code = status, "a refused request's audit event could not be written");
    }
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
    let standing = state.limits.count_request(&digest).await;
    if standing.retry_after.is_some() {
        return Ok(req.into_response(standing.too_many_requests()));
    }
    let operation = operation_of(&req);
    let slot = audit_slot(&req, &state, caller, operation.as_ref());
    let mut response = match permitted(&state, &caller, operation.as_ref()) {
        Err(problem) => req.into_response(problem.error_response()),
        Ok(()) => {
            req.extensions_mut().insert(caller);
            // Everything the request does at the store, its streamed body included, takes the account's turns.
            let work = Share::Account(caller.account_id).scope(super::idempotency::layer(req, next));
            match &slot {
                Some(slot) => Arc::clone(slot).scope(work).await?,
                None => work.await?,
            }
        }
    };
    if let Some(slot) = slot {
        let status = response.status();
        if slot.pending() && status.is_client_error() && status != actix_web::http::StatusCode::UNAUTHORIZED {
            record_refusal(&state, &slot, status.as_u16()).await;
        }
        if let Ok(id) = HeaderValue::from_str(slot.request_id()) {
            response.headers_mut().insert(HeaderName::from_static(REQUEST_ID), id);
        }
    }
    standing.write(response.headers_mut());
    Ok(response)
}
