//! Alerts: "tell the store manager when a customer scores 0 to 6". An alert of a survey names conditions (as
//! logic and quotas do) and up to twenty email addresses; when an answer set completes and meets the conditions,
//! each address gets an email saying which survey and sendout, and with `includeAnswers` the answers. Here are the
//! rules an alert obeys and the emails one completion makes; they are written to the alert outbox in the
//! transaction that completes the set, and sent by the delivery worker as invitations are.

pub mod ports;
mod text;

use time::OffsetDateTime;
use validator::ValidateEmail;

use crate::answer::AnswerSet;
use crate::error::FieldError;
use crate::ids::{AlertId, AnswerSetId, SurveyId};
use crate::limits::{fits, push_length, CONTACT};
use crate::survey::{check_conditions, Conditions, Facts, QuestionTree};

pub use text::AlertOrigin;

/// The most characters of an alert's name.
pub const ALERT_NAME: usize = 200;
/// The most recipients of one alert.
pub const ALERT_RECIPIENTS: usize = 20;

/// An alert as a client gives it.
#[derive(Clone, PartialEq, Eq)]
pub struct AlertInput {
    /// What it is called; 1 to [`ALERT_NAME`] characters, not blank, no control character.
    pub name: String,
    /// The completed sets it tells of.
    pub when: Conditions,
    /// Whom it tells: 1 to [`ALERT_RECIPIENTS`] email addresses, no two the same (compared case-insensitively).
    pub recipients: Vec<String>,
    /// Whether its emails carry the set's answers.
    pub include_answers: bool,
}

impl AlertInput {
    /// The input with its recipients trimmed, as it is checked and stored.
    pub fn trimmed(mut self) -> Self {
        for recipient in &mut self.recipients {
            let trimmed = recipient.trim();
            if trimmed.len() != recipient.len() {
                *recipient = trimmed.to_owned();
            }
        }
        self
    }

    /// The broken rules of the alert against the survey's tree: its name, its recipients (each named by its place,
    /// `recipients[2]`) and its conditions (which may name any item that takes an answer, and background labels).
    pub fn check(&self, tree: &QuestionTree) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.name.trim().is_empty() {
            errors.push(FieldError::new("name", "must not be blank"));
        } else if self.name.contains(char::is_control) {
            errors.push(FieldError::new("name", "must not hold a control character"));
        }
        push_length(&mut errors, "name", &self.name, ALERT_NAME);
        if !(1..=ALERT_RECIPIENTS).contains(&self.recipients.len()) {
            let message = format!("must hold 1 to {ALERT_RECIPIENTS} email addresses");
            errors.push(FieldError::new("recipients", message));
        }
        let mut seen: Vec<String> = Vec::with_capacity(self.recipients.len());
        for (at, recipient) in self.recipients.iter().enumerate().take(ALERT_RECIPIENTS) {
            let field = format!("recipients[{at}]");
            let key = recipient.to_lowercase();
            if !fits(recipient, CONTACT) || !recipient.validate_email() {
                errors.push(FieldError::new(field, "must be an email address of at most 320 characters"));
            } else if let Some(first) = seen.iter().position(|earlier| *earlier == key) {
                errors.push(FieldError::new(field, format!("repeats recipients[{first}]")));
            }
            seen.push(key);
        }
        errors.extend(check_conditions(&self.when, "when", tree, &|_| None));
        errors
    }
}

/// A stored alert.
#[derive(Clone, PartialEq, Eq)]
pub struct Alert {
    /// The alert's id.
    pub id: AlertId,
    /// Its survey.
    pub survey_id: SurveyId,
    /// What it is.
    pub input: AlertInput,
    /// When it was made.
    pub created_at: OffsetDateTime,
}

impl Alert {
    /// Whether a completed set with these facts sets it off.
    pub fn met_by(&self, facts: &dyn Facts) -> bool {
        self.input.when.holds(facts)
    }
}

/// Whether any alert's conditions name a background label (the respondent's background is then read to decide).
pub fn name_background(alerts: &[Alert]) -> bool {
    alerts.iter().any(|alert| alert.input.when.names_background())
}

/// One email an alert sends about one answer set, to one recipient, as the alert outbox keeps it until it is sent.
#[derive(Clone, PartialEq, Eq)]
pub struct AlertEmail {
    /// The alert that sends it.
    pub alert_id: AlertId,
    /// The set it tells of.
    pub answer_set_id: AnswerSetId,
    /// Where it goes.
    pub recipient: String,
    /// Its subject.
    pub subject: String,
    /// Its text.
    pub body: String,
}

/// The emails the `met` alerts send about the completed `set` of a survey with this `tree`: one per alert and
/// recipient, each saying which survey and sendout (`origin`) and, for an alert with `includeAnswers`, the answers.
pub fn alert_emails(met: &[&Alert], origin: &AlertOrigin<'_>, tree: &QuestionTree, set: &AnswerSet) -> Vec<AlertEmail> {
    met.iter()
        .flat_map(|alert| {
            let (subject, body) = text::written(alert, origin, tree, set);
            alert.input.recipients.iter().map(move |recipient| AlertEmail {
                alert_id: alert.id,
                answer_set_id: set.id,
                recipient: recipient.clone(),
                subject: subject.clone(),
                body: body.clone(),
            })
        })
        .collect()
}

crate::debug_without_personal_data!(AlertInput { include_answers });
crate::debug_without_personal_data!(Alert { id, survey_id, created_at });
crate::debug_without_personal_data!(AlertEmail { alert_id, answer_set_id });

#[cfg(test)]
mod tests;
