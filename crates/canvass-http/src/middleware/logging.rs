//! Request logging: one span per request that names the route pattern, never the raw path or query, which can
//! carry personal data (contact details in the blocklist paths, for one). The request layer (`request.rs`) opens
//! the span with the route it resolved and records the end of the request on it.

use actix_web::dev::ServiceResponse;
use actix_web::http::Method;
use actix_web::Error;
use tracing::Span;

use crate::problem::Problem;

/// The span of a request: `http.method`, `http.route` (a route template, or `unmatched`) and, when the request
/// ends ([`record_end`]), `http.status_code`, `otel.status_code` and, for an error, `exception.message`.
pub fn request_span(method: &Method, route: &str) -> Span {
    tracing::info_span!(
        "request",
        http.method = %method,
        http.route = %route,
        http.status_code = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
        exception.message = tracing::field::Empty,
    )
}

/// Records how a request ended: its status, `otel.status_code`, and for an error `exception.message` holding only
/// the problem's kind: never its detail or field errors, which can quote client input.
pub fn record_end<B>(span: &Span, outcome: &Result<ServiceResponse<B>, Error>) {
    let (status, error) = match outcome {
        Ok(response) => (response.status(), response.response().error()),
        Err(error) => (error.as_response_error().status_code(), Some(error)),
    };
    span.record("http.status_code", status.as_u16());
    // As tracing-actix-web does: a client error is the client's, so only a server error fails the span.
    let failed = error.is_some() && status.is_server_error();
    span.record("otel.status_code", if failed { "ERROR" } else { "OK" });
    if let Some(error) = error {
        let kind = match error.as_error::<Problem>() {
            Some(problem) => problem.kind.name(),
            None => status.canonical_reason().unwrap_or("error"),
        };
        span.record("exception.message", kind);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use actix_web::{test, web, App, HttpResponse};
    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

    use crate::middleware::request::Requests;
    use crate::problem::Problem;

    /// Every field value recorded on any span, as `name=value`.
    #[derive(Clone, Default)]
    struct Recorded(Arc<Mutex<Vec<String>>>);

    impl Visit for Recorded {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if let Ok(mut fields) = self.0.lock() {
                fields.push(format!("{}={value:?}", field.name()));
            }
        }
    }

    impl<S: tracing::Subscriber> Layer<S> for Recorded {
        fn on_new_span(&self, attributes: &Attributes<'_>, _: &Id, _: Context<'_, S>) {
            attributes.record(&mut self.clone());
        }

        fn on_record(&self, _: &Id, values: &Record<'_>, _: Context<'_, S>) {
            values.record(&mut self.clone());
        }
    }

    #[actix_web::test]
    async fn an_error_response_records_its_status_and_kind_but_not_what_the_client_sent() {
        let recorded = Recorded::default();
        let subscriber = tracing_subscriber::registry().with(recorded.clone());
        let _guard = tracing::subscriber::set_default(subscriber);
        let app = test::init_service(App::new().wrap(Requests).route(
            "/echo",
            web::post().to(|| async {
                Err::<HttpResponse, _>(Problem::invalid_field("name", "\"client-secret\" is not allowed"))
            }),
        ))
        .await;
        let response = test::call_service(&app, test::TestRequest::post().uri("/echo").to_request()).await;
        assert_eq!(response.status(), 400);

        let fields = recorded.0.lock().map(|fields| fields.clone()).unwrap_or_default();
        assert!(fields.contains(&"http.route=/echo".to_owned()), "{fields:?}");
        assert!(fields.contains(&"http.status_code=400".to_owned()), "{fields:?}");
        assert!(fields.contains(&"otel.status_code=\"OK\"".to_owned()), "{fields:?}");
        assert!(fields.contains(&"exception.message=\"validation\"".to_owned()), "{fields:?}");
        assert!(!fields.iter().any(|field| field.contains("client-secret")), "{fields:?}");
        assert!(!fields.iter().any(|field| field.starts_with("exception.details")), "{fields:?}");
    }
}
