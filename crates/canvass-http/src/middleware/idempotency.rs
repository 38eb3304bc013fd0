//! `Idempotency-Key` on every POST under `/api` (docs/idempotency.md). [`crate::middleware::api_guard`] runs it once
//! it has authenticated the request, so the caller is known (a 401 stays a 401 whatever the key). A POST without
//! the header passes through untouched. With one, the middleware reads the body, fingerprints the request, claims the key in one blocking hop, and then either
//! answers from the kept answer (`Idempotent-Replayed: true`), answers 409 (still running), 410 (the kept answer
//! was erased) or 422 (another request), or runs the handler with the body put back and the claim ([`KeyClaim`])
//! in the request's extensions. The handler's hop ([`crate::blocking::respond`]) keeps the answer in the use case's
//! own transaction and marks the request [`KeySettled`]; an answer that did not come through that hop (refused
//! before it) is kept here, in a second hop, as is the release of a claim whose request failed.

use actix_web::body::{self, BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage, HttpResponse, ResponseError};
use canvass_domain::account::Caller;
use canvass_domain::idempotency::{Claim, Claimed, Fingerprint, IdempotencyKey, KeptResponse, KEY_HEADER};
use canvass_domain::use_cases::idempotency;
use canvass_domain::AccountId;

use crate::audit::AuditSlot;
use crate::blocking;
use crate::csv_upload::is_csv;
use crate::extract::body::{read_body, MAX_BODY_BYTES};
use crate::middleware::route::decoded_path;
use crate::problem::{Problem, ProblemKind};
use crate::state::AppState;

/// The request header that carries the key.
pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// The response header on an answer served again from a kept answer.
pub const IDEMPOTENT_REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// The claim a keyed request holds while its handler runs, in the request's extensions: the handler's hop completes
/// it in the same transaction as the request's change ([`crate::blocking::respond`]).
#[derive(Debug, Clone)]
pub struct KeyClaim {
    /// The caller's account.
    pub account: AccountId,
    /// The key.
    pub key: IdempotencyKey,
    /// The claim, named by its instant.
    pub claimed: Claimed,
}

/// In a request's extensions: its claim was settled in the handler's hop (kept or released with the change, or
/// taken over by another request), so nothing is left to complete after the handler.
#[derive(Debug, Clone, Copy)]
pub struct KeySettled;

/// The layer, called by the API guard with the rest of the chain: see the module documentation.
pub async fn layer(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    // A CSV import (up to 64 MiB, read as it arrives) is kept by no key: it creates or updates by email address
    // and phone number, so running it again changes nothing more (docs/decisions.md, "Contacts").
    if req.method() != Method::POST || !req.headers().contains_key(IDEMPOTENCY_KEY) || is_csv(req.request()) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let caller = req.extensions().get::<Caller>().copied();
    let (Some(caller), Some(state)) = (caller, req.app_data::<web::Data<AppState>>().cloned()) else {
        // Not an authenticated request (the layer is used without the guard).
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let key = match key_of(&req) {
        Ok(key) => key,
        Err(problem) => return Ok(req.into_response(problem.error_response())),
    };
    let payload = req.take_payload();
    let bytes = match read_body(req.request(), payload).await {
        Ok(bytes) => bytes,
        Err(problem) => return Ok(req.into_response(problem.error_response())),
    };
    // The path as routed: `/api/v1/%73urveys` is the same request as `/api/v1/surveys`.
    let fingerprint = Fingerprint::of(req.method().as_str(), decoded_path(&req), req.query_string(), &bytes);
    let account = caller.account_id;
    let claim = {
        let key = key.clone();
        let claiming =
            blocking::run(&state, move |uow, clock| idempotency::claim(uow, clock, account, &key, &fingerprint));
        AuditSlot::outside(claiming).await
    };
    let claimed = match claim {
        Ok(Claim::Run(claimed)) => claimed,
        Ok(Claim::Replay(kept)) => return Ok(req.into_response(replay(kept))),
        Ok(Claim::InUse) => return Ok(req.into_response(in_use().error_response())),
        Ok(Claim::Mismatch) => return Ok(req.into_response(mismatch().error_response())),
        Ok(Claim::Erased) => return Ok(req.into_response(answer_erased().error_response())),
        Err(problem) => return Ok(req.into_response(problem.error_response())),
    };
    req.set_payload(Payload::from(bytes));
    req.extensions_mut().insert(KeyClaim { account, key: key.clone(), claimed });
    // The handler and the completion run as a task of their own, so a client that goes away mid-request does not
    // leave the key claimed: the task still keeps (or releases) the answer.
    let run = actix_web::rt::spawn(run_and_keep(req, next, state, account, key, claimed));
    run.await.map_err(actix_web::error::ErrorInternalServerError)?
}

/// Runs the handler and serves its answer. When the handler's hop did not settle the claim (an answer refused
/// before the hop, or a hop that failed), keeps the answer under the claim (or releases the claim) first.
async fn run_and_keep(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    state: web::Data<AppState>,
    account: AccountId,
    key: IdempotencyKey,
    claimed: Claimed,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let served = match next.call(req).await {
        Ok(served) => served.map_into_boxed_body(),
        Err(error) => {
            complete(&state, account, key, claimed, None).await;
            return Err(error);
        }
    };
    if served.request().extensions().contains::<KeySettled>() {
        return Ok(served);
    }
    let (http_req, response) = served.into_parts();
    let (head, body) = response.into_parts();
    let bytes = match body::to_bytes(body).await {
        Ok(bytes) => bytes,
        Err(error) => {
            complete(&state, account, key, claimed, None).await;
            return Err(actix_web::error::ErrorInternalServerError(error.to_string()));
        }
    };
    let kept = keepable(head.headers(), bytes.len()).then(|| KeptResponse {
        status: head.status().as_u16(),
        content_type: head.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned),
        body: bytes.to_vec(),
    });
    complete(&state, account, key, claimed, kept).await;
    Ok(ServiceResponse::new(http_req, head.set_body(BoxBody::new(bytes))))
}

