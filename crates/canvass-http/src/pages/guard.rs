//! The guard in front of the respondent pages: answer and login form posts must come from `PUBLIC_URL`'s origin or
//! the host they were sent to (a missing `Origin` is allowed; the one-click opt-out is exempt), and a client (behind
//! `TRUSTED_PROXIES`, the client's own address; an IPv6 client by its /64) that guessed too many unknown link tokens,
//! login identifiers or login pages is answered 429 until its window passes. It is wrapped on each page's resource
//! (`pages::configure`), which names the [`Page`]; the sendout id is the segment the route matched, never read from
//! the raw path text, so every spelling of a page meets the same guard and budget. Every answer of a page's route
//! carries the pages' security headers (`middleware::headers::write_page`). A refusal on a login page is
//! in its sendout's language; one under `/r/` is in English, for a page in the link's language would tell a
//! refused guesser which links are real.
//! The counts are [`crate::limits`]': this process's, or with `LIMITS_URL` the whole service's; a guess the shared
//! counts cannot record is answered 503 ("try again shortly") rather than as an unknown credential.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderValue, HOST, ORIGIN, RETRY_AFTER};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpResponse};
use canvass_domain::language::Language;

use super::failures::Scope;
use super::html;
use super::words::{words, Words};
use crate::limits::GuessCheck;
use crate::middleware::headers;
use crate::state::AppState;

/// The respondent pages, by their route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// `/r/{token}`: the survey behind a link token.
    Survey,
    /// `/r/{token}/opt-out`.
    OptOut,
    /// `/login/{sendoutId}`.
    Login,
    /// `/s/{handle}`: a LINK sendout's open link.
    OpenLink,
}

/// Put in a page's response extensions by a handler that was given an unknown link token or login identifier.
#[derive(Debug, Clone, Copy)]
pub struct UnknownCredential {
    /// The failures this page allows an address within its window (a login page's grows with its sendout);
    /// `None`: the scope's default.
    pub budget: Option<u32>,
}

/// What a page request guesses at: link tokens, or the login identifiers of the sendout its `sendoutId` segment
/// names in canonical spelling, or (any other login page) sendouts.
fn scope_of(page: Page, sendout_segment: Option<&str>) -> Scope {
    match page {
        Page::Survey | Page::OptOut | Page::OpenLink => Scope::Tokens,
        Page::Login => match sendout_segment.and_then(super::login_sendout) {
            Some(sendout) => Scope::Login(sendout),
            None => Scope::UnknownSendouts,
        },
    }
}

/// The scopes whose failures refuse a request at `scope`: a login page is also refused to a client that guessed
/// at sendouts.
fn refusing(scope: Scope) -> impl Iterator<Item = Scope> {
    let sendouts = matches!(scope, Scope::Login(_)).then_some(Scope::UnknownSendouts);
    std::iter::once(scope).chain(sendouts)
}

/// Where a failure at `scope` counts: a login page that named no LOGIN sendout (its answer gave no budget) counts
/// as a guess at sendouts.
fn counted_at(scope: Scope, unknown: UnknownCredential) -> Scope {
    match (scope, unknown.budget) {
        (Scope::Login(_), None) => Scope::UnknownSendouts,
        _ => scope,
    }
}

/// Whether the `Origin` of a form post is acceptable: absent, the same origin as `public_origin`, or naming the
/// `host` (`name[:port]`, from the `Host` header) the post was sent to. A cross-site page cannot forge either.
pub fn origin_allowed(origin: Option<&HeaderValue>, public_origin: &str, host: Option<&str>) -> bool {
    let Some(origin) = origin else { return true };
    let Some(url) = origin.to_str().ok().and_then(|text| url::Url::parse(text).ok()) else { return false };
    let serialized = url.origin().ascii_serialization();
    if serialized == public_origin {
        return true;
    }
    let authority = serialized.split_once("://").map(|(_, authority)| authority);
    matches!((authority, host), (Some(authority), Some(host)) if authority.eq_ignore_ascii_case(host))
}

/// A refusal page in the language of the scope's page: a login page's sendout's, English under `/r/`.
async fn refusal(
    state: &AppState,
    scope: &Scope,
    status: StatusCode,
    text: fn(&Words) -> &'static str,
) -> HttpResponse {
    let language = match scope {
        Scope::Login(sendout) => super::login_language(state, *sendout).await,
        Scope::Tokens | Scope::UnknownSendouts | Scope::Starts(..) => Language::default(),
    };
    let words = words(language);
    let body = html::message(language, words.survey, text(words));
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(body.into_string())
}

