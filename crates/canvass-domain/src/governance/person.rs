//! What an account holds on one person, as a subject access request asks: the directory's contacts with the
//! person's address or number, the respondents made of it in every sendout with their background data, answer sets
//! and timelines, the copies of those answer sets, blocklist entries, permanent failures and the messages not yet
//! sent. Read set-based by contact key, whatever the number of sendouts.

use crate::answer::AnswerSet;
use crate::directory::Contact;
use crate::distribution::{BlocklistEntry, PermanentFailure, Respondent, RespondentEvent};
use crate::ids::SurveyId;

/// One respondent made of the person, with what hangs on it.
#[derive(Clone)]
pub struct PersonRespondent {
    /// The survey of its sendout.
    pub survey_id: SurveyId,
    /// The respondent, contact details and background data included.
    pub respondent: Respondent,
    /// Its answer sets, with their answers.
    pub answer_sets: Vec<AnswerSet>,
    /// Its timeline, oldest first.
    pub events: Vec<RespondentEvent>,
}

/// Messages about the person not yet sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PendingMessages {
    /// Invitations.
    pub invitations: u64,
    /// Reminders.
    pub reminders: u64,
    /// Alert emails about the person's answers, or to the person.
    pub alert_emails: u64,
}

/// Everything an account holds on one person.
#[derive(Clone, Default)]
pub struct HeldOnPerson {
    /// The directory's contacts whose email address or phone number it is.
    pub contacts: Vec<Contact>,
    /// The respondents made of it, in id order.
    pub respondents: Vec<PersonRespondent>,
    /// Copies of their answer sets (surveys copied with their answers), with their answers.
    pub copied_answer_sets: Vec<AnswerSet>,
    /// The blocklist's entries for it.
    pub blocklist: Vec<BlocklistEntry>,
    /// The permanent failures recorded for it.
    pub permanent_failures: Vec<PermanentFailure>,
    /// What is not yet sent.
    pub pending_messages: PendingMessages,
}

crate::debug_without_personal_data!(PersonRespondent { survey_id });
crate::debug_without_personal_data!(HeldOnPerson { pending_messages });
