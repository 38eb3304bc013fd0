//! Endpoints that a provider or relay calls with a shared secret instead of an API key (`/sms/inbound`,
//! `/inbound/dsn`): unset, the endpoint does not exist (404); a wrong or missing secret is a 401.

use actix_web::HttpRequest;
use canvass_domain::account::same_secret;

use crate::problem::{Problem, ProblemKind};

/// Checks the secret the request carries in `header` against the configured one (compared as SHA-256 digests,
/// in constant time). `setting` names the variable that turns the endpoint on, for the 404's detail.
pub fn check(req: &HttpRequest, header: &str, configured: Option<&str>, setting: &str) -> Result<(), Problem> {
    let Some(configured) = configured else {
        return Err(Problem::new(ProblemKind::NotFound, format!("this endpoint is off ({setting} is not set)")));
    };
    let presented = req.headers().get(header).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if same_secret(configured, presented) {
        Ok(())
    } else {
        Err(Problem::new(ProblemKind::Unauthorized, format!("send the shared secret as {header}")))
    }
}
