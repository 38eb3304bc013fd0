//! Surveys: creating and reading them, their questions and logic, copies, and the answers recorded against them.

mod answer_checks;
mod answer_writes;
mod answers;
mod conditions;
mod copy;
mod create_and_read;
mod display_logic;
mod editing;
mod option_limit;
mod piping;
mod questions;
mod quotas;
mod randomisation;
mod richer_types;
mod thank_you_and_scale_labels;
mod translations;
mod tree_versions;
