//! The directory's search: one statement finds the account's matching contacts once, through the trigram index
//! `contacts_search`, and answers both the page and the count. Two statements (a count, then an `ORDER BY id
//! LIMIT`) each read the index, and the page's planner, which expects a hundred matches whatever the term, may walk
//! the primary key instead until it has found its page: through every contact for a term that finds one.

use canvass_domain::directory::Contact;
use canvass_domain::ids::{AccountId, ContactListId};
use canvass_domain::paging::{Page, PageRequest};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use super::ContactRow;
use crate::prepared::prepared;

/// The text `search` looks in: the index expression of `contacts_search`, written the same way so that the planner
/// uses it.
macro_rules! searched {
    () => {
        "lower(coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(first_name, '') || ' ' \
         || coalesce(last_name, ''))"
    };
}

/// The page `$3` rows long from row `$4` of the account's (`$1`) contacts whose searched text is `LIKE $2`, and
/// their count on each row; `$members` narrows them to a list's members.
macro_rules! search_statement {
    ($($members:tt)*) => {
        concat!(
            "WITH matched AS MATERIALIZED (SELECT id FROM contacts WHERE account_id = $1 AND ",
            searched!(),
            " LIKE $2",
            $($members)*,
            "), shown AS (SELECT id FROM matched ORDER BY id LIMIT $3 OFFSET $4) \
             SELECT c.id, c.email, c.phone, c.first_name, c.last_name, c.language, c.attributes, c.created_at, \
                    c.updated_at, (SELECT count(*) FROM matched) AS total_count \
             FROM shown JOIN contacts c ON c.account_id = $1 AND c.id = shown.id ORDER BY c.id"
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

const SEARCH: &str = search_statement!("");
const SEARCH_LIST: &str = search_statement!(of_list!("$5"));
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
    let rows: Vec<FoundRow> = match list {
        None => prepared(SEARCH)
            .bind::<BigInt, _>(account)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(size)
            .bind::<BigInt, _>(offset)
            .load(conn)?,
        Some(list) => prepared(SEARCH_LIST)
            .bind::<BigInt, _>(account)
            .bind::<Text, _>(pattern)
            .bind::<BigInt, _>(size)
            .bind::<BigInt, _>(offset)
            .bind::<BigInt, _>(list.get())
            .load(conn)?,
    };
    let total_count = match rows.first() {
        Some(row) => row.total_count,
        None if offset == 0 => 0,
        None => {
            let count: Count = match list {
                None => prepared(COUNT).bind::<BigInt, _>(account).bind::<Text, _>(pattern).get_result(conn)?,
                Some(list) => prepared(COUNT_LIST)
                    .bind::<BigInt, _>(account)
                    .bind::<Text, _>(pattern)
                    .bind::<BigInt, _>(list.get())
                    .get_result(conn)?,
            };
            count.total_count
        }
    };
    Ok(Page { request: page, items: rows.into_iter().map(|row| Contact::from(row.contact)).collect(), total_count })
}
