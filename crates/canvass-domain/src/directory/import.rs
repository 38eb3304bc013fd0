//! A file of contacts to import, as rows of text: its header (the columns `email`, `phone`, `firstName`,
//! `lastName`, `language` by those names, any other column an attribute of that name; `email` or `phone` among
//! them) and each row read as a change of a contact, in which an empty cell leaves its field as it is.

use std::collections::BTreeMap;

use crate::directory::{check_attribute_name, ContactInput, ContactPatch};
use crate::language::Language;

/// The most rows one file holds, its header aside.
pub const MAX_IMPORT_ROWS: usize = 100_000;

/// What a column of the file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Column {
    Email,
    Phone,
    FirstName,
    LastName,
    Language,
    Attribute(String),
}

/// The file's header row, read: what each column holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportHeader {
    columns: Vec<Column>,
}

impl ImportHeader {
    /// Reads the header row; what is wrong with it, in words, when it names neither `email` nor `phone`, names a
    /// column twice, or names an attribute that breaks the rule of attribute names.
    ///
    /// ```
    /// use canvass_domain::directory::ImportHeader;
    ///
    /// assert!(ImportHeader::new(&["email", "firstName", "tier"]).is_ok());
    /// assert!(ImportHeader::new(&["firstName", "tier"]).is_err(), "neither email nor phone");
    /// assert!(ImportHeader::new(&["phone", "2nd"]).is_err(), "no attribute name");
    /// ```
    pub fn new(names: &[&str]) -> Result<Self, String> {
        let mut columns = Vec::with_capacity(names.len());
        for name in names.iter().map(|name| name.trim()) {
            let column = match name {
                "email" => Column::Email,
                "phone" => Column::Phone,
                "firstName" => Column::FirstName,
                "lastName" => Column::LastName,
                "language" => Column::Language,
                attribute => {
                    check_attribute_name(attribute).map_err(|rule| {
                        let shown: String = attribute.chars().take(41).collect();
                        format!("the column `{shown}` is no attribute name: it {rule}")
                    })?;
                    Column::Attribute(attribute.to_owned())
                }
            };
            if columns.contains(&column) {
                return Err(format!("the column `{name}` is named twice"));
            }
            columns.push(column);
        }
        if !columns.iter().any(|column| matches!(column, Column::Email | Column::Phone)) {
            return Err("the header row must name an `email` or a `phone` column".into());
        }
        Ok(Self { columns })
    }

    /// How many cells each row has.
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// A row's cells as a change of a contact: each non-empty cell (trimmed) sets its field or attribute, an empty
    /// one leaves it; a language that is none of the twelve is what is wrong with the row.
    pub fn row<'a>(&self, cells: impl IntoIterator<Item = &'a str>) -> Result<ImportRow, String> {
        let mut patch = ContactPatch::default();
        for (column, cell) in self.columns.iter().zip(cells) {
            let cell = cell.trim();
            if cell.is_empty() {
                continue;
            }
            let text = Some(Some(cell.to_owned()));
            match column {
                Column::Email => patch.email = text,
                Column::Phone => patch.phone = text,
                Column::FirstName => patch.first_name = text,
                Column::LastName => patch.last_name = text,
                Column::Language => {
                    let language: Language = cell.parse().map_err(|_| {
                        let codes: Vec<&str> = Language::codes().collect();
                        format!("language: must be one of {}", codes.join(", "))
                    })?;
                    patch.language = Some(Some(language));
                }
                Column::Attribute(name) => {
                    patch.attributes.insert(name.clone(), Some(cell.to_owned()));
                }
            }
        }
        Ok(ImportRow { patch })
    }
}

/// One row of a file: the change it makes to the contact it names (or the contact it creates).
#[derive(Clone, PartialEq, Eq)]
pub struct ImportRow {
    patch: ContactPatch,
}

crate::debug_without_personal_data!(ImportRow {});

impl ImportRow {
    /// The row's email address, compared as contacts are compared by it.
    pub fn email_key(&self) -> Option<String> {
        self.given(&self.patch.email).map(crate::distribution::contact_key)
    }

    /// The row's phone number.
    pub fn phone(&self) -> Option<&str> {
        self.given(&self.patch.phone)
    }

    fn given<'a>(&self, field: &'a Option<Option<String>>) -> Option<&'a str> {
        field.as_ref().and_then(|value| value.as_deref())
    }

    /// The change the row makes to a contact that exists.
    pub fn patch(&self) -> ContactPatch {
        self.patch.clone()
    }

    /// The contact the row creates when none exists.
    pub fn input(&self) -> ContactInput {
        let patch = self.patch.clone();
        let attributes: BTreeMap<String, String> =
            patch.attributes.into_iter().filter_map(|(name, value)| Some((name, value?))).collect();
        ContactInput {
            email: patch.email.flatten(),
            phone: patch.phone.flatten(),
            first_name: patch.first_name.flatten(),
            last_name: patch.last_name.flatten(),
            language: patch.language.flatten(),
            attributes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_sets_what_its_cells_hold_and_leaves_the_empty_ones() {
        let header = ImportHeader::new(&[" email ", "phone", "firstName", "language", "tier"]).unwrap();
        assert_eq!(header.width(), 5);
        let row = header.row(["Anna@Example.com", " ", "Anna", "sv", "gold"]).unwrap();
        assert_eq!((row.email_key().as_deref(), row.phone()), (Some("anna@example.com"), None));
        let patch = row.patch();
        assert_eq!((patch.phone, patch.last_name), (None, None), "an empty cell and an absent column leave a field");
        assert_eq!(patch.language, Some(Some(Language::Sv)));
        assert_eq!(row.input().attributes, BTreeMap::from([("tier".to_owned(), "gold".to_owned())]));
        assert!(header.row(["a@example.com", "", "", "klingon", ""]).unwrap_err().starts_with("language: "));
    }

    #[test]
    fn a_header_names_email_or_phone_each_column_once_and_attributes_by_their_rule() {
        assert!(ImportHeader::new(&["phone"]).is_ok());
        assert!(ImportHeader::new(&["email", "email"]).unwrap_err().contains("twice"));
        assert!(ImportHeader::new(&["email", "tier", "tier"]).unwrap_err().contains("twice"));
        assert!(ImportHeader::new(&["email", "first name"]).unwrap_err().contains("`first name`"));
        assert!(ImportHeader::new(&[]).is_err());
    }
}
