//! Maps diesel's errors to the domain's [`RepoError`] by meaning.

use canvass_domain::RepoError;
use diesel::result::{DatabaseErrorKind, Error};

/// Maps a diesel error: unique violations to `Duplicate` (naming the constraint), foreign key and serialization
/// failures to `Concurrent`, a closed connection to `Unavailable`, anything else to `Other`.
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
}
