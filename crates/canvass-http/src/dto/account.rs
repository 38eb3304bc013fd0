//! Bodies of the account endpoints: categories and settings (users and keys: `team.rs`).

use canvass_domain::account::AccountSettings;
use canvass_domain::category::Category;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

/// A category of surveys.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryResponse {
    /// The category's id.
    pub category_id: i64,
    /// Its name.
    pub name: String,
    /// When it was created.
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl From<Category> for CategoryResponse {
    fn from(category: Category) -> Self {
        Self { category_id: category.id.get(), name: category.name, created_at: category.created_at }
    }
}

/// Creates a category.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCategoryBody {
    /// Non-empty name, at most 200 characters.
    #[schema(min_length = 1, max_length = 200, pattern = "\\S")]
    pub name: String,
}

/// An account's settings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountSettingsBody {
    /// The floor of `minGroupSize` on results broken down: no query of the account may show a smaller group
    /// (1 until set).
    #[schema(minimum = 1, maximum = 10000)]
    pub min_group_size: i64,
}

impl From<AccountSettings> for AccountSettingsBody {
    fn from(settings: AccountSettings) -> Self {
        Self { min_group_size: settings.min_group_size }
    }
}
