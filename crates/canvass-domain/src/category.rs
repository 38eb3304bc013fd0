//! Categories that group an account's surveys.

pub mod ports;

use time::OffsetDateTime;

use crate::error::FieldError;
use crate::ids::CategoryId;

/// The category id clients send for "not categorized".
pub const UNCATEGORIZED: CategoryId = CategoryId::new(-999);

/// A category of surveys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    /// The category's id.
    pub id: CategoryId,
    /// Its name.
    pub name: String,
    /// When it was created.
    pub created_at: OffsetDateTime,
}

/// A checked category name: non-empty, at most 200 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryName(String);

impl CategoryName {
    /// Checks a name.
    ///
    /// ```
    /// use canvass_domain::category::CategoryName;
    ///
    /// assert_eq!(CategoryName::new(" Staff ").unwrap().as_str(), "Staff");
    /// assert!(CategoryName::new("").is_err());
    /// assert!(CategoryName::new(&"x".repeat(200)).is_ok());
    /// assert!(CategoryName::new(&format!(" {} ", "x".repeat(199))).is_err(), "201 characters as sent");
    /// ```
    pub fn new(name: &str) -> Result<Self, FieldError> {
        crate::limits::check_name("name", name, crate::limits::SHORT_NAME).map(|name| Self(name.to_owned()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What a category id in a request means: `None` and [`UNCATEGORIZED`] leave a survey uncategorized.
///
/// ```
/// use canvass_domain::category::category_of;
/// use canvass_domain::ids::CategoryId;
///
/// assert_eq!(category_of(Some(CategoryId::new(-999))), None);
/// assert_eq!(category_of(None), None);
/// assert_eq!(category_of(Some(CategoryId::new(7))), Some(CategoryId::new(7)));
/// ```
pub fn category_of(requested: Option<CategoryId>) -> Option<CategoryId> {
    requested.filter(|id| *id != UNCATEGORIZED)
}
