//! Request and response bodies: the JSON shapes of the contract, kept apart from the domain's types and turned
//! into domain input by `into_domain` methods. Dates and answer values read themselves (`client_date`,
//! `answer_value`), so a body that reaches a handler holds only readable values.

pub mod account;
pub mod alert;
pub mod answer;
pub mod answer_value;
pub mod audit;
pub mod bgdata;
pub mod blocklist;
pub mod client_date;
pub mod contact;
pub mod contact_list;
pub mod erasure;
pub mod export;
pub mod governance;
pub mod insight;
pub mod logic_schemas;
mod mirror;
pub mod person;
pub mod preview;
pub mod qr;
pub mod questionnaire;
pub mod quota;
pub mod report;
pub mod respondent;
pub mod schemas;
pub mod sendout;
pub mod sight;
pub mod survey;
pub mod team;
pub mod timeline;
pub mod translation;
pub mod webhook;

use std::collections::BTreeMap;

use canvass_domain::distribution::BackgroundData;
use canvass_domain::ids::LabelId;
use canvass_domain::{DomainError, FieldError};

/// Field errors with the domain's field names put in the body's terms by `wire` (the domain names the fields of
/// its inputs; where a body nests or names them differently, the DTO that reads it says where they stand).
pub fn on_the_wire(errors: Vec<FieldError>, wire: impl Fn(&str) -> String) -> Vec<FieldError> {
    errors.into_iter().map(|error| FieldError { field: wire(&error.field), message: error.message }).collect()
}

/// [`on_the_wire`] for the field errors of a validation error; other errors pass unchanged.
pub fn error_on_the_wire(error: DomainError, wire: impl Fn(&str) -> String) -> DomainError {
    match error {
        DomainError::Invalid(errors) => DomainError::Invalid(on_the_wire(errors, wire)),
        other => other,
    }
}

/// Background data cells as a body carries them (label id to value) in the domain's terms.
pub fn cells_to_domain(cells: BTreeMap<i64, String>) -> BackgroundData {
    cells.into_iter().map(|(label, value)| (LabelId::new(label), value)).collect()
}

/// The domain's background data cells as a body carries them: label id to value.
pub fn cells_of_domain(cells: BackgroundData) -> BTreeMap<i64, String> {
    cells.into_iter().map(|(label, value)| (label.get(), value)).collect()
}
