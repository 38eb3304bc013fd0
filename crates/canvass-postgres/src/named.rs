//! Domain enums in TEXT columns, stored by their names. One generic wrapper reads every enum whose names the
//! domain derives (`FromStr`, from strum), so no row parses a column by hand; writes bind the derived name
//! (`as_str`). The CHECK constraints of the columns hold the same names.

use std::str::FromStr;

use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::pg::{Pg, PgValue};
use diesel::sql_types::Text;

/// A domain enum read from its name in a TEXT column; a name the enum does not know is a deserialization error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FromSqlRow)]
pub(crate) struct Named<E>(pub E);

impl<E: FromStr> FromSql<Text, Pg> for Named<E> {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        let name = std::str::from_utf8(value.as_bytes())?;
        name.parse().map(Named).map_err(|_| format!("stored name `{name}` is unknown").into())
    }
}
