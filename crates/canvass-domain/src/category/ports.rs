//! The ports of categories: what the domain needs from a store for survey categories.
//!
//! Every method is scoped by the caller's `AccountId` unless its documentation says otherwise; the rules every
//! adapter follows are in [`crate::ports`].

use crate::category::{Category, CategoryName};
use crate::ids::{AccountId, CategoryId};
use crate::ports::RepoResult;
use time::OffsetDateTime;

/// Survey categories.
pub trait CategoryRepository {
    /// The account's categories, in creation order.
    fn list_categories(&mut self, account: AccountId) -> RepoResult<Vec<Category>>;
    /// One category of the account.
    fn find_category(&mut self, account: AccountId, id: CategoryId) -> RepoResult<Option<Category>>;
    /// Stores a new category.
    fn insert_category(&mut self, account: AccountId, name: &CategoryName, now: OffsetDateTime)
        -> RepoResult<Category>;
}
