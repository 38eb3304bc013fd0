//! The outermost layer of every request: it resolves the route the request matches once (`route`), opens the
//! request's span with it (`logging`), writes the security headers every answer carries (`headers`) and counts the
//! request in the metrics by that same route (`metric_labels`). Hand-written rather than `from_fn`, so a request
//! pays for one layer's glue here instead of three.

use std::future::{ready, Ready};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{forward_ready, Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::web::{self, Bytes};
use actix_web::{Error, HttpMessage};
use futures_util::future::LocalBoxFuture;
use tracing::{Instrument, Span};

use super::route::matched_route;
use super::{headers, logging, metric_labels as labels};
use crate::state::AppState;

/// In a request's extensions: the route template it matched, with its version as the path has it
/// (`/api/v1.3/surveys/{surveyId}`); absent for a path that matches no route.
#[derive(Debug, Clone)]
pub struct MatchedRoute(pub String);

/// The layer: see the module documentation.
pub struct Requests;

impl<S, B> Transform<S, ServiceRequest> for Requests
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + Unpin + 'static,
{
    type Response = ServiceResponse<InSpan<B>>;
    type Error = Error;
    type Transform = RequestsService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(RequestsService { service }))
    }
}

/// The layer around the application's service.
pub struct RequestsService<S> {
    service: S,
}

impl<S, B> Service<ServiceRequest> for RequestsService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + Unpin + 'static,
{
    type Response = ServiceResponse<InSpan<B>>;
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Self::Response, Error>>;

    forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        // The one walk of the route map: the span, the metrics and every log line of the request share its answer.
        let matched = matched_route(&req);
        if let Some(template) = &matched {
            req.extensions_mut().insert(MatchedRoute(template.clone()));
        }
        let route = labels::route(matched);
        let method = labels::method(req.method());
        let span = logging::request_span(req.method(), &route);
        let metrics = req.app_data::<web::Data<AppState>>().map(|state| state.metrics.clone());
        let answer = span.in_scope(|| self.service.call(req));
        Box::pin(async move {
            let mut outcome = answer.instrument(span.clone()).await;
            logging::record_end(&span, &outcome);
            if let Ok(response) = &mut outcome {
                headers::write(response.headers_mut());
            }
            if let Some(metrics) = metrics {
                let status = match &outcome {
                    Ok(response) => response.status(),
                    Err(error) => error.as_response_error().status_code(),
                };
                metrics.observe_request(method, &route, status.as_str(), started.elapsed());
            }
            outcome.map(|response| response.map_body(|_, body| InSpan::new(body, span)))
        })
    }
}

/// A response body read inside its request's span, so that the later chunks of a streamed list log (and run their
/// blocking hops) as part of the request. A body whose bytes are all in hand runs no code of ours, and is read
/// without entering the span.
pub struct InSpan<B> {
    body: B,
    span: Option<Span>,
}

impl<B: MessageBody> InSpan<B> {
    fn new(body: B, span: Span) -> Self {
        let streamed = matches!(body.size(), BodySize::Stream);
        Self { body, span: streamed.then_some(span) }
    }
}

impl<B: MessageBody + Unpin> MessageBody for InSpan<B> {
    type Error = B::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        match &this.span {
            Some(span) => span.in_scope(|| Pin::new(&mut this.body).poll_next(cx)),
            None => Pin::new(&mut this.body).poll_next(cx),
        }
    }
}
