//! The account's directory of contacts (`/contacts`) and its lists (`/contact-lists`).

mod contacts;
mod lists;
