//! The account: its categories and users, and the webhooks it registers.

mod audit_log;
mod categories_and_users;
mod team;
pub(crate) mod webhooks;
