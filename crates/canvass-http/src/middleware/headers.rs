//! Security headers on every answer. The respondent pages (`/r/...`, `/login/...`) get a Content-Security-Policy
//! that allows no script, only the pages' own inline style (by its hash), forms posting only to the same origin and
//! no framing, plus `Referrer-Policy: same-origin` so link tokens never leave in a `Referer` to another site (and
//! browsers still send the pages' own `Origin` on their form posts, which `no-referrer` would turn into `null`,
//! failing the Origin check). Every answer, API and pages alike
//! (errors and 401s included), carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.

use std::sync::LazyLock;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{
    HeaderMap, HeaderName, HeaderValue, CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::middleware::Next;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The pages' Content-Security-Policy.
pub static PAGE_CSP: LazyLock<String> = LazyLock::new(|| {
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(crate::pages::STYLE.as_bytes()));
    format!(
        "default-src 'none'; style-src 'sha256-{hash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )
});

/// Whether a path is one of the respondent pages.
pub fn is_page(path: &str) -> bool {
    path.starts_with("/r/") || path.starts_with("/login/")
}

fn set(headers: &mut HeaderMap, name: HeaderName, value: HeaderValue) {
    headers.insert(name, value);
}

/// Writes the headers for an answer to `path`.
pub fn write(path: &str, headers: &mut HeaderMap) {
    set(headers, CACHE_CONTROL, HeaderValue::from_static("no-store"));
    set(headers, X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if is_page(path) {
        if let Ok(csp) = HeaderValue::from_str(&PAGE_CSP) {
            set(headers, CONTENT_SECURITY_POLICY, csp);
        }
        set(headers, REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    }
}

/// The middleware: see the module documentation.
pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let path = req.path().to_owned();
    let mut response = next.call(req).await?;
    write(&path, response.headers_mut());
    Ok(response)
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
}
