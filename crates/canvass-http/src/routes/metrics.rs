//! `GET /metrics`: the Prometheus text format, for the operator's scraper. No API key; when `METRICS_TOKEN` is set
//! it takes `Authorization: Bearer <METRICS_TOKEN>`, else 401.

use actix_web::http::header::{HeaderMap, AUTHORIZATION};
use actix_web::http::StatusCode;
use actix_web::{get, web, HttpRequest, HttpResponse};
use canvass_domain::use_cases::monitoring;

use crate::blocking;
use crate::metrics::Scrape;
use crate::problem::Problem;
use crate::routes::shared_secret::same_secret;
use crate::state::AppState;

/// The media type of the Prometheus text format.
pub const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Whether the request may read the metrics: always when no token is configured, else only with
/// `Authorization: Bearer <token>` (the scheme in any case), compared in constant time.
pub fn authorized(headers: &HeaderMap, token: Option<&str>) -> bool {
    let Some(token) = token else { return true };
    let presented = headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, presented)| presented.trim());
    presented.is_some_and(|presented| same_secret(token, presented))
}

/// The service's metrics in the Prometheus text format: request counts and durations by route template, the
/// outbox backlog of every account, delivery outcomes, retention runs and the database pool. When the database
/// cannot be asked for the backlog, the outbox gauges are left out and the rest is served.
#[utoipa::path(tag = "Metrics", responses(
    (status = 200, description = "Every metric family (see docs/operations.md)", body = String,
        content_type = "text/plain; version=0.0.4; charset=utf-8"),
    (status = 401, description = "METRICS_TOKEN is set and the request does not carry it as a bearer token",
        body = Problem, headers(("WWW-Authenticate" = String, description = "`Bearer`"))),
))]
#[get("/metrics")]
pub async fn metrics(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, Problem> {
    if !authorized(req.headers(), state.metrics_token.as_deref()) {
        return Err(Problem::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "send the metrics token (METRICS_TOKEN) as Authorization: Bearer <token>",
        ));
    }
    // Read before the blocking hop, so the scrape's own connection is not counted in use.
    let connections = state.store.connections();
    let backlog = match blocking::run(&state, |uow, clock| monitoring::outbox_backlog(uow, clock)).await {
        Ok(backlog) => Some(backlog),
        Err(problem) => {
            tracing::warn!(problem.kind = problem.kind, "metrics served without the outbox backlog");
            None
        }
    };
    let text = state.metrics.render(Scrape { backlog, connections }).map_err(|error| Problem::internal(&error))?;
    Ok(HttpResponse::Ok().content_type(TEXT_FORMAT).body(text))
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::HeaderValue;

    use super::*;

    fn with_authorization(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn without_a_token_anyone_may_scrape() {
        assert!(authorized(&HeaderMap::new(), None));
        assert!(authorized(&with_authorization("Bearer whatever"), None));
    }

    #[test]
    fn with_a_token_only_its_bearer_may_scrape() {
        let token = Some("s3cret-token");
        assert!(authorized(&with_authorization("Bearer s3cret-token"), token));
        assert!(authorized(&with_authorization("bearer  s3cret-token "), token), "the scheme in any case");
        assert!(!authorized(&HeaderMap::new(), token), "none");
        assert!(!authorized(&with_authorization("Bearer s3cret"), token), "a prefix");
        assert!(!authorized(&with_authorization("Bearer s3cret-token2"), token), "a longer one");
        assert!(!authorized(&with_authorization("Basic s3cret-token"), token), "another scheme");
        assert!(!authorized(&with_authorization("s3cret-token"), token), "no scheme");
        assert!(!authorized(&with_authorization("Bearer "), token), "empty");
    }
}
