//! Use cases: each takes a [`UnitOfWork`](crate::ports::UnitOfWork), the caller's account and checked or raw
//! input, applies the domain's rules and returns the result or a [`DomainError`](crate::DomainError).

pub mod accounts;
pub mod alerts;
pub mod answers;
pub mod audit;
pub mod bgdata;
pub mod blocklist;
pub mod bounces;
pub mod categories;
mod completion;
pub mod contact_import;
pub mod contact_lists;
pub mod contacts;
pub mod delivery;
pub mod erasure;
pub mod exports;
pub mod frequency;
pub mod idempotency;
pub mod insight;
pub mod monitoring;
pub mod open_link;
pub mod questionnaire;
pub mod quotas;
pub mod reports;
pub mod respondent_page;
pub mod respondents;
pub mod retention;
pub mod retention_policies;
pub mod retention_rules;
pub mod senders;
pub mod sendouts;
pub mod surveys;
pub mod team;
pub mod timelines;
pub mod translations;
pub mod twoway;
pub mod webhooks;

#[cfg(test)]
mod tests;
