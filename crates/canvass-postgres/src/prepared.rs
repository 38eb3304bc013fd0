//! Hand-written SQL that diesel still prepares once per connection and reuses.
//!
//! `diesel::sql_query` marks itself unsafe to cache, because its text could be built at run time: every call
//! then parses and plans its statement anew. [`prepared`] takes only a `&'static str`, which cannot vary, so
//! diesel's statement cache keeps the statement under its text and later calls only bind and execute. Values are
//! bound with `.bind::<SqlType, _>(value)` as with `sql_query`, and rows read with `QueryableByName`.

use std::marker::PhantomData;

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::serialize::ToSql;
use diesel::sql_types::{HasSqlType, Untyped};
use diesel::{QueryResult, RunQueryDsl};

/// A statement whose text is fixed at compile time, cached as a prepared statement by its text.
#[derive(Debug, Clone, Copy)]
#[must_use = "statements run only when executed or loaded"]
pub struct Prepared {
    sql: &'static str,
}

/// A statement of fixed text: bind its parameters (`$1`, `$2`, ...) in order with `.bind`. A parameter may
/// appear more than once; `$` followed by a digit must mean a parameter (not inside a string literal).
pub fn prepared(sql: &'static str) -> Prepared {
    Prepared { sql }
}

impl Prepared {
    /// Binds `$1` as a value of SQL type `ST`.
    pub fn bind<ST, Value>(self, value: Value) -> Bound<Self, Value, ST> {
        Bound { query: self, value, sql_type: PhantomData }
    }
}

/// A [`Prepared`] statement with its parameters bound so far; the last one is `value`, of SQL type `ST`.
#[derive(Debug, Clone, Copy)]
#[must_use = "statements run only when executed or loaded"]
pub struct Bound<Q, Value, ST> {
    query: Q,
    value: Value,
    sql_type: PhantomData<ST>,
}

impl<Q, Value, ST> Bound<Q, Value, ST> {
    /// Binds the next parameter as a value of SQL type `ST2`.
    pub fn bind<ST2, Value2>(self, value: Value2) -> Bound<Self, Value2, ST2> {
        Bound { query: self, value, sql_type: PhantomData }
    }
}

/// A statement's text and its numbered parameters.
pub trait Params {
    /// The statement's text, with `$n` placeholders.
    fn sql(&self) -> &'static str;
    /// How many parameters are bound.
    fn bound(&self) -> usize;
    /// Pushes parameter `n` (from 1) as a bind parameter.
    fn push_param<'b>(&'b self, n: usize, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()>;
}

impl Params for Prepared {
    fn sql(&self) -> &'static str {
        self.sql
    }

    fn bound(&self) -> usize {
        0
    }

    fn push_param<'b>(&'b self, n: usize, _: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        Err(diesel::result::Error::QueryBuilderError(format!("parameter ${n} is not bound").into()))
    }
}

impl<Q: Params, Value, ST> Params for Bound<Q, Value, ST>
where
    Pg: HasSqlType<ST>,
    Value: ToSql<ST, Pg>,
{
    fn sql(&self) -> &'static str {
        self.query.sql()
    }

    fn bound(&self) -> usize {
        self.query.bound() + 1
    }

    fn push_param<'b>(&'b self, n: usize, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        if n == self.bound() {
            out.push_bind_param::<ST, Value>(&self.value)
        } else {
            self.query.push_param(n, out)
        }
    }
}

/// Writes the statement's text, each `$n` replaced by diesel's own placeholder for parameter `n`'s value.
fn walk_statement<'b>(statement: &'b impl Params, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
    let sql = statement.sql();
    let bytes = sql.as_bytes();
    let (mut written, mut at) = (0, 0);
    while at < bytes.len() {
        if bytes[at] == b'$' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit) {
            let digits = bytes[at + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let n: usize = sql[at + 1..at + 1 + digits].parse().unwrap_or(0);
            out.push_sql(&sql[written..at]);
            statement.push_param(n, &mut out)?;
            at += 1 + digits;
            written = at;
        } else {
            at += 1;
        }
    }
    out.push_sql(&sql[written..]);
    Ok(())
}

impl QueryFragment<Pg> for Prepared {
    fn walk_ast<'b>(&'b self, out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        walk_statement(self, out)
    }
}

impl<Q: Params, Value, ST> QueryFragment<Pg> for Bound<Q, Value, ST>
where
    Pg: HasSqlType<ST>,
    Value: ToSql<ST, Pg>,
{
    fn walk_ast<'b>(&'b self, out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        walk_statement(self, out)
    }
}

/// No static id: the cache keys the statement by its (fixed) text and the types of its parameters.
impl QueryId for Prepared {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q, Value, ST> QueryId for Bound<Q, Value, ST> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Prepared {
    type SqlType = Untyped;
}

impl<Q, Value, ST> Query for Bound<Q, Value, ST> {
    type SqlType = Untyped;
}

impl<Conn> RunQueryDsl<Conn> for Prepared {}

impl<Conn, Q, Value, ST> RunQueryDsl<Conn> for Bound<Q, Value, ST> {}

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
            let row: Row = prepared("SELECT $1 + 1 AS n, $2 || ' ' || ($1 * 2)::text AS s")
                .bind::<BigInt, _>(n)
                .bind::<Text, _>(format!("call {n}"))
                .get_result(&mut conn)
                .unwrap_or_else(|e| panic!("query failed: {e}"));
            assert_eq!(row, Row { n: n + 1, s: format!("call {n} {}", n * 2) });
        }
        // Three calls, one named statement on the server; sql_query would have left none.
        assert_eq!(prepared_count(&mut conn), before + 1);
    }
}
