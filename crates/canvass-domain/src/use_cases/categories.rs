//! Categories of an account's surveys.

use crate::category::{Category, CategoryName};
use crate::clock::Clock;
use crate::error::{DomainError, Resource};
use crate::ids::{AccountId, CategoryId};
use crate::ports::CategoryRepository;

/// The account's categories.
pub fn list(uow: &mut (impl CategoryRepository + ?Sized), account: AccountId) -> Result<Vec<Category>, DomainError> {
    Ok(uow.list_categories(account)?)
}

/// One category of the account.
pub fn get(
    uow: &mut (impl CategoryRepository + ?Sized),
    account: AccountId,
    id: CategoryId,
) -> Result<Category, DomainError> {
    uow.find_category(account, id)?.ok_or(DomainError::NotFound(Resource::Category))
}

/// Creates a category.
pub fn create(
    uow: &mut (impl CategoryRepository + ?Sized),
    clock: &dyn Clock,
    account: AccountId,
    name: &str,
) -> Result<Category, DomainError> {
    let name = CategoryName::new(name).map_err(|e| DomainError::Invalid(vec![e]))?;
    Ok(uow.insert_category(account, &name, clock.now())?)
}
