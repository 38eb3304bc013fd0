//! The account's directory of contacts (`/contacts`), its import and its lists (`/contact-lists`).

mod contacts;
mod import;
mod lists;