/// Keeps `kept` under the claim (released instead when the rules do not keep it, or when there is none). A failure
/// here is logged, not answered, and the claim stays running until its lease ends: what reaches here changed
/// nothing (an answer refused before the handler's hop, or a hop that rolled back), so a retry after the lease
/// runs the request once.
async fn complete(
    state: &AppState,
    account: AccountId,
    key: IdempotencyKey,
    claimed: Claimed,
    kept: Option<KeptResponse>,
) {
    let outcome = AuditSlot::outside(blocking::run(state, move |uow, _| match kept {
        Some(kept) => idempotency::complete(uow, account, &key, claimed, &kept),
        None => idempotency::release(uow, account, &key, claimed),
    }))
    .await;
    match outcome {
        Ok(true) => {}
        Ok(false) => tracing::warn!("an idempotency claim was taken over before its request finished"),
        Err(problem) => tracing::warn!(error.detail = %problem.detail, "an idempotency key could not be completed"),
    }
}

/// Whether an answer may be kept at all (the domain's `keeps` then judges its status): not one over the body limit,
/// and not one that asks for a retry (`Retry-After`: a write that lost a race to a concurrent change, a 503, a 429),
/// whose key is released so that the retry runs again.
pub(crate) fn keepable(headers: &header::HeaderMap, body_length: usize) -> bool {
    body_length <= MAX_BODY_BYTES && !headers.contains_key(header::RETRY_AFTER)
}

/// The checked key of the request; a problem naming the header for one that is not 1 to 255 visible ASCII
/// characters, or for more than one.
fn key_of(req: &ServiceRequest) -> Result<IdempotencyKey, Problem> {
    let mut values = req.headers().get_all(IDEMPOTENCY_KEY);
    let (Some(value), None) = (values.next(), values.next()) else {
        return Err(Problem::invalid_field(KEY_HEADER, "must be given once"));
    };
    let text = value.to_str().unwrap_or("\u{80}");
    IdempotencyKey::parse(text).map_err(|error| Problem::invalid(vec![error]))
}

/// The kept answer again, with its status, content type and body, marked as replayed.
fn replay(kept: KeptResponse) -> HttpResponse {
    let status = StatusCode::from_u16(kept.status).unwrap_or(StatusCode::OK);
    let mut response = HttpResponse::build(status);
    if let Some(content_type) = kept.content_type.and_then(|v| HeaderValue::from_str(&v).ok()) {
        response.insert_header((header::CONTENT_TYPE, content_type));
    }
    response.insert_header((IDEMPOTENT_REPLAYED, HeaderValue::from_static("true")));
    response.body(kept.body)
}

/// 409: the first request with the key is still running.
pub(crate) fn in_use() -> Problem {
    Problem::new(
        ProblemKind::IdempotencyKeyInUse,
        "a request with this Idempotency-Key is still running; retry when it has finished",
    )
}

/// 410: the request was carried out, but an erasure deleted its kept answer (it held the erased person). Running
/// it again would bring the person back, so nothing runs.
fn answer_erased() -> Problem {
    Problem::new(
        ProblemKind::IdempotencyAnswerErased,
        "the answer kept for this Idempotency-Key was deleted by an erasure; the request is not carried out again",
    )
}

/// 422: the key was used for another request.
fn mismatch() -> Problem {
    Problem::new(
        ProblemKind::IdempotencyKeyReused,
        "this Idempotency-Key was used for another request (method, path, query or body differ)",
    )
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn key(values: &[&[u8]]) -> Result<IdempotencyKey, Problem> {
        let mut request = TestRequest::post();
        for value in values {
            request = request.append_header((IDEMPOTENCY_KEY, HeaderValue::from_bytes(value).unwrap()));
        }
        key_of(&request.to_srv_request())
    }

    #[test]
    fn answers_that_ask_for_a_retry_or_exceed_the_limit_are_not_kept() {
        let lost_race = Problem::new(ProblemKind::ConcurrentChange, "retry").error_response();
        assert!(!keepable(lost_race.headers(), 10), "a concurrent change is retried, not replayed");
        let duplicate = Problem::new(ProblemKind::Duplicate, "listed").error_response();
        assert!(keepable(duplicate.headers(), 10), "a duplicate is the answer, replayed as it is");
        assert!(!keepable(duplicate.headers(), MAX_BODY_BYTES + 1));
    }

    #[test]
    fn keys_are_visible_ascii_given_once() {
        assert_eq!(key(&[b"abc-1"]).unwrap().as_str(), "abc-1");
        for bad in [&b""[..], b"a b", b"caf\xc3\xa9", &[b'k'; 256]] {
            let problem = key(&[bad]).unwrap_err();
            assert_eq!((problem.status, problem.errors[0].field.as_str()), (400, KEY_HEADER));
        }
        assert_eq!(key(&[b"a", b"b"]).unwrap_err().status, 400);
    }
}
