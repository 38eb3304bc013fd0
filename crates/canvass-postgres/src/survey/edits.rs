//! Changes of a live question tree: pages and items inserted, updated, deleted and put in order.
//!
//! Positions are unique per survey (pages) and per page (items), and the constraints are checked row by row, so
//! a new order is written in two statements: every row of it first to a negative position (`-1 - position`),
//! which no settled row holds, then all of them flipped back. A new page or item goes after the last one; the
//! use case then orders the whole page list or page when it goes elsewhere. The caller holds the survey's row
//! ([`canvass_domain::ports::SurveyRepository::begin_tree_change`]), so no other change of the tree runs between
//! these statements.

use canvass_domain::ids::{AccountId, PageId, QuestionItemId, SurveyId};
use canvass_domain::survey::QuestionItemDraft;
use diesel::dsl::max;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt};
use diesel::QueryResult;

use super::ItemContent;
use crate::prepared::prepared;
use crate::schema::{question_items, survey_pages};

/// Moves the survey's pages `ids` to the negative positions of their order.
const PAGES_TO_NEGATIVE: &str = "\
UPDATE survey_pages p SET position = -u.n::int
FROM unnest($3::bigint[]) WITH ORDINALITY AS u(id, n)
WHERE p.account_id = $1 AND p.survey_id = $2 AND p.id = u.id";

/// Flips the survey's pages at negative positions back to `0..`.
const PAGES_FLIPPED: &str = "\
UPDATE survey_pages SET position = -position - 1 WHERE account_id = $1 AND survey_id = $2 AND position < 0";

/// Moves the items `ids` onto the pages `pages` at the negative positions of their order on each page (`$5`, from
/// 1).
const ITEMS_TO_NEGATIVE: &str = "\
UPDATE question_items q SET page_id = u.page_id, position = -u.n::int
FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS u(id, page_id, n)
WHERE q.account_id = $1 AND q.survey_id = $2 AND q.id = u.id";

/// Flips the survey's items at negative positions back to `0..`.
const ITEMS_FLIPPED: &str = "\
UPDATE question_items SET position = -position - 1 WHERE account_id = $1 AND survey_id = $2 AND position < 0";

/// The next free position after the survey's pages.
fn next_page_position(conn: &mut PgConnection, account: i64, survey: i64) -> QueryResult<i32> {
    let last: Option<i32> = survey_pages::table
        .filter(survey_pages::account_id.eq(account).and(survey_pages::survey_id.eq(survey)))
        .select(max(survey_pages::position))
        .first(conn)?;
    Ok(last.map_or(0, |last| last + 1))
}

/// The next free position after the page's items.
fn next_item_position(conn: &mut PgConnection, account: i64, page: i64) -> QueryResult<i32> {
    let last: Option<i32> = question_items::table
        .filter(question_items::account_id.eq(account).and(question_items::page_id.eq(page)))
        .select(max(question_items::position))
        .first(conn)?;
    Ok(last.map_or(0, |last| last + 1))
}

pub(super) fn insert_page(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    title: &str,
    randomize_items: bool,
) -> QueryResult<PageId> {
    let position = next_page_position(conn, account.get(), survey.get())?;
    diesel::insert_into(survey_pages::table)
        .values((
            survey_pages::account_id.eq(account.get()),
            survey_pages::survey_id.eq(survey.get()),
            survey_pages::position.eq(position),
            survey_pages::title.eq(title),
            survey_pages::randomize_items.eq(randomize_items),
        ))
        .returning(survey_pages::id)
        .get_result(conn)
        .map(PageId::new)
}

pub(super) fn update_page(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
    title: &str,
    randomize_items: bool,
) -> QueryResult<()> {
    diesel::update(survey_pages::table)
        .filter(
            survey_pages::account_id
                .eq(account.get())
                .and(survey_pages::survey_id.eq(survey.get()))
                .and(survey_pages::id.eq(page.get())),
        )
        .set((survey_pages::title.eq(title), survey_pages::randomize_items.eq(randomize_items)))
        .execute(conn)
        .map(drop)
}

pub(super) fn delete_page(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
) -> QueryResult<()> {
    diesel::delete(survey_pages::table)
        .filter(
            survey_pages::account_id
                .eq(account.get())
                .and(survey_pages::survey_id.eq(survey.get()))
                .and(survey_pages::id.eq(page.get())),
        )
        .execute(conn)
        .map(drop)
}

pub(super) fn order_pages(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    pages: &[PageId],
) -> QueryResult<()> {
    let ids: Vec<i64> = pages.iter().map(|page| page.get()).collect();
    prepared(PAGES_TO_NEGATIVE)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Array<BigInt>, _>(&ids)
        .execute(conn)?;
    prepared(PAGES_FLIPPED).bind::<BigInt, _>(account.get()).bind::<BigInt, _>(survey.get()).execute(conn).map(drop)
}

pub(super) fn insert_item(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    page: PageId,
    item: &QuestionItemDraft,
) -> QueryResult<QuestionItemId> {
    let position = next_item_position(conn, account.get(), page.get())?;
    diesel::insert_into(question_items::table)
        .values((
            question_items::account_id.eq(account.get()),
            question_items::survey_id.eq(survey.get()),
            question_items::page_id.eq(page.get()),
            question_items::position.eq(position),
            ItemContent::of(item),
        ))
        .returning(question_items::id)
        .get_result(conn)
        .map(QuestionItemId::new)
}

pub(super) fn update_item(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    id: QuestionItemId,
    item: &QuestionItemDraft,
) -> QueryResult<()> {
    diesel::update(question_items::table)
        .filter(
            question_items::account_id
                .eq(account.get())
                .and(question_items::survey_id.eq(survey.get()))
                .and(question_items::id.eq(id.get())),
        )
        .set(ItemContent::of(item))
        .execute(conn)
        .map(drop)
}

pub(super) fn place_items(
    conn: &mut PgConnection,
    account: AccountId,
    survey: SurveyId,
    layout: &[(PageId, Vec<QuestionItemId>)],
) -> QueryResult<()> {
    let (mut ids, mut pages, mut numbers) = (Vec::new(), Vec::new(), Vec::new());
    for (page, items) in layout {
        for (n, item) in (1_i64..).zip(items) {
            ids.push(item.get());
            pages.push(page.get());
            numbers.push(n);
        }
    }
    if ids.is_empty() {
        return Ok(());
    }
    prepared(ITEMS_TO_NEGATIVE)
        .bind::<BigInt, _>(account.get())
        .bind::<BigInt, _>(survey.get())
        .bind::<Array<BigInt>, _>(&ids)
        .bind::<Array<BigInt>, _>(&pages)
        .bind::<Array<BigInt>, _>(&numbers)
        .execute(conn)?;
    prepared(ITEMS_FLIPPED).bind::<BigInt, _>(account.get()).bind::<BigInt, _>(survey.get()).execute(conn).map(drop)
}
