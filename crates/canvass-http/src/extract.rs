//! Extractors: how a request's body, query string and path parameters become request types, answering every
//! malformed input with a problem that names the field (`body`, `query`), read in one pass by `reader`.

pub mod body;
pub mod path;
pub mod query;
mod reader;

use self::reader::ReadError;
use crate::problem::Problem;

/// Where a read failed, relative to what was read (`None`: the whole of it), and what is wrong there.
pub(crate) fn located(error: &serde_path_to_error::Error<ReadError>) -> (Option<String>, String) {
    let path = error.path().to_string();
    let path = (path != ".").then_some(path);
    match error.inner() {
        ReadError::Missing(name) => {
            (Some(path.map_or_else(|| (*name).to_owned(), |path| format!("{path}.{name}"))), "is mandatory".into())
        }
        other => (path, other.to_string()),
    }
}

/// The validation problem of a failed read, with the names an enum takes where one was expected.
pub(crate) fn problem_of(error: &serde_path_to_error::Error<ReadError>) -> Problem {
    let (field, message) = located(error);
    let problem = Problem::invalid_field(field.unwrap_or_else(|| "body".into()), message);
    match error.inner() {
        ReadError::NotOneOf(names) => problem.with_supported_values(names.iter().copied()),
        _ => problem,
    }
}
