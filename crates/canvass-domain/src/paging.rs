//! Paging of long lists: which page a client asks for and what a page carries.

use crate::error::FieldError;

/// The largest page a client may ask for.
pub const MAX_PAGE_SIZE: i64 = 1000;

/// A validated page request: `number` from 1, `size` from 1 to [`MAX_PAGE_SIZE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    number: i64,
    size: i64,
}

impl PageRequest {
    /// Checks a page request; `number_field` and `size_field` name the query parameters in errors.
    ///
    /// ```
    /// use canvass_domain::paging::PageRequest;
    ///
    /// let page = PageRequest::new(3, 100, "page", "pagesize").unwrap();
    /// assert_eq!(page.offset(), 200);
    /// assert!(PageRequest::new(0, 100, "page", "pagesize").is_err());
    /// assert!(PageRequest::new(1, 1001, "page", "pagesize").is_err());
    /// ```
    pub fn new(number: i64, size: i64, number_field: &str, size_field: &str) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        if number < 1 {
            errors.push(FieldError::new(number_field, "must be 1 or more"));
        }
        if !(1..=MAX_PAGE_SIZE).contains(&size) {
            errors.push(FieldError::new(size_field, format!("must be between 1 and {MAX_PAGE_SIZE}")));
        }
        if errors.is_empty() {
            Ok(Self { number, size })
        } else {
            Err(errors)
        }
    }

    /// The page number, from 1.
    pub fn number(self) -> i64 {
        self.number
    }

    /// The page size.
    pub fn size(self) -> i64 {
        self.size
    }

    /// How many items come before this page.
    pub fn offset(self) -> i64 {
        (self.number - 1).saturating_mul(self.size)
    }
}

/// One page of a list, with the totals a client needs to walk the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The request this page answers.
    pub request: PageRequest,
    /// Items of the page; empty past the end.
    pub items: Vec<T>,
    /// How many items the whole list has.
    pub total_count: i64,
}

impl<T> Page<T> {
    /// How many pages of this size the whole list fills.
    ///
    /// ```
    /// use canvass_domain::paging::{Page, PageRequest};
    ///
    /// let request = PageRequest::new(1, 10, "page", "pagesize").unwrap();
    /// let page = Page { request, items: Vec::<u8>::new(), total_count: 21 };
    /// assert_eq!(page.page_count(), 3);
    /// ```
    pub fn page_count(&self) -> i64 {
        (self.total_count + self.request.size - 1) / self.request.size
    }
}
