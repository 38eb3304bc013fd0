//! The HTTP adapter: the actix-web application with every endpoint of the interface, key authentication,
//! RFC 9457 problem+json errors and the OpenAPI document generated from the handlers.
//!
//! [`app`] builds the application over an [`AppState`]; the `canvass` binary serves it. The modules by role:
//! `routes` (one handler module per resource), `dto` (the JSON shapes of the contract), `extract` (reading bodies,
//! queries and paths), `middleware` (what wraps every request), `pages` (the respondent's HTML pages), `problem`
//! (every error answer), `openapi` (the document), `blocking` (the one blocking hop to the store),
//! `client_address` (who a request came from, behind trusted proxies).

pub mod blocking;
pub mod client_address;
pub mod dto;
pub mod export;
pub mod extract;
pub mod middleware;
pub mod openapi;
pub mod pages;
pub mod problem;
pub mod protection;
pub mod routes;
pub mod state;
pub mod streamed;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::header::ContentType;
use actix_web::middleware::from_fn;
use actix_web::{guard, web, App, HttpResponse};
use middleware::on_paths::OnPaths;
use utoipa_actix_web::{scope, AppExt};
use utoipa_swagger_ui::{Config, SwaggerUi};

pub use client_address::TrustedProxies;
pub use problem::Problem;
pub use protection::{FailureWindow, Protection};
pub use state::AppState;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// Builds the application: the API under every version prefix, health, metrics, the OpenAPI document and its
/// viewer at `/docs`, and problem+json answers for unknown routes; every request is counted in the metrics.
///
/// Three layers, outermost first: the request layer (the route resolved once, the span, security headers,
/// metrics), the API guard (authentication, key rate limits, `Idempotency-Key`) on `/api` paths only, and the
/// respondent pages' guard on page paths only.
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
        .app_data(extract::query::path_config())
        .app_data(extract::body::payload_config())
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
    let (app, document) = app.split_for_parts();
    let declared = web::Data::new(routes::fallback::DeclaredMethods::of(&document));
    let document = openapi::served(document);
    app.service(web::resource(OPENAPI_PATH).guard(guard::Get()).to(move || {
        let document = document.clone();
        async move { HttpResponse::Ok().content_type(ContentType::json()).body(document) }
    }))
    .service(SwaggerUi::new("/docs/{_:.*}").config(Config::from(OPENAPI_PATH)))
    .service(web::redirect("/docs", "/docs/"))
    .configure(pages::configure)
    .app_data(declared)
    .default_service(web::to(routes::fallback::unknown_route))
    .wrap(OnPaths::new(middleware::area::Area::is_page, from_fn(pages::guard::guard)))
    .wrap(OnPaths::new(middleware::area::Area::is_api, from_fn(middleware::api_guard::guard)))
    .wrap(middleware::request::Requests)
}
