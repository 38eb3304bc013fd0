//! The label values of the request metrics, each from a bounded set: a route template or `unmatched`, a known
//! method or `OTHER`, never anything a client wrote.

use actix_web::http::Method;

/// The route label of a request that matched no route (an unknown path): raw paths never become labels.
pub const UNMATCHED: &str = "unmatched";

/// The route label: the template the request matched (`/api/v1/surveys/{surveyId}`), else [`UNMATCHED`].
pub fn route(matched: Option<String>) -> std::borrow::Cow<'static, str> {
    match matched {
        Some(template) => template.into(),
        None => UNMATCHED.into(),
    }
}

/// The method label: the standard methods by name, any other (clients may send any token) as `OTHER`.
pub fn method(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "OTHER",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matched_request_is_labelled_by_its_template_and_any_other_alike() {
        assert_eq!(route(Some("/api/v1/surveys/{surveyId}".into())), "/api/v1/surveys/{surveyId}");
        assert_eq!(route(None), UNMATCHED);
    }

    #[test]
    fn unknown_methods_share_one_label() {
        assert_eq!(method(&Method::DELETE), "DELETE");
        for token in ["FOO", "get", "PROPFIND"] {
            let Ok(unknown) = Method::from_bytes(token.as_bytes()) else { panic!("{token} is a method token") };
            assert_eq!(method(&unknown), "OTHER", "{token}");
        }
    }
}
