//! Request logging: one span per request that names the route pattern, never the raw path or query, which can
//! carry personal data (contact details in the blocklist paths, for one).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::Error;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RootSpanBuilder};

/// Builds request spans with `http.method` and `http.route` only.
pub struct RedactedSpans;

impl RootSpanBuilder for RedactedSpans {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let route = request.match_pattern().unwrap_or_else(|| "unmatched".to_owned());
        tracing::info_span!(
            "request",
            http.method = %request.method(),
            http.route = %route,
            http.status_code = tracing::field::Empty,
            otel.status_code = tracing::field::Empty,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
