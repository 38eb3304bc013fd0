//! Query strings and path parameters, read with the name of any offending parameter.

use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use super::problem_of;
use super::reader::{self, Mode};
use crate::problem::Problem;

/// The one query parameter that may be repeated, each time adding a value: the answer filters' conditions. It
/// reads as a list, once given or many times.
pub const REPEATED: &str = "where";

/// A query string, read with the name of any offending parameter (a repeated parameter counts once: its last
/// value; except [`REPEATED`], a list of every value given).
#[derive(Debug)]
pub struct QueryOf<T>(pub T);

impl<T: DeserializeOwned> FromRequest for QueryOf<T> {
    type Error = Problem;
    type Future = Ready<Result<Self, Problem>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let mut fields = serde_json::Map::new();
        for (name, value) in form_urlencoded::parse(req.query_string().as_bytes()).into_owned() {
            let value = serde_json::Value::String(value);
            if name == REPEATED {
                let list = fields.entry(name).or_insert_with(|| serde_json::Value::Array(Vec::new()));
                if let serde_json::Value::Array(values) = list {
                    values.push(value);
                }
            } else {
                fields.insert(name, value);
            }
        }
        let query = reader::read(&serde_json::Value::Object(fields), Mode::Text);
        ready(query.map(QueryOf).map_err(|error| problem_of(&error)))
    }
}

/// Answers malformed path parameters (`/surveys/abc`) with a 400 problem.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default()
        .error_handler(|error, _| Problem::invalid_field("path", format!("invalid path parameter: {error}")).into())
}
