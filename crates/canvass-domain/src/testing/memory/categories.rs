//! Survey categories.

use time::OffsetDateTime;

use super::Memory;
use crate::category::{Category, CategoryName};
use crate::ids::{AccountId, CategoryId};
use crate::ports::{CategoryRepository, RepoResult};

impl CategoryRepository for Memory {
    fn list_categories(&mut self, account: AccountId) -> RepoResult<Vec<Category>> {
        let ours = self.state.categories.iter().filter(|(owner, _)| *owner == account);
        Ok(ours.map(|(_, category)| category.clone()).collect())
    }

    fn find_category(&mut self, account: AccountId, id: CategoryId) -> RepoResult<Option<Category>> {
        let found = self.state.categories.iter().find(|(owner, c)| *owner == account && c.id == id);
        Ok(found.map(|(_, category)| category.clone()))
    }

    fn insert_category(
        &mut self,
        account: AccountId,
        name: &CategoryName,
        now: OffsetDateTime,
    ) -> RepoResult<Category> {
        let category =
            Category { id: CategoryId::new(self.state.next_id()), name: name.as_str().into(), created_at: now };
        self.state.categories.push((account, category.clone()));
        Ok(category)
    }
}
