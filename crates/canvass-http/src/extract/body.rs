//! Request bodies: JSON read into request types with every malformed input answered by a problem naming the
//! field, bytes for forms and documents, and the limits on what a body may be (its size, how long it may take).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use canvass_domain::FieldError;

use super::reader::{self, Mode};
use super::{located, problem_of};
use crate::problem::{Problem, ProblemKind};
use crate::protection::Protection;
use crate::state::AppState;

/// Largest accepted request body.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A JSON request body, deserialized with the path of any offending field.
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Body<T> {
    type Error = Problem;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Problem>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let payload = payload.take();
        Box::pin(async move { read_json(&req, payload).await.map(Body) })
    }
}

/// Reads and deserializes a JSON body: checks the content type (415), its size (413) and how long it takes to
/// arrive (408), then parses it with [`parse_json`].
pub async fn read_json<T: DeserializeOwned>(req: &HttpRequest, payload: Payload) -> Result<T, Problem> {
    let content_type_ok = match req.headers().get(header::CONTENT_TYPE) {
        None => true,
        Some(value) => value.to_str().map(is_json_media_type).unwrap_or(false),
    };
    if !content_type_ok {
        return Err(Problem::new(
            ProblemKind::UnsupportedMediaType,
            "the body must be JSON (Content-Type: application/json)",
        ));
    }
    let bytes = read_body(req, payload).await?;
    parse_json(&bytes)
}