/// The 429 page of `scope`, with `Retry-After` the whole seconds of `wait` (at least one).
async fn too_many(state: &AppState, scope: &Scope, wait: std::time::Duration) -> HttpResponse {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let mut page = refusal(state, scope, StatusCode::TOO_MANY_REQUESTS, |words| words.too_many_attempts).await;
    page.headers_mut().insert(RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    page
}

/// The 503 page of an unknown credential the shared limits could not count, with `Retry-After`.
async fn unavailable(state: &AppState, scope: &Scope) -> HttpResponse {
    let mut page = refusal(state, scope, StatusCode::SERVICE_UNAVAILABLE, |words| words.try_again_shortly).await;
    page.headers_mut().insert(RETRY_AFTER, HeaderValue::from(crate::problem::UNAVAILABLE_RETRY_AFTER));
    page
}

/// The middleware of `page`'s resource: see the module documentation.
pub async fn guard(
    page: Page,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let mut response = check(page, req, next).await?;
    headers::write_page(response.headers_mut());
    Ok(response)
}

/// The guard's checks and counts, around the page.
async fn check(
    page: Page,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let scope = scope_of(page, req.match_info().get("sendoutId"));
    let is_post = req.method() == Method::POST;
    let host = req.headers().get(HOST).and_then(|host| host.to_str().ok());
    if is_post && page != Page::OptOut && !origin_allowed(req.headers().get(ORIGIN), &state.public_origin, host) {
        let page = refusal(&state, &scope, StatusCode::FORBIDDEN, |words| words.cross_site).await;
        return Ok(req.into_response(page));
    }
    let trusted = &state.protection.trusted_proxies;
    let address = req.peer_addr().map(|peer| trusted.client_address(peer.ip(), req.headers()));
    let is_attempt = is_post || scope == Scope::Tokens;
    let mut unchecked = false;
    if let (true, Some(address)) = (is_attempt, address) {
        let scopes: Vec<Scope> = refusing(scope).collect();
        match state.limits.guess_check(address, &scopes).await {
            GuessCheck::Free => {}
            GuessCheck::Wait(wait) => return Ok(req.into_response(too_many(&state, &scope, wait).await)),
            GuessCheck::Unchecked => unchecked = true,
        }
    }
    // An open link's starts (views do not count) are limited per address and link: the one past the limit is
    // refused before it reaches the store, and each start that passes is counted.
    let starts = (page == Page::OpenLink && is_post).then(|| req.match_info().get("handle").and_then(Scope::starts_of));
    if let (Some(Some(starts)), Some(address)) = (starts, address) {
        if let Some(wait) = state.limits.start(address, starts).await {
            return Ok(req.into_response(too_many(&state, &starts, wait).await));
        }
    }
    let response = next.call(req).await?;
    let unknown = response.response().extensions().get::<UnknownCredential>().copied();
    if let (Some(address), Some(unknown)) = (address, unknown) {
        // A guess that cannot be counted is not answered as one (the shared limits fail closed for guesses).
        let counted =
            !unchecked && state.limits.record_guess(address, counted_at(scope, unknown), unknown.budget).await.is_ok();
        if !counted {
            let page = unavailable(&state, &scope).await;
            return Ok(response.into_response(page));
        }
    }
    Ok(response.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        let public = "https://survey.example";
        let allowed =
            |origin: &'static str, host| origin_allowed(Some(&HeaderValue::from_static(origin)), public, host);
        assert!(origin_allowed(None, public, None));
        assert!(allowed("https://survey.example", None));
        assert!(allowed("https://SURVEY.example:443", None));
        assert!(!allowed("http://survey.example", None));
        assert!(!allowed("https://evil.example", Some("survey.example")));
        assert!(!allowed("null", Some("survey.example")));
        assert!(allowed("http://localhost:8080", Some("localhost:8080")), "the host the page was opened on");
        assert!(!allowed("http://localhost:8081", Some("localhost:8080")), "another port is another origin");
    }

    #[test]
    fn the_style_is_served_as_hashed() {
        let page = html::message(Language::Sv, "t", "").into_string();
        assert!(page.contains(&format!("<style>{}</style>", super::super::STYLE)), "the CSP hash would not match");
    }

    #[test]
    fn scopes_are_parsed_values() {
        use canvass_domain::ids::SendoutId;
        assert_eq!(scope_of(Page::OptOut, None), Scope::Tokens);
        assert_eq!(scope_of(Page::Survey, None), Scope::Tokens);
        assert_eq!(scope_of(Page::Login, Some("42")), Scope::Login(SendoutId::new(42)));
        for other in ["042", "+42", "%2B42", "42.0", "x", ""] {
            assert_eq!(scope_of(Page::Login, Some(other)), Scope::UnknownSendouts, "{other}");
        }
        assert_eq!(scope_of(Page::Login, None), Scope::UnknownSendouts);
    }

    #[test]
    fn a_login_page_of_no_sendout_counts_and_is_refused_as_a_guess_at_sendouts() {
        use canvass_domain::ids::SendoutId;
        let page = Scope::Login(SendoutId::new(7));
        assert_eq!(counted_at(page, UnknownCredential { budget: None }), Scope::UnknownSendouts);
        assert_eq!(counted_at(page, UnknownCredential { budget: Some(30) }), page);
        assert_eq!(refusing(page).collect::<Vec<_>>(), [page, Scope::UnknownSendouts]);
        assert_eq!(refusing(Scope::Tokens).collect::<Vec<_>>(), [Scope::Tokens]);
    }
}
