//! The respondent pages at `/r/<token>`: the survey page by page, and opting out; `/login/<sendoutId>` for
//! LOGIN sendouts; and `/s/<handle>`, the open link of a LINK sendout (`open_link.rs`). HTML for people, in the language of the link's sendout (English where no sendout is known);
//! no key.

pub mod failures;
pub mod guard;
mod html;
mod open_link;
use canvass_domain::language::words;

pub(crate) use html::STYLE;

use actix_web::http::StatusCode;
use actix_web::middleware::from_fn;
use actix_web::{web, HttpRequest, HttpResponse};
use canvass_domain::ids::SendoutId;
use canvass_domain::language::Language;
use canvass_domain::ports::UnitOfWork;
use canvass_domain::use_cases::respondent_page::{self, LoginOutcome, PageState, PageView};
use canvass_domain::DomainError;
use maud::Markup;

use self::guard::{Page, UnknownCredential};
use crate::blocking;
use crate::extract::body::{form_fields, RawBody};
use crate::problem::Problem;
use crate::routes::fallback::unknown_route;
use crate::state::AppState;

/// Registers the respondent pages: one resource per page, each with the pages' guard wrapped on it; its other
/// methods answer as an unknown route does (404), through the guard too.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/r/{token}")
            .route(web::get().to(open))
            .route(web::post().to(submit))
            .default_service(web::to(unknown_route))
            .wrap(from_fn(|req, next| guard::guard(Page::Survey, req, next))),
    )
    .service(
        web::resource("/r/{token}/opt-out")
            .route(web::get().to(opt_out_form))
            .route(web::post().to(opt_out))
            .default_service(web::to(unknown_route))
            .wrap(from_fn(|req, next| guard::guard(Page::OptOut, req, next))),
    )
    .service(
        web::resource("/s/{handle}")
            .route(web::get().to(open_link::start_page))
            .route(web::post().to(open_link::start))
            .default_service(web::to(unknown_route))
            .wrap(from_fn(|req, next| guard::guard(Page::OpenLink, req, next))),
    )
    .service(
        web::resource("/login/{sendoutId}")
            .route(web::get().to(login_form))
            .route(web::post().to(login))
            .default_service(web::to(unknown_route))
            .wrap(from_fn(|req, next| guard::guard(Page::Login, req, next))),
    );
}

fn page(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(markup.into_string())
}

/// A failure as a page: people, not programs, read these. An unknown link or sendout is English (nothing tells
/// the language); a form that could not be read is in the language of the page it came from, where known.
fn failure(problem: &Problem, language: Language) -> HttpResponse {
    let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let words = words::words(language);
    let text = match status {
        StatusCode::NOT_FOUND => words.unknown_link,
        s if s.is_client_error() => words.unreadable,
        _ => words.server_error,
    };
    let mut response = page(status, html::message(language, words.survey, text));
    if status == StatusCode::NOT_FOUND {
        response.extensions_mut().insert(UnknownCredential { budget: None });
    }
    response
}

/// Runs a use case that shows a view of a link: 400 for a page shown again with its errors, 200 otherwise.
async fn show<F>(state: &AppState, work: F, action: String) -> HttpResponse
where
    F: FnOnce(&mut dyn UnitOfWork, &dyn canvass_domain::clock::Clock) -> Result<PageView, DomainError> + Send + 'static,
{
    match blocking::run(state, work).await {
        Ok(view) => {
            let status = match &view.state {
                PageState::Page(page) if !page.errors.is_empty() => StatusCode::BAD_REQUEST,
                _ => StatusCode::OK,
            };
            page(status, html::view(&view, &action))
        }
        Err(problem) => failure(&problem, Language::default()),
    }
}

/// The query of a link: `?lang=<code>`, a language the respondent picks.
#[derive(serde::Deserialize)]
struct LinkQuery {
    lang: Option<String>,
}

/// The language a query picks: one of the twelve codes, else none (a value that names none is ignored, never an
/// error: the page is shown in the respondent's language as it was).
pub(crate) fn picked_language(query: &str) -> Option<Language> {
    let picked = web::Query::<LinkQuery>::from_query(query).ok()?.into_inner().lang?;
    picked.parse().ok()
}

/// The survey at the page the respondent left off (the first page for a new respondent); `?lang=` picks another
/// of the survey's languages for the respondent.
async fn open(state: web::Data<AppState>, req: HttpRequest, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    let chosen = picked_language(req.query_string());
    show(&state, move |uow, clock| respondent_page::open(uow, clock, &token, chosen), action).await
}

