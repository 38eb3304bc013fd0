//! The request middleware: counts and times every request by method, route template and status.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

use super::metric_labels as labels;
use crate::state::AppState;

/// Counts the request once its answer's head is ready (an error answer included). The route is the template the
/// router matches for the request's path, read from the application's route map, so a request answered before
/// routing (a 401 of the API guard) still carries its route.
pub async fn observe<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, actix_web::Error> {
    let started = Instant::now();
    let metrics = req.app_data::<web::Data<AppState>>().map(|state| state.metrics.clone());
    let method = labels::method(req.method());
    let route = labels::route(req.match_pattern());
    let outcome = next.call(req).await;
    if let Some(metrics) = metrics {
        let status = match &outcome {
            Ok(response) => response.status(),
            Err(error) => error.as_response_error().status_code(),
        };
        metrics.observe_request(method, &route, status.as_str(), started.elapsed());
    }
    outcome
}
