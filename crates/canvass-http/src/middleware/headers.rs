//! Security headers: those of every answer, written by the request layer (`request.rs`), and those of the
//! respondent pages, written by the pages' guard (`pages/guard.rs`) on every answer of a page's route. The respondent
//! pages (`/r/...`, `/login/...`) get a Content-Security-Policy that allows no script, only the pages' own inline
//! style (by its hash), forms posting only to the same origin and no framing, plus `Referrer-Policy: same-origin` so
//! link tokens never leave in a `Referer` to another site (and browsers still send the pages' own `Origin` on their
//! form posts, which `no-referrer` would turn into `null`, failing the Origin check). Every answer, API and pages
//! alike (errors and 401s included), carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.

use std::sync::LazyLock;

use actix_web::http::header::{
    HeaderMap, HeaderValue, CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use base64::Engine;
use sha2::{Digest, Sha256};

/// The pages' Content-Security-Policy.
pub static PAGE_CSP: LazyLock<String> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(crate::pages::STYLE.as_bytes()));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
});

/// [`PAGE_CSP`] as a header value, made once: every page answer shares its bytes.
static PAGE_CSP_VALUE: LazyLock<Option<HeaderValue>> = LazyLock::new(|| HeaderValue::from_str(&PAGE_CSP).ok());

/// Writes the headers of every answer. The values are static: nothing is allocated per answer.
pub fn write(headers: &mut HeaderMap) {
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
}

/// Writes the headers of an answer to a respondent page (besides [`write`]'s).
pub fn write_page(headers: &mut HeaderMap) {
    if let Some(csp) = PAGE_CSP_VALUE.as_ref() {
        headers.insert(CONTENT_SECURITY_POLICY, csp.clone());
    }
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_policy_allows_no_script_and_only_the_pages_style() {
        assert!(PAGE_CSP.starts_with("default-src 'none';"));
        assert!(!PAGE_CSP.contains("script-src"));
        assert!(!PAGE_CSP.contains("unsafe"));
        assert!(PAGE_CSP.contains("frame-ancestors 'none'") && PAGE_CSP.contains("form-action 'self'"));
    }

    #[test]
    fn pages_get_their_policy_and_every_answer_the_common_headers() {
        let mut page = HeaderMap::new();
        write(&mut page);
        write_page(&mut page);
        assert_eq!(page.get(CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()), Some(PAGE_CSP.as_str()));
        assert_eq!(page.get(REFERRER_POLICY).and_then(|v| v.to_str().ok()), Some("same-origin"));
        let mut api = HeaderMap::new();
        write(&mut api);
        assert!(api.get(CONTENT_SECURITY_POLICY).is_none() && api.get(REFERRER_POLICY).is_none());
        for headers in [&page, &api] {
            assert_eq!(headers.get(CACHE_CONTROL).and_then(|v| v.to_str().ok()), Some("no-store"));
            assert_eq!(headers.get(X_CONTENT_TYPE_OPTIONS).and_then(|v| v.to_str().ok()), Some("nosniff"));
        }
    }
}
