//! Query strings and path parameters, read with the name of any offending parameter.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use super::problem_of;
use super::reader::{self, Mode};
use crate::problem::Problem;

/// A query string, read with the name of any offending parameter (a repeated parameter counts once: its last
/// value).
#[derive(Debug)]
pub struct QueryOf<T>(pub T);

impl<T: DeserializeOwned> FromRequest for QueryOf<T> {
    type Error = Problem;
    type Future = Ready<Result<Self, Problem>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let pairs = form_urlencoded::parse(req.query_string().as_bytes());
        let fields = pairs.into_owned().map(|(name, value)| (name, serde_json::Value::String(value))).collect();
        let query = reader::read(&serde_json::Value::Object(fields), Mode::Text);
        ready(query.map(QueryOf).map_err(|error| problem_of(&error)))
    }
}

/// Answers malformed path parameters (`/surveys/abc`) with a 400 problem.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default()
        .error_handler(|error, _| Problem::invalid_field("path", format!("invalid path parameter: {error}")).into())
}
