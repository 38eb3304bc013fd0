//! The directory's search, through the trigram index `contacts_search`. A term that finds at most
//! [`FEW`] contacts is answered by one statement that finds them once and reads both the page and the count; a
//! term that finds more (found out by the same statement, which stops at one more) by a count and a page in id
//! order, which finds its rows at once among so many. Two statements for every term would read the index twice,
//! and the page's planner, which expects a hundred matches whatever the term, walks the primary key until it has
//! found its page: through every contact for a term that finds one.
//!
//! The statements are planned for each term (`sql_query`, which diesel does not keep prepared): the term decides
//! the plan, and a generic plan, made once for any term, reads the index for a term that finds every contact and
//! made that search three times slower than its own SQL.

use canvass_domain::directory::Contact;
use canvass_domain::ids::{AccountId, ContactListId};
use canvass_domain::paging::{Page, PageRequest};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use super::ContactRow;

/// The text `search` looks in: the index expression of `contacts_search`, written the same way so that the planner
/// uses it.
macro_rules! searched {
    () => {
        "lower(coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(first_name, '') || ' ' \
         || coalesce(last_name, ''))"
    };
}

/// The most matches a search answers with one statement.
const FEW: i64 = 10_000;

/// The columns of a contact, and the count of the statement's matches, from `c` and `matched`.
macro_rules! contact_columns {
    () => {
        "c.id, c.email, c.phone, c.first_name, c.last_name, c.language, c.attributes, c.created_at, c.updated_at"
    };
}

/// The page `$3` rows long from row `$4` of the account's (`$1`) contacts whose searched text is `LIKE $2`, if at
/// most `$5` match, and on each row their count, which is `$5 + 1` when more match; `$members` narrows them to a
/// list's members.
macro_rules! few_statement {
    ($($members:tt)*) => {
        concat!(
            "WITH matched AS MATERIALIZED (SELECT id FROM contacts WHERE account_id = $1 AND ",
            searched!(),
            " LIKE $2",
            $($members)*,
            " LIMIT $5 + 1), shown AS (SELECT id FROM matched ORDER BY id LIMIT $3 OFFSET $4) \
             SELECT ",
            contact_columns!(),
            ", (SELECT count(*) FROM matched) AS total_count \
             FROM shown JOIN contacts c ON c.account_id = $1 AND c.id = shown.id ORDER BY c.id"
        )
    };
}

/// The page `$3` rows long from row `$4` of the account's (`$1`) contacts whose searched text is `LIKE $2`, in id
/// order; `$members` as above.
macro_rules! page_statement {
    ($($members:tt)*) => {
        concat!(
            "SELECT ",
            contact_columns!(),
            " FROM contacts c WHERE account_id = $1 AND ",
            searched!(),
            " LIKE $2",
            $($members)*,
            " ORDER BY c.id LIMIT $3 OFFSET $4"
        )
    };
}

/// How many of the account's (`$1`) contacts match (`$2`), for a page past the last; `$members` as above.
macro_rules! count_statement {
    ($($members:tt)*) => {
        concat!("SELECT count(*) AS total_count FROM contacts WHERE account_id = $1 AND ", searched!(), " LIKE $2", $($members)*)
    };
}

/// The members of the account's list whose id is the parameter `$list`.
macro_rules! of_list {
    ($list:literal) => {
        concat!(
            " AND id IN (SELECT contact_id FROM contact_list_members WHERE account_id = $1 AND list_id = ",
            $list,
            ")"
        )
    };
}

const FEW_FOUND: &str = few_statement!("");
const FEW_FOUND_LIST: &str = few_statement!(of_list!("$6"));
const PAGE: &str = page_statement!("");
const PAGE_LIST: &str = page_statement!(of_list!("$5"));
const COUNT: &str = count_statement!("");
const COUNT_LIST: &str = count_statement!(of_list!("$3"));

#[derive(QueryableByName)]
struct FoundRow {
    #[diesel(embed)]
    contact: ContactRow,
    #[diesel(sql_type = BigInt)]
    total_count: i64,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    total_count: i64,
}

/// A page of the account's contacts whose four searched fields hold `pattern` (a `LIKE` pattern), of a list's
/// members when `list` is given, in id order, with their count.
pub(super) fn page(
    conn: &mut PgConnection,
    account: AccountId,
    pattern: &str,
    list: Option<ContactListId>,
    page: PageRequest,
) -> QueryResult<Page<Contact>> {
    let (account, size, offset) = (account.get(), page.size(), page.offset());
    let list = list.map(ContactListId::get);
    let few: Vec<FoundRow> = match list {
        None => diesel::sql_query(FEW_FOUND)
            .bind::<BigInt, _>(account)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(size)
            .bind::<BigInt, _>(offset)
            .bind::<BigInt, _>(FEW)
            .load(conn)?,
        Some(list) => diesel::sql_query(FEW_FOUND_LIST)
            .bind::<BigInt, _>(account)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(size)
            .bind::<BigInt, _>(offset)
            .bind::<BigInt, _>(FEW)
            .bind::<BigInt, _>(list)
            .load(conn)?,
    };
    let (rows, total_count) = match few.first().map(|row| row.total_count) {
        Some(found) if found <= FEW => (few.into_iter().map(|row| row.contact).collect(), found),
        None if offset == 0 => (Vec::new(), 0),
        // Many found, or a page past the last.
        _ => (many(conn, account, pattern, list, size, offset)?, count(conn, account, pattern, list)?),
    };
    Ok(Page { request: page, items: rows.into_iter().map(Contact::from).collect(), total_count })
}

/// The page of a term that finds many.
fn many(
    conn: &mut PgConnection,
    account: i64,
    pattern: &str,
    list: Option<i64>,
    size: i64,
    offset: i64,
) -> QueryResult<Vec<ContactRow>> {
    let statement = |sql| {
        diesel::sql_query(sql)
            .bind::<BigInt, _>(account)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(size)
            .bind::<BigInt, _>(offset)
    };
    match list {
        None => statement(PAGE).load(conn),
        Some(list) => statement(PAGE_LIST).bind::<BigInt, _>(list).load(conn),
    }
}

/// How many the term finds.
fn count(conn: &mut PgConnection, account: i64, pattern: &str, list: Option<i64>) -> QueryResult<i64> {
    let statement = |sql| diesel::sql_query(sql).bind::<BigInt, _>(account).bind::<Text, _>(pattern);
    let found: Count = match list {
        None => statement(COUNT).get_result(conn)?,
        Some(list) => statement(COUNT_LIST).bind::<BigInt, _>(list).get_result(conn)?,
    };
    Ok(found.total_count)
}
