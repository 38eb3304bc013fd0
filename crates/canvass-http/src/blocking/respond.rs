//! The blocking hop of a handler that changes something (every POST under `/api`): the use case runs and its answer
//! is rendered. A request that holds an Idempotency-Key claim gets its answer kept in the same transaction as its
//! change (docs/idempotency.md); an audited one is rendered in the hop too, so that its event names what it made
//! (`crate::audit`); any other gets the plain hop, at no extra cost.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::http::header::{self, HeaderMap};
use actix_web::http::StatusCode;
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, ResponseError};
use canvass_domain::clock::Clock;
use canvass_domain::idempotency::KeptResponse;
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::idempotency::{self, Completion, ServedAnswer};
use canvass_domain::DomainError;

use super::{run, run_nesting, Nested};
use crate::audit::AuditSlot;
use crate::middleware::idempotency::{in_use, keepable, KeyClaim, KeySettled};
use crate::problem::Problem;
use crate::state::AppState;

/// Runs `work` in the request's one blocking hop and answers what `render` makes of its value (a use case error
/// answers its problem).
///
/// When the request holds a claim ([`KeyClaim`], put there by the idempotency middleware), the hop opens a
/// transaction, runs `work` in it (its own transactions become savepoints), renders the answer there and keeps it
/// under the claim before the one `COMMIT` ([`idempotency::run_and_complete`]), then marks the request
/// [`KeySettled`]. A server error rolls the change back and leaves the claim to the middleware, which releases it;
/// a claim another request took over meanwhile rolls the change back and answers 409 `idempotency-key-in-use`.
pub async fn respond<T, W, R>(state: &AppState, req: &HttpRequest, work: W, render: R) -> Result<HttpResponse, Problem>
where
    T: Send + 'static,
    W: FnOnce(&mut dyn UnitOfWork, &dyn Clock) -> Result<T, DomainError> + Send + 'static,
    R: FnOnce(T) -> HttpResponse + Send + 'static,
{
    let claim = req.extensions_mut().remove::<KeyClaim>();
    let audit = AuditSlot::current().filter(|slot| slot.pending());
    let Some(KeyClaim { account, key, claimed }) = claim else {
        let Some(slot) = audit else {
            return run(state, work).await.map(render);
        };
        // Rendered in the hop, so that the audit event names what was made and the status served.
        let served = run(state, move |uow, clock| {
            let served = Served::parts(render(work(uow, clock)?), None);
            slot.note_served(served.status.as_u16(), &served.body);
            Ok(served)
        })
        .await?;
        return served.into_response();
    };
    let (served, completion) = run_nesting(state, Nested::Savepoints, move |uow, clock| {
        idempotency::run_and_complete(
            uow,
            account,
            &key,
            claimed,
            |uow| {
                let served = Served::of(work(uow, clock).map(render));
                if let Some(slot) = &audit {
                    slot.note_served(served.status.as_u16(), &served.body);
                }
                served
            },
            Served::answer,
        )
    })
    .await?;
    if completion.is_settled() {
        req.extensions_mut().insert(KeySettled);
    }
    if completion == Completion::TakenOver {
        return Err(in_use());
    }
    served.into_response()
}

/// An answer rendered inside the hop, in parts that may leave the blocking thread (an `HttpResponse` may not).
struct Served {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    /// The problem the answer renders, served as the handler's error so that it is logged as one.
    problem: Option<Problem>,
}

impl Served {
    /// The answer to a use case's outcome: the rendered value, or the error's problem.
    fn of(outcome: Result<HttpResponse, DomainError>) -> Self {
        match outcome {
            Ok(response) => Self::parts(response, None),
            Err(error) => {
                let problem = Problem::from(error);
                Self::parts(problem.error_response(), Some(problem))
            }
        }
    }

    fn parts(response: HttpResponse, problem: Option<Problem>) -> Self {
        let (status, headers) = (response.status(), response.headers().clone());
        match response.into_body().try_into_bytes() {
            Ok(body) => Self { status, headers, body, problem },
            // Every handler that uses this hop renders its answer in memory; a streamed one cannot be kept.
            Err(_) => Self::of(Err(DomainError::from(canvass_domain::RepoError::Other(
                "a keyed answer was rendered as a stream".into(),
            )))),
        }
    }

    /// What the transport makes of the answer: kept as it is served, unless it asks for a retry or is too large.
    fn answer(&self) -> ServedAnswer {
        if !keepable(&self.headers, self.body.len()) {
            return ServedAnswer::NotKeepable { status: self.status.as_u16() };
        }
        ServedAnswer::Keepable(KeptResponse {
            status: self.status.as_u16(),
            content_type: self.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned),
            body: self.body.to_vec(),
        })
    }

    /// The answer as the handler returns it: its problem as an error, or the response it rendered.
    fn into_response(self) -> Result<HttpResponse, Problem> {
        if let Some(problem) = self.problem {
            return Err(problem);
        }
        let mut response = HttpResponse::with_body(self.status, BoxBody::new(self.body));
        *response.headers_mut() = self.headers;
        Ok(response)
    }
}
