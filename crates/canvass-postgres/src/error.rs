//! Maps diesel's errors to the domain's [`RepoError`] by meaning, whatever language the server writes its
//! messages in (`lc_messages`).

mod cancelled;

use canvass_domain::RepoError;
use diesel::result::{DatabaseErrorKind, Error};

pub(crate) use cancelled::learn_cancellation;

/// Maps a diesel error, which becomes the [`RepoError`]'s source: unique violations to `Duplicate` (naming the
/// constraint), foreign key and serialization failures to `Concurrent`; a connection that was closed or lost
/// (diesel says `ClosedConnection` when libpq marked it bad or the SQLSTATE is of class 08, `UnableToSendCommand`
/// when libpq could not send), a transaction manager that such a failure left broken, and a statement cancelled by
/// `statement_timeout` (see [`cancelled`]) to `Unavailable`; anything else to `Other`.
pub fn map_diesel_error(error: Error) -> RepoError {
    match &error {
        Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
            let constraint = info.constraint_name().unwrap_or("unknown").to_owned();
            RepoError::Duplicate { constraint, source: error.into() }
        }
        Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation | DatabaseErrorKind::SerializationFailure, _) => {
            RepoError::Concurrent(error.into())
        }
        Error::DatabaseError(DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand, _)
        | Error::BrokenTransactionManager => RepoError::Unavailable(error.into()),
        Error::DatabaseError(DatabaseErrorKind::Unknown, info) if cancelled::is_cancellation(info.message()) => {
            RepoError::Unavailable(error.into())
        }
        _ => RepoError::Other(error.into()),
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
    use std::error::Error as _;

    use super::*;

    fn database_error(kind: DatabaseErrorKind, message: &str) -> Error {
        Error::DatabaseError(kind, Box::new(message.to_owned()))
    }

    #[test]
    fn errors_are_mapped_by_meaning_and_keep_diesels_as_their_source() {
        let duplicate = map_diesel_error(database_error(DatabaseErrorKind::UniqueViolation, "violates a constraint"));
        assert!(matches!(&duplicate, RepoError::Duplicate { constraint, .. } if constraint == "unknown"));
        assert_eq!(duplicate.source().map(ToString::to_string).as_deref(), Some("violates a constraint"));
        for kind in [DatabaseErrorKind::ForeignKeyViolation, DatabaseErrorKind::SerializationFailure] {
            assert!(matches!(map_diesel_error(database_error(kind, "x")), RepoError::Concurrent(_)));
        }
        assert!(matches!(map_diesel_error(Error::NotFound), RepoError::Other(_)));
    }

    #[test]
    fn lost_connections_are_unavailable_by_kind_not_by_message() {
        // libpq's and the server's words, in German: the kind says it, not the text.
        for kind in [DatabaseErrorKind::ClosedConnection, DatabaseErrorKind::UnableToSendCommand] {
            let error = database_error(kind, "Verbindung zum Server wurde verloren");
            assert!(matches!(map_diesel_error(error), RepoError::Unavailable(_)), "{kind:?}");
        }
        assert!(matches!(map_diesel_error(Error::BrokenTransactionManager), RepoError::Unavailable(_)));
        let syntax = database_error(DatabaseErrorKind::Unknown, "syntax error at or near");
        assert!(matches!(map_diesel_error(syntax), RepoError::Other(_)));
    }
}
