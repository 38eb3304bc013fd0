//! The HTTP adapter: the actix-web application with every endpoint of the interface, key authentication,
//! RFC 9457 problem+json errors and the OpenAPI document generated from the handlers.
//!
//! [`app`] builds the application over an [`AppState`]; the `canvass` binary serves it.

pub mod api_guard;
pub mod auth;
pub mod blocking;
pub mod dto;
pub mod headers;
pub mod idempotency;
pub mod input;
pub mod key_limits;
pub mod logging;
pub mod methods;
pub mod metrics;
pub mod openapi;
pub mod problem;
pub mod protection;
mod reader;
pub mod respondent;
pub mod routes;
pub mod state;
pub mod streamed;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{web, App, HttpRequest};
use tracing_actix_web::TracingLogger;
use utoipa_actix_web::{scope, AppExt};
use utoipa_swagger_ui::SwaggerUi;

pub use problem::Problem;
pub use protection::{FailureWindow, Protection};
pub use state::AppState;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// Builds the application: the API under every version prefix, health, metrics, the OpenAPI document and its
/// viewer at `/docs`, and problem+json answers for unknown routes; every request is counted in the metrics.
pub fn app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let mut app = App::new()
        .into_utoipa_app()
        .openapi(openapi::base())
        .app_data(state)
        .app_data(input::path_config())
        .app_data(input::payload_config())
        .service(routes::health::live)
        .service(routes::health::ready)
        .service(routes::metrics::metrics)
        .service(routes::sms::inbound)
        .service(routes::dsn::inbound_dsn);
    for version in routes::API_VERSIONS {
        app = app.service(scope::scope(version).configure(|cfg| {
            if version == routes::RULES_VERSION {
                routes::api_v1_5(cfg);
            }
            routes::api(cfg);
        }));
    }
    let (app, mut document) = app.split_for_parts();
    let declared = web::Data::new(methods::DeclaredMethods::of(&document));
    openapi::document_what_is_served(&mut document);
    app.service(SwaggerUi::new("/docs/{_:.*}").url(OPENAPI_PATH, document))
        .service(web::redirect("/docs", "/docs/"))
        .configure(respondent::configure)
        .app_data(declared)
        .default_service(web::to(unknown_route))
        .wrap(from_fn(respondent::guard::guard))
        .wrap(from_fn(idempotency::layer))
        .wrap(from_fn(api_guard::guard))
        .wrap(from_fn(headers::security_headers))
        .wrap(from_fn(metrics::observe))
        .wrap(TracingLogger::<logging::RedactedSpans>::new())
}

async fn unknown_route(req: HttpRequest, declared: web::Data<methods::DeclaredMethods>) -> actix_web::HttpResponse {
    if let Some(allow) = declared.allowed(req.path()) {
        return methods::not_allowed(req.method().as_str(), allow);
    }
    let detail = if req.path().starts_with("/api/v1") && req.path().contains("/data-retention/rules") {
        format!(
            "the retention rule endpoints need API version 1.5: use {}/data-retention/rules...",
            routes::RULES_VERSION
        )
    } else {
        "no such endpoint".to_owned()
    };
    actix_web::ResponseError::error_response(&Problem::new(actix_web::http::StatusCode::NOT_FOUND, "not-found", detail))
}
