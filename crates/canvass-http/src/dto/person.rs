//! The body of what an account holds on one person: one document, for a subject access request.

use canvass_domain::governance::{HeldOnPerson, PersonRespondent};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::answer::AnswerSetResponse;
use super::blocklist::{BlocklistResponse, FailureResponse};
use super::contact::ContactResponse;
use super::respondent::RespondentResponse;
use super::timeline::EventResponse;

/// Whom to look for.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct PersonQuery {
    /// The person's email address (compared case-insensitively) or phone number: 1 to 320 characters, none a
    /// control character.
    #[param(min_length = 1, max_length = 320, pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]+$")]
    pub contact_details: String,
}

/// A respondent made of the person, with its survey, answer sets and timeline.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonRespondentResponse {
    /// The respondent as its sendout lists it (background data included).
    #[serde(flatten)]
    pub respondent: RespondentResponse,
    /// The survey of its sendout.
    pub survey_id: i64,
    /// Its answer sets, with their answers.
    pub answer_sets: Vec<AnswerSetResponse>,
    /// Its timeline, oldest first.
    pub events: Vec<EventResponse>,
}

/// Messages about the person not yet sent.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingMessagesResponse {
    /// Invitations.
    pub invitations: u64,
    /// Reminders.
    pub reminders: u64,
    /// Alert emails about the person's answers, or to the person.
    pub alert_emails: u64,
}

/// Everything the account holds on one person; empty lists where it holds nothing.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonResponse {
    /// The contact asked for, as the service compares it (an email address in lower case).
    pub contact_details: String,
    /// The directory's contacts with this email address or phone number.
    pub contacts: Vec<ContactResponse>,
    /// The respondents made of it, in every sendout.
    pub respondents: Vec<PersonRespondentResponse>,
    /// Copies of their answer sets (surveys copied with their answers).
    pub copied_answer_sets: Vec<AnswerSetResponse>,
    /// The blocklist's entries for it.
    pub blocklist: Vec<BlocklistResponse>,
    /// The permanent failures recorded for it.
    pub permanent_failures: Vec<FailureResponse>,
    /// Messages not yet sent.
    pub pending_messages: PendingMessagesResponse,
}

impl PersonResponse {
    /// The document of `held`, for the contact whose key is `contact_details`; survey links under `public_url`.
    pub fn new(contact_details: String, held: HeldOnPerson, public_url: &str) -> Self {
        let respondent = |held: PersonRespondent| PersonRespondentResponse {
            respondent: RespondentResponse::new(held.respondent, public_url),
            survey_id: held.survey_id.get(),
            answer_sets: held.answer_sets.into_iter().map(AnswerSetResponse::with_answers).collect(),
            events: held.events.into_iter().map(EventResponse::from).collect(),
        };
        let pending = held.pending_messages;
        Self {
            contact_details,
            contacts: held.contacts.into_iter().map(ContactResponse::from).collect(),
            respondents: held.respondents.into_iter().map(respondent).collect(),
            copied_answer_sets: held.copied_answer_sets.into_iter().map(AnswerSetResponse::with_answers).collect(),
            blocklist: held.blocklist.into_iter().map(BlocklistResponse::from).collect(),
            permanent_failures: held.permanent_failures.into_iter().map(FailureResponse::from).collect(),
            pending_messages: PendingMessagesResponse {
                invitations: pending.invitations,
                reminders: pending.reminders,
                alert_emails: pending.alert_emails,
            },
        }
    }
}
