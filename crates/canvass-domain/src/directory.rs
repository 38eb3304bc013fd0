//! The account's directory of contacts, kept across sendouts: who a contact is (an email address or a phone
//! number, names, a language, attributes of the account's choosing), the rules a contact obeys, and how a change
//! merges into it.

mod contact;
mod import;
mod list;
pub mod ports;

pub use contact::{
    check_attribute_name, Contact, ContactDraft, ContactInput, ContactPatch, MAX_ATTRIBUTES, MAX_ATTRIBUTE_VALUE,
    MAX_PERSON_NAME,
};
pub use import::{ImportHeader, ImportRow, MAX_IMPORT_ROWS};
pub use list::{list_name, ContactDetail, ContactList, ListChunk, ListEntry, MAX_MEMBERS_PER_CALL};
