//! `/s/<handle>`: a LINK sendout's open link. Its start page changes nothing (mail scanners and chat previews fetch
//! links); its start form's post makes the visitor an anonymous respondent and answers 303 to the visitor's own
//! `/r/<token>`, from where the respondent pages take over.
//!
//! With `oneResponsePerBrowser`, the start also sets a cookie on the link's path that holds the visitor's token
//! encrypted and authenticated with the service's cookie key (`AppState::cookie_key`, `COOKIE_KEY`), never readable:
//! a browser that comes back with it, to the start page or the start, is sent to its own page instead of starting
//! again. A cookie that does not decrypt (tampered, another service's key, another account's token) is ignored.

use actix_web::cookie::{time::Duration, Cookie, CookieJar, SameSite};
use actix_web::http::header::LOCATION;
use actix_web::http::header::{AcceptLanguage, Header, Preference, Quality};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use canvass_domain::distribution::{survey_link_route, HIDDEN_VALUE};
use canvass_domain::language::{Language, LanguageWish};
use canvass_domain::use_cases::open_link::{self, StartOutcome};

use super::{failure, html, page};
use crate::blocking;
use crate::extract::body::RawBody;
use crate::state::AppState;

/// The cookie that remembers a browser's visitor, on the open link's path only.
const VISITOR_COOKIE: &str = "canvass_visitor";

/// How long a browser remembers its visitor.
const VISITOR_COOKIE_DAYS: i64 = 90;

/// The most query parameters the start form carries on (hidden fields), and the longest name it carries.
const HIDDEN_FIELDS: usize = 20;
const HIDDEN_NAME: usize = 100;

/// The parameters of a query or form the start form carries on: the first [`HIDDEN_FIELDS`] whose name and value
/// fit ([`HIDDEN_NAME`], [`HIDDEN_VALUE`] characters) and hold no NUL. Which of them become background data is the
/// use case's to decide; the rest are dropped there.
fn hidden(encoded: &[u8]) -> Vec<(String, String)> {
    let fits = |text: &str, max: usize| !text.contains('\0') && text.chars().count() <= max;
    form_urlencoded::parse(encoded)
        .into_owned()
        .filter(|(name, value)| !name.is_empty() && fits(name, HIDDEN_NAME) && fits(value, HIDDEN_VALUE))
        .take(HIDDEN_FIELDS)
        .collect()
}

/// The most `Accept-Language` entries read: a browser sends a handful.
const ACCEPTED_LANGUAGES: usize = 20;

/// The languages among the twelve that the request's `Accept-Language` accepts (quality above zero), best first,
/// as actix-web's typed header parses it; `no` (Norwegian) is taken as `nb`. A header that does not parse accepts
/// none.
fn accepted_languages(req: &HttpRequest) -> Vec<Language> {
    let Ok(header) = AcceptLanguage::parse(req) else { return Vec::new() };
    let mut items: Vec<_> =
        header.0.into_iter().take(ACCEPTED_LANGUAGES).filter(|item| item.quality > Quality::ZERO).collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.quality));
    let mut accepted = Vec::new();
    for item in items {
        let Preference::Specific(tag) = item.item else { continue };
        let primary = tag.primary_language().to_ascii_lowercase();
        let language = if primary == "no" { Some(Language::Nb) } else { primary.parse().ok() };
        if let Some(language) = language.filter(|language| !accepted.contains(language)) {
            accepted.push(language);
        }
    }
    accepted
}

/// What a visitor asks for: the `lang` among `fields` (the link's query, or what the start form carried of it),
/// then its browser's languages.
fn wish(req: &HttpRequest, fields: &[(String, String)]) -> LanguageWish {
    let picked = fields.iter().find(|(name, _)| name == "lang").and_then(|(_, code)| code.parse().ok());
    LanguageWish { picked, accepted: accepted_languages(req) }
}

