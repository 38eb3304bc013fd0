//! The HTTP adapter: the actix-web application with every endpoint of the interface, key authentication,
//! RFC 9457 problem+json errors and the OpenAPI document generated from the handlers.
//!
//! [`app`] builds the application over an [`AppState`]; the `canvass` binary serves it. The modules by role:
//! `routes` (one handler module per resource), `dto` (the JSON shapes of the contract), `extract` (reading bodies,
//! queries and paths), `middleware` (what wraps every request), `pages` (the respondent's HTML pages), `problem`
//! (every error answer), `openapi` (the document), `blocking` (the one blocking hop to the store),
//! `client_address` (who a request came from, behind trusted proxies).

pub mod audit;
pub mod blocking;
pub mod client_address;
pub mod cookie_key;
pub mod csv_upload;
pub mod dto;
pub mod export;
pub mod extract;
pub mod limits;
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
use actix_web::{web, App, HttpResponse};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::{Config, SwaggerUi};

pub use client_address::TrustedProxies;
pub use cookie_key::CookieKey;
pub use problem::Problem;
pub use protection::{FailureWindow, Protection};
pub use state::AppState;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// Builds the application: the API under every version prefix, health, metrics, the OpenAPI document and its
/// viewer at `/docs`, and problem+json answers for unknown routes; every request is counted in the metrics.
///
/// Three layers, outermost first: the request layer on every request (the route resolved once, the span, security
/// headers, metrics), the API guard (authentication, key rate limits, `Idempotency-Key`) wrapped on the `/api`
/// scope (`routes::api_scope`), and the respondent pages' guard wrapped on the pages' resources (`pages`).
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
    let app = App::new()
        .into_utoipa_app()
        .openapi(openapi::base())
        .app_data(state)
        .app_data(extract::query::path_config())
        .app_data(extract::body::payload_config())
        .service(routes::health::live)
        .service(routes::health::ready)
        .service(routes::metrics::metrics)
        .service(routes::sms::inbound)
        .service(routes::dsn::inbound_dsn)
        // Before the `/api` scope, which would take them behind the API guard: the document (its other methods
        // answer 404), and `/api` itself, no path under it, which is no route.
        .map(|app| {
            app.service(
                web::resource(OPENAPI_PATH)
                    .route(web::get().to(openapi_document))
                    .default_service(web::to(routes::fallback::unknown_route)),
            )
            .service(web::resource(routes::api_scope::API_PREFIX).to(routes::fallback::unknown_route))
        })
        .service(routes::api_scope::api());
    let (app, document) = app.split_for_parts();
    let declared = web::Data::new(routes::fallback::DeclaredMethods::of(&document));
    let operations = web::Data::new(middleware::permissions::Operations::of(&document));
    app.app_data(web::Data::new(ServedDocument(openapi::served(document))))
        .service(SwaggerUi::new("/docs/{_:.*}").config(Config::from(OPENAPI_PATH)))
        .service(web::redirect("/docs", "/docs/"))
        .configure(pages::configure)
        .app_data(declared)
        .app_data(operations)
        .default_service(web::to(routes::fallback::unknown_route))
        .wrap(middleware::request::Requests)
}

/// The OpenAPI document as served ([`openapi::served`]).
struct ServedDocument(web::Bytes);

/// `GET` [`OPENAPI_PATH`].
async fn openapi_document(served: web::Data<ServedDocument>) -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::json()).body(served.0.clone())
}
