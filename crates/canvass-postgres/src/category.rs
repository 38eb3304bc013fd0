//! Survey categories on PostgreSQL.

use canvass_domain::category::{Category, CategoryName};
use canvass_domain::ids::{AccountId, CategoryId};
use canvass_domain::ports::{CategoryRepository, RepoResult};
use diesel::prelude::*;
use time::OffsetDateTime;

use crate::error::OrRepoError;
use crate::schema::categories;
use crate::PgUnitOfWork;

type CategoryColumns = (categories::id, categories::name, categories::created_at);
const COLUMNS: CategoryColumns = (categories::id, categories::name, categories::created_at);

fn category((id, name, created_at): (i64, String, OffsetDateTime)) -> Category {
    Category { id: CategoryId::new(id), name, created_at }
}

impl CategoryRepository for PgUnitOfWork<'_> {
    fn list_categories(&mut self, account: AccountId) -> RepoResult<Vec<Category>> {
        let rows = categories::table
            .filter(categories::account_id.eq(account.get()))
            .order(categories::id)
            .select(COLUMNS)
            .load(self.conn)
            .or_repo()?;
        Ok(rows.into_iter().map(category).collect())
    }

    fn find_category(&mut self, account: AccountId, id: CategoryId) -> RepoResult<Option<Category>> {
        let row = categories::table
            .filter(categories::account_id.eq(account.get()).and(categories::id.eq(id.get())))
            .select(COLUMNS)
            .first(self.conn)
            .optional()
            .or_repo()?;
        Ok(row.map(category))
    }

    fn insert_category(
        &mut self,
        account: AccountId,
        name: &CategoryName,
        now: OffsetDateTime,
    ) -> RepoResult<Category> {
        let row = diesel::insert_into(categories::table)
            .values((
                categories::account_id.eq(account.get()),
                categories::name.eq(name.as_str()),
                categories::created_at.eq(now),
            ))
            .returning(COLUMNS)
            .get_result(self.conn)
            .or_repo()?;
        Ok(category(row))
    }
}
