//! The account's directory of contacts (`/contacts`).

mod contacts;
