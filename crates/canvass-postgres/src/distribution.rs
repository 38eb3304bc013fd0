//! The distribution ports on PostgreSQL: sendouts with their labels, reminders and documents, respondents, the
//! blocklist and permanent failures, releasing respondents on activation, sender numbers, and the counts each
//! sendout row keeps.

pub(crate) mod blocklist;
pub(crate) mod counts;
pub(crate) mod localized;
mod release;
pub(crate) mod respondents;

pub(crate) use respondents::cells_json;
mod senders;
mod sendouts;
pub(crate) mod timeline;