/// The start page of an open link, or its closed page, in the language the visitor asks for among the survey's; a
/// returning browser is sent to its own page. The link's query (`?dept=Sales`) rides on in the start form as
/// hidden fields.
pub(super) async fn start_page(state: web::Data<AppState>, req: HttpRequest, path: web::Path<String>) -> HttpResponse {
    let handle = path.into_inner();
    let returning = returning_visitor(&state, &req, &handle);
    let carried = hidden(req.query_string().as_bytes());
    let wish = wish(&req, &carried);
    show(&state, handle, returning, carried, wish).await
}

/// Starts a visitor: 303 to its own page (with the cookie when the sendout has one response per browser), or the
/// closed page; a returning browser is sent to its own page and starts no one.
pub(super) async fn start(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    body: RawBody,
) -> HttpResponse {
    let handle = path.into_inner();
    let carried = hidden(&body.0);
    let wish = wish(&req, &carried);
    if let Some(token) = returning_visitor(&state, &req, &handle) {
        return show(&state, handle, Some(token), Vec::new(), wish).await;
    }
    let started = blocking::run(&state, {
        let handle = handle.clone();
        move |uow, clock| open_link::start(uow, clock, &handle, &carried, &wish)
    })
    .await;
    match started {
        Ok(StartOutcome::Started(visitor)) => {
            let mut response = to_own_page(&visitor.token);
            if visitor.one_response_per_browser {
                response.cookie(visitor_cookie(&state, &handle, &visitor.token));
            }
            response.finish()
        }
        Ok(StartOutcome::Closed(view)) => page(StatusCode::OK, html::open_link(&view, &format!("/s/{handle}"), &[])),
        Err(problem) => failure(&problem, Language::default()),
    }
}

/// Looks `handle` up (an unknown or rotated one is the 404 page, cookie or not), then sends a `returning` browser
/// to its own page, or shows the start page (carrying `carried` on) or the closed page.
async fn show(
    state: &AppState,
    handle: String,
    returning: Option<String>,
    carried: Vec<(String, String)>,
    wish: LanguageWish,
) -> HttpResponse {
    let action = format!("/s/{handle}");
    match blocking::run(state, move |uow, clock| open_link::start_page(uow, clock, &handle, &wish)).await {
        Ok(_) if returning.is_some() => to_own_page(returning.as_deref().unwrap_or_default()).finish(),
        Ok(view) => page(StatusCode::OK, html::open_link(&view, &action, &carried)),
        Err(problem) => failure(&problem, Language::default()),
    }
}

/// A 303 to the visitor's own page, `/r/<token>`.
fn to_own_page(token: &str) -> actix_web::HttpResponseBuilder {
    let mut response = HttpResponse::SeeOther();
    response.insert_header((LOCATION, format!("/r/{token}")));
    response
}

/// The cookie that remembers `token` for the open link `handle`: encrypted and authenticated, HttpOnly,
/// SameSite=Lax, Secure when the service is served over https, on the link's path, for 90 days.
fn visitor_cookie(state: &AppState, handle: &str, token: &str) -> Cookie<'static> {
    let mut jar = CookieJar::new();
    let cookie = Cookie::build(VISITOR_COOKIE, token.to_owned())
        .path(format!("/s/{handle}"))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.public_url.starts_with("https://"))
        .max_age(Duration::days(VISITOR_COOKIE_DAYS))
        .finish();
    jar.private_mut(&state.cookie_key).add(cookie);
    jar.delta().next().cloned().unwrap_or_else(|| Cookie::new(VISITOR_COOKIE, ""))
}

/// The token a returning browser's cookie holds, when it decrypts with the service's key and names the account
/// `handle` names; `None` for no cookie or one that is not ours.
fn returning_visitor(state: &AppState, req: &HttpRequest, handle: &str) -> Option<String> {
    let cookie = req.cookie(VISITOR_COOKIE)?;
    let mut jar = CookieJar::new();
    jar.add_original(cookie);
    let token = jar.private(&state.cookie_key).get(VISITOR_COOKIE)?.value().to_owned();
    let same_account = survey_link_route(&token).is_some() && survey_link_route(&token) == survey_link_route(handle);
    same_account.then_some(token)
}