/// Saves one page and shows the next (or the thank-you page after the last).
async fn submit(state: web::Data<AppState>, path: web::Path<String>, body: RawBody) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    let page_id = form_fields(&body.0).and_then(|form| {
        let page = form.iter().find(|(k, _)| k == "page").and_then(|(_, v)| v.parse().ok());
        page.map(|page| (page, form)).ok_or_else(|| Problem::invalid_field("page", "is missing"))
    });
    let (page_id, form) = match page_id {
        Ok(read) => read,
        Err(problem) => return unreadable(&state, token, problem).await,
    };
    show(&state, move |uow, clock| respondent_page::submit(uow, clock, &token, page_id, &form), action).await
}

/// A form post to a link that could not be read: said in the link's language (its opt-out view tells it).
async fn unreadable(state: &AppState, token: String, problem: Problem) -> HttpResponse {
    let view = blocking::run(state, move |uow, _| respondent_page::opt_out_form(uow, &token)).await;
    match view {
        Ok(view) => failure(&problem, view.language),
        Err(unknown) => failure(&unknown, Language::default()),
    }
}

/// Asks the respondent to confirm opting out.
async fn opt_out_form(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    show(&state, move |uow, _| respondent_page::opt_out_form(uow, &token), action).await
}

/// Opts the contact out: it joins the account's blocklist as OptedOut.
async fn opt_out(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let token = path.into_inner();
    let action = format!("/r/{token}");
    show(&state, move |uow, clock| respondent_page::opt_out(uow, clock, &token), action).await
}

/// The language of a LOGIN sendout's pages; English for an unknown sendout, or when it cannot be read.
pub(crate) async fn login_language(state: &AppState, sendout: SendoutId) -> Language {
    blocking::run(state, move |uow, _| respondent_page::login_language(uow, sendout)).await.unwrap_or_default()
}

/// The sendout a login page's path segment names, only in its canonical spelling (`7`, never `07`, `+7` or `%2B7`):
/// one sendout has one login page, one guard and one budget of failures (`guard.rs`).
pub(crate) fn login_sendout(segment: &str) -> Option<SendoutId> {
    let sendout: SendoutId = segment.parse().ok()?;
    (sendout.to_string() == segment).then_some(sendout)
}

/// The login form of a LOGIN sendout, in its language.
async fn login_form(state: web::Data<AppState>, path: web::Path<String>) -> HttpResponse {
    let action = format!("/login/{}", path.as_str());
    let language = match login_sendout(&path) {
        Some(sendout) => login_language(&state, sendout).await,
        None => Language::default(),
    };
    page(StatusCode::OK, html::login(language, &action, None))
}

/// A login identifier of the Active LOGIN sendout opens that respondent's survey (303 to its link); an unknown one
/// shows the form again.
async fn login(state: web::Data<AppState>, path: web::Path<String>, body: RawBody) -> HttpResponse {
    let action = format!("/login/{}", path.as_str());
    let Some(sendout) = login_sendout(&path) else {
        return failure(&Problem::not_found("sendout"), Language::default());
    };
    let form = match form_fields(&body.0) {
        Ok(form) => form,
        Err(problem) => return failure(&problem, login_language(&state, sendout).await),
    };
    let identifier = form.into_iter().find(|(k, _)| k == "identifier").map(|(_, v)| v).unwrap_or_default();
    let shown = identifier.clone();
    match blocking::run(&state, move |uow, clock| respondent_page::login(uow, clock, sendout, &identifier)).await {
        Ok(LoginOutcome::Opens(token)) => {
            HttpResponse::SeeOther().insert_header(("Location", format!("/r/{token}"))).finish()
        }
        Ok(LoginOutcome::Nothing(login_page)) => {
            let mut response = page(StatusCode::OK, html::login(login_page.language, &action, Some(&shown)));
            let budget = state.protection.login_budget(login_page.respondents);
            response.extensions_mut().insert(UnknownCredential { budget: Some(budget) });
            response
        }
        Err(problem) => failure(&problem, Language::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_page_names_its_sendout_in_one_spelling_only() {
        assert_eq!(login_sendout("7"), Some(SendoutId::new(7)));
        assert_eq!(login_sendout("-7"), Some(SendoutId::new(-7)), "canonical, and names no sendout");
        for other in ["07", "+7", "%2B7", "7.0", " 7", "7 ", "", "seven", "99999999999999999999"] {
            assert_eq!(login_sendout(other), None, "{other:?}");
        }
    }
}
