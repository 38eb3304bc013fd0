//! Hand-written SQL that diesel still prepares once per connection and reuses.
//!
//! `diesel::sql_query` marks itself unsafe to cache, because its text could be built at run time: every call
//! then parses and plans its statement anew. [`prepared`] takes only a `&'static str`, which cannot vary, so
//! diesel's statement cache keeps the statement under its text and later calls only bind and execute. Values are
//! bound with `.bind::<SqlType, _>(value)` as with `sql_query`, and rows read with `QueryableByName`.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId, UncheckedBind};
use diesel::sql_types::Untyped;
use diesel::{QueryResult, RunQueryDsl};

/// A statement whose text is fixed at compile time, cached as a prepared statement by its text.
#[derive(Debug, Clone, Copy)]
#[must_use = "statements run only when executed or loaded"]
pub struct Prepared {
    sql: &'static str,
}

/// A statement of fixed text: bind its parameters (`$1`, `$2`, ...) in order with `.bind`.
pub fn prepared(sql: &'static str) -> Prepared {
    Prepared { sql }
}

impl Prepared {
    /// Binds the next parameter as a value of SQL type `ST`.
    pub fn bind<ST, Value>(self, value: Value) -> UncheckedBind<Self, Value, ST> {
        UncheckedBind::new(self, value)
    }
}

impl QueryFragment<Pg> for Prepared {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(self.sql);
        Ok(())
    }
}

/// No static id: the cache keys the statement by its (fixed) text and the types of its parameters.
impl QueryId for Prepared {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Prepared {
    type SqlType = Untyped;
}

impl<Conn> RunQueryDsl<Conn> for Prepared {}

#[cfg(test)]
mod tests {
    use diesel::sql_types::{BigInt, Text};
    use diesel::{PgConnection, QueryableByName};

    use super::*;

    #[derive(QueryableByName, Debug, PartialEq)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        n: i64,
        #[diesel(sql_type = Text)]
        s: String,
    }

    fn prepared_count(conn: &mut PgConnection) -> i64 {
        #[derive(QueryableByName)]
        struct Count {
            #[diesel(sql_type = BigInt)]
            n: i64,
        }
        diesel::sql_query("SELECT count(*) AS n FROM pg_prepared_statements")
            .get_result::<Count>(conn)
            .map(|c| c.n)
            .unwrap_or(-1)
    }

    #[test]
    fn binds_in_order_and_is_prepared_once_per_connection() {
        let db = canvass_testdb::TestDatabase::new();
        let mut conn = db.connect();
        let before = prepared_count(&mut conn);
        for n in 1..=3_i64 {
            let row: Row = prepared("SELECT $1 + 1 AS n, $2 AS s")
                .bind::<BigInt, _>(n)
                .bind::<Text, _>(format!("call {n}"))
                .get_result(&mut conn)
                .unwrap_or_else(|e| panic!("query failed: {e}"));
            assert_eq!(row, Row { n: n + 1, s: format!("call {n}") });
        }
        // Three calls, one named statement on the server; sql_query would have left none.
        assert_eq!(prepared_count(&mut conn), before + 1);
    }
}
