//! Where the distribution flows' tests start in the one in-memory store: account 1 with one survey and one Draft
//! sendout, and respondents, sendouts and other surveys' releases seeded beside them.

use crate::distribution::{DispatchType, RespondentStatus};
use crate::ids::{AccountId, RespondentId, SendoutId, SurveyId};
use crate::testing::{Memory, NOW};

/// The account the flows run as.
pub const ACCOUNT: AccountId = AccountId::new(1);

impl Memory {
    /// A store holding survey 1 of [`ACCOUNT`] with one Draft sendout of `kind` (sender `+4790000001` for SMS
    /// kinds).
    pub fn with_sendout(kind: DispatchType) -> (Self, SurveyId, SendoutId) {
        let mut memory = Self::default();
        let survey = SurveyId::new(1);
        memory.seed_survey(ACCOUNT, survey);
        let sendout = memory.another_sendout(survey, kind);
        (memory, survey, sendout)
    }

    /// Adds a pending respondent to `sendout` of [`ACCOUNT`]; returns its id.
    pub fn pending(&mut self, sendout: SendoutId, contact: &str) -> RespondentId {
        self.seed_respondent(ACCOUNT, sendout, contact)
    }

    /// Adds a Draft sendout of `kind` to `survey`; returns its id.
    pub fn another_sendout(&mut self, survey: SurveyId, kind: DispatchType) -> SendoutId {
        let id = SendoutId::new(self.state.next_id());
        self.seed_sendout(ACCOUNT, survey, id, kind);
        id
    }

    /// The contact was released at [`NOW`] in `surveys` other surveys of [`ACCOUNT`] (made for it).
    pub fn released_elsewhere(&mut self, contact: &str, surveys: i64) {
        for _ in 0..surveys {
            let survey = SurveyId::new(self.state.next_id());
            self.seed_survey(ACCOUNT, survey);
            let sendout = self.another_sendout(survey, DispatchType::Email);
            let id = self.pending(sendout, contact);
            let held = self.state.respondents.iter_mut().find(|held| held.row.id == id);
            if let Some(held) = held {
                (held.row.status, held.released_at) = (RespondentStatus::Sent, Some(NOW));
            }
        }
    }

    /// The status of the respondent of [`ACCOUNT`] with these contact details.
    pub fn status_of_contact(&self, contact: &str) -> RespondentStatus {
        let found = self.state.respondents.iter().find(|held| held.row.contact_details == contact);
        found.map(|held| held.row.status).unwrap_or_else(|| panic!("no respondent {contact}"))
    }
}