/// Reads a whole body of at most [`MAX_BODY_BYTES`] (413 beyond, declared or actual) within the body read timeout
/// (408 when it has not arrived by then).
pub async fn read_body(req: &HttpRequest, mut payload: Payload) -> Result<web::Bytes, Problem> {
    let declared_length =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    if declared_length.is_some_and(|length| length > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let timeout = req
        .app_data::<web::Data<AppState>>()
        .map_or(Protection::default().body_read_timeout, |state| state.protection.body_read_timeout);
    let read = web::Bytes::from_request(req, &mut payload);
    match actix_web::rt::time::timeout(timeout, read).await {
        Err(_) => Err(Problem::new(
            ProblemKind::RequestTimeout,
            format!("the body did not arrive within {} s", timeout.as_secs_f64()),
        )),
        Ok(Err(error)) => Err(match error.as_response_error().status_code() {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(),
            _ => Problem::new(ProblemKind::MalformedRequest, "the body could not be read"),
        }),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// A body read as bytes (form posts, documents), with the size limit and the body read timeout of [`read_body`].
#[derive(Debug)]
pub struct RawBody(pub web::Bytes);

impl FromRequest for RawBody {
    type Error = Problem;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Problem>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let payload = payload.take();
        Box::pin(async move { read_body(&req, payload).await.map(RawBody) })
    }
}

fn is_json_media_type(value: &str) -> bool {
    let essence = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// 413: a body over [`MAX_BODY_BYTES`].
pub fn too_large() -> Problem {
    Problem::new(ProblemKind::PayloadTooLarge, format!("the body exceeds {MAX_BODY_BYTES} bytes"))
}

/// Deserializes a JSON body: parsed once into a JSON value (a body that is not JSON, with a syntax error anywhere,
/// truncated or with trailing data, is a `malformed-json` problem), then read into `T` by [`reader`], so a wrong,
/// missing or NUL-holding field, or an array where an object belongs, is a validation problem naming it.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|error| Problem::new(ProblemKind::MalformedJson, format!("the body is not valid JSON: {error}")))?;
    reader::read(&value, Mode::Json).map_err(|error| problem_of(&error))
}

/// Refuses urlencoded pairs (a form) with a NUL in a value, which PostgreSQL text cannot hold, naming the first
/// such field.
fn refuse_nul(pairs: form_urlencoded::Parse<'_>) -> Result<(), Problem> {
    match pairs.into_iter().find(|(_, value)| value.contains('\0')) {
        Some((name, _)) => Err(Problem::invalid_field(name.into_owned(), "must not contain the NUL character")),
        None => Ok(()),
    }
}

/// The fields of a submitted HTML form, or a problem naming a field whose value holds NUL.
pub fn form_fields(body: &[u8]) -> Result<Vec<(String, String)>, Problem> {
    refuse_nul(form_urlencoded::parse(body))?;
    Ok(form_urlencoded::parse(body).into_owned().collect())
}

/// Reads one element of a JSON body on its own, naming the offending field under `at` (`[3]`), so that a list
/// can report every malformed element instead of the first.
pub fn from_value_at<T: DeserializeOwned>(value: serde_json::Value, at: &str) -> Result<T, FieldError> {
    reader::read(&value, Mode::Json).map_err(|error| {
        let (field, message) = located(&error);
        FieldError::new(field.map_or_else(|| at.to_owned(), |field| format!("{at}.{field}")), message)
    })
}

/// Caps bodies read as bytes.
pub fn payload_config() -> web::PayloadConfig {
    web::PayloadConfig::new(MAX_BODY_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[expect(dead_code)]
    struct Item {
        required: bool,
    }

    #[derive(Debug, serde::Deserialize)]
    #[expect(dead_code)]
    struct Outer {
        name: String,
        items: Vec<Item>,
    }

    #[test]
    fn wrong_types_name_the_nested_field() {
        let problem = parse_json::<Outer>(br#"{"name":"x","items":[{"required":"yes"}]}"#).unwrap_err();
        assert_eq!(problem.errors[0].field, "items[0].required");
    }

    #[test]
    fn unknown_enum_values_list_the_supported_ones() {
        #[derive(Debug, serde::Deserialize)]
        enum Kind {
            #[serde(rename = "EMAIL")]
            Email,
            #[serde(rename = "SMS")]
            Sms,
        }
        #[derive(Debug, serde::Deserialize)]
        #[expect(dead_code)]
        struct Body {
            kind: Kind,
        }
        #[derive(Debug, serde::Deserialize)]
        #[expect(dead_code)]
        struct Outer {
            bodies: Vec<Body>,
        }
        let problem = parse_json::<Body>(br#"{"kind":"FAX"}"#).unwrap_err();
        assert_eq!(problem.errors[0].field, "kind");
        assert_eq!(problem.supported_values[..], ["EMAIL", "SMS"]);
        for not_a_name in
            [&br#"{"bodies":[{"kind":"SMS"},{"kind":5}]}"#[..], br#"{"bodies":[{"kind":"SMS"},{"kind":true}]}"#]
        {
            let problem = parse_json::<Outer>(not_a_name).unwrap_err();
            assert_eq!((problem.kind, problem.errors[0].field.as_str()), (ProblemKind::Validation, "bodies[1].kind"));
            assert_eq!(problem.supported_values[..], ["EMAIL", "SMS"]);
            assert_eq!(problem.errors[0].message, "must be one of EMAIL, SMS");
        }
        let _ = (Kind::Email, Kind::Sms);
    }

    #[test]
    fn arrays_and_scalars_are_refused_where_an_object_belongs() {
        for body in [&br#"["x", []]"#[..], b"[]", b"7", b"\"x\"", b"null", b"true"] {
            let problem = parse_json::<Outer>(body).unwrap_err();
            assert_eq!((problem.kind, problem.errors[0].field.as_str()), (ProblemKind::Validation, "body"), "{body:?}");
        }
        let list = parse_json::<Vec<Item>>(br#"[{"required":true}]"#).unwrap();
        assert_eq!(list.len(), 1, "array bodies stay arrays");
    }

    #[test]
    fn missing_fields_are_named() {
        let problem = parse_json::<Outer>(br#"{"items":[]}"#).unwrap_err();
        assert_eq!(problem.errors[0].field, "name");
        let problem = parse_json::<Outer>(br#"{"name":"x","items":[{}]}"#).unwrap_err();
        assert_eq!(problem.errors[0].field, "items[0].required");
    }

    #[test]
    fn syntax_errors_are_malformed_json() {
        let inside = [
            &br#"{"name":"x",}"#[..],
            br#"{'name':'x'}"#,
            br#"{"name":tru}"#,
            br#"{"name":"x","items":[{"required":true,]}"#,
        ];
        for body in [&b"{"[..], b"", b"nul", br#"{"name":"x","items":[]} {}"#].into_iter().chain(inside) {
            let problem = parse_json::<Outer>(body).unwrap_err();
            assert_eq!(problem.kind, ProblemKind::MalformedJson, "{body:?}");
        }
    }

    #[test]
    fn nul_is_refused_where_it_stands_and_an_escaped_backslash_is_not_nul() {
        let problem = parse_json::<Outer>(br#"{"name":"a\u0000b","items":[]}"#).unwrap_err();
        assert_eq!((problem.kind, problem.errors[0].field.as_str()), (ProblemKind::Validation, "name"));
        assert!(parse_json::<Outer>(br#"{"name":"a\\u0000b","items":[]}"#).is_ok());
    }

    #[test]
    fn json_media_types_are_recognised() {
        assert!(is_json_media_type("application/json; charset=utf-8"));
        assert!(is_json_media_type("application/merge-patch+json"));
        assert!(!is_json_media_type("text/plain"));
    }
}
