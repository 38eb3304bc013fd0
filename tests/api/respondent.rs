//! What a respondent meets: the survey pages behind a link or a login, and the public handles that find them.

pub(crate) mod public_handles;

mod languages;
mod open_links;
mod respondent_page;
mod translated_pages;
