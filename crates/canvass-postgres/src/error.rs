//! Maps diesel's errors to the domain's [`RepoError`] by meaning.

use canvass_domain::RepoError;
use diesel::result::{DatabaseErrorKind, Error};

/// What PostgreSQL and libpq say when the server cannot be used now: the connection was closed or terminated, the
/// server is shutting down, starting or in recovery, or a statement ran past `statement_timeout`. diesel reports
/// these with kind `Unknown` unless libpq has already marked the connection bad, and it does not expose the
/// SQLSTATE, so they are recognised by their (English) messages.
const UNAVAILABLE_MESSAGES: [&str; 9] = [
    "canceling statement due to statement timeout",
    "terminating connection due to",
    "the database system is",
    "server closed the connection unexpectedly",
    "no connection to the server",
    "could not send data to server",
    "could not receive data from server",
    "connection to server was lost",
    "SSL connection has been closed unexpectedly",
];

fn means_unavailable(message: &str) -> bool {
    UNAVAILABLE_MESSAGES.iter().any(|known| message.contains(known))
}

/// Maps a diesel error: unique violations to `Duplicate` (naming the constraint), foreign key and serialization
/// failures to `Concurrent`; a closed or terminated connection, a server that is going away and a statement
/// cancelled by the statement timeout to `Unavailable` (as is a transaction manager that such a failure left
/// broken); anything else to `Other`.
pub fn map_diesel_error(error: Error) -> RepoError {
    match error {
        Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            RepoError::Duplicate(info.constraint_name().unwrap_or("unknown").to_owned())
        }
        Error::DatabaseError(
            kind @ (DatabaseErrorKind::ForeignKeyViolation | DatabaseErrorKind::SerializationFailure),
            info,
        ) => RepoError::Concurrent(format!("{kind:?}: {}", info.constraint_name().unwrap_or("unknown"))),
        Error::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
            RepoError::Unavailable(info.message().to_owned())
        }
        Error::DatabaseError(_, info) if means_unavailable(info.message()) => {
            RepoError::Unavailable(info.message().to_owned())
        }
        Error::BrokenTransactionManager => RepoError::Unavailable(Error::BrokenTransactionManager.to_string()),
        other => RepoError::Other(other.to_string()),
    }
}

/// Shorthand for mapping a diesel result.
pub(crate) trait OrRepoError<T> {
    /// Maps the error with [`map_diesel_error`].
    fn or_repo(self) -> Result<T, RepoError>;
}

impl<T> OrRepoError<T> for Result<T, Error> {
    fn or_repo(self) -> Result<T, RepoError> {
        self.map_err(map_diesel_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database_error(kind: DatabaseErrorKind) -> Error {
        Error::DatabaseError(kind, Box::new("violates a constraint".to_owned()))
    }

    #[test]
    fn errors_are_mapped_by_meaning() {
        assert!(matches!(
            map_diesel_error(database_error(DatabaseErrorKind::UniqueViolation)),
            RepoError::Duplicate(_)
        ));
        for kind in [DatabaseErrorKind::ForeignKeyViolation, DatabaseErrorKind::SerializationFailure] {
            assert!(matches!(map_diesel_error(database_error(kind)), RepoError::Concurrent(_)));
        }
        assert!(matches!(
            map_diesel_error(database_error(DatabaseErrorKind::ClosedConnection)),
            RepoError::Unavailable(_)
        ));
        assert!(matches!(map_diesel_error(Error::NotFound), RepoError::Other(_)));
    }

    #[test]
    fn lost_connections_and_timeouts_are_unavailable() {
        for message in [
            "terminating connection due to administrator command",
            "canceling statement due to statement timeout",
            "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally",
            "the database system is shutting down",
        ] {
            let error = Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new(message.to_owned()));
            assert!(matches!(map_diesel_error(error), RepoError::Unavailable(_)), "{message}");
        }
        assert!(matches!(map_diesel_error(Error::BrokenTransactionManager), RepoError::Unavailable(_)));
        let syntax = Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new("syntax error at or near".to_owned()));
        assert!(matches!(map_diesel_error(syntax), RepoError::Other(_)));
    }
}
