//! Data governance: retention policies and rules, and erasure of a person.

mod erasure;
mod retention_policies;
mod retention_rules;
