//! The respondent pages at `/r/<token>`: the survey page by page, and opting out; and `/login/<sendoutId>` for
//! LOGIN sendouts. HTML for people; no key.

pub mod failures;
pub mod guard;
mod html;

pub(crate) use html::STYLE;

use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpResponse};
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::respondent_page::{self, PageView};
use canvass_domain::DomainError;
use maud::{html as markup, Markup};

use self::guard::UnknownCredential;
use crate::blocking;
use crate::extract::body::{form_fields, RawBody};
use crate::problem::Problem;
use crate::state::AppState;

/// Registers the respondent pages.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(open).service(submit).service(opt_out_form).service(opt_out).service(login_form).service(login);
}

fn page(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(markup.into_string())
}

/// A failure as a page: people, not programs, read these.
fn failure(problem: &Problem) -> HttpResponse {
    let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let text = match status {
        StatusCode::NOT_FOUND => "This survey link is not valid. Please check the link you received.",
        s if s.is_client_error() => "The answers could not be read. Please go back and try again.",
        _ => "Something went wrong on our side. Please try again in a moment.",
    };
    let mut response = page(status, html::layout("Survey", markup! { h1 { "Survey" } p { (text) } }));
    if status == StatusCode::NOT_FOUND {
        response.extensions_mut().insert(UnknownCredential);
    }
    response
}

async fn run<F>(state: &AppState, work: F, action: String) -> HttpResponse
where
    F: FnOnce(&mut dyn UnitOfWork, &dyn canvass_domain::clock::Clock) -> Result<PageView, DomainError> + Send + 'static,
{
    match blocking::run(state, work).await {
        Ok(view) => {
            let status = match &view {
                PageView::Page { errors, .. } if !errors.is_empty() => StatusCode::BAD_REQUEST,
                _ => StatusCode::OK,
            };
            page(status, html::view(&view, &action))
        }
        Err(problem) => failure(&problem),
    }
}

/// The survey at the page the respondent left off (the first page for a new respondent).
#[get("/r/{token}")]
async fn open(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    run(&state, move |uow, clock| respondent_page::open(uow, clock, &token), action).await
}

/// Saves one page and shows the next (or the thank-you page after the last).
#[post("/r/{token}")]
async fn submit(state: web::Data<AppState>, path: web::Path<String>, body: RawBody) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    let form = match form_fields(&body.0) {
        Ok(form) => form,
        Err(problem) => return failure(&problem),
    };
    let Some(page_id) = form.iter().find(|(k, _)| k == "page").and_then(|(_, v)| v.parse().ok()) else {
        return failure(&Problem::invalid_field("page", "is missing"));
    };
    run(&state, move |uow, clock| respondent_page::submit(uow, clock, &token, page_id, &form), action).await
}

/// Asks the respondent to confirm opting out.
#[get("/r/{token}/opt-out")]
async fn opt_out_form(path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    page(
        StatusCode::OK,
        html::layout(
            "Opt out",
            markup! {
                h1 { "Stop receiving surveys" }
                p { "If you opt out, this organisation will not send you surveys any more." }
                form method="post" action=(format!("/r/{token}/opt-out")) { button type="submit" { "Opt out" } }
            },
        ),
    )
}

/// Opts the contact out: it joins the account's blocklist as OptedOut.
#[post("/r/{token}/opt-out")]
async fn opt_out(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    match blocking::run(&state, move |uow, clock| respondent_page::opt_out(uow, clock, &token)).await {
        Ok(name) => page(
            StatusCode::OK,
            html::layout(
                &name,
                markup! { h1 { "You have opted out" } p { "You will not receive surveys from this organisation any more." } },
            ),
        ),
        Err(problem) => failure(&problem),
    }
}

/// The login form of a LOGIN sendout.
#[get("/login/{sendoutId}")]
async fn login_form(path: web::Path<String>) -> HttpResponse {
    let action = format!("/login/{}", path.into_inner());
    page(StatusCode::OK, html::login(&action, None))
}

/// A login identifier of the Active LOGIN sendout opens that respondent's survey (303 to its link); an unknown one
/// shows the form again.
#[post("/login/{sendoutId}")]
async fn login(state: web::Data<AppState>, path: web::Path<String>, body: RawBody) -> HttpResponse {
    let action = format!("/login/{}", path.as_str());
    let Ok(sendout) = path.parse::<canvass_domain::ids::SendoutId>() else {
        return failure(&Problem::not_found("sendout"));
    };
    let form = match form_fields(&body.0) {
        Ok(form) => form,
        Err(problem) => return failure(&problem),
    };
    let identifier = form.into_iter().find(|(k, _)| k == "identifier").map(|(_, v)| v).unwrap_or_default();
    let shown = identifier.clone();
    match blocking::run(&state, move |uow, clock| respondent_page::login(uow, clock, sendout, &identifier)).await {
        Ok(Some(token)) => HttpResponse::SeeOther().insert_header(("Location", format!("/r/{token}"))).finish(),
        Ok(None) => {
            let mut response = page(StatusCode::OK, html::login(&action, Some(&shown)));
            response.extensions_mut().insert(UnknownCredential);
            response
        }
        Err(problem) => failure(&problem),
    }
}
